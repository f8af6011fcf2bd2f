import { describe, expect, it } from "vitest";
import {
  DelegationCycleError,
  DelegationDepthError,
  MAX_KEPT_ISSUES,
  parseDelegatedTask,
  parseTaskResponse,
  ProtocolSchemaError,
  TASK_ERROR_CODE_LIST,
  TASK_ERROR_CODES,
  TaskError,
  TaskErrorBodySchema,
  taskErrorFrom,
} from "../../../agents/protocol/index.js";
import { repeat, validResponse, validTask } from "./fixtures.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("ProtocolSchemaError", () => {
  it("is named, coded, not retryable, and lists issues with paths", () => {
    const error = thrown(() => parseDelegatedTask({ ...validTask(), id: 7, grounding: { strategy: "x" } })) as ProtocolSchemaError;
    expect(error).toBeInstanceOf(ProtocolSchemaError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ProtocolSchemaError");
    expect(error.code).toBe("schema_invalid");
    expect(error.retryable).toBe(false);
    expect(error.schema).toBe("DelegatedTask");
    expect(error.issues.map((issue) => issue.path)).toEqual(["id", "grounding.strategy"]);
    expect(error.message).toMatch(/^Invalid DelegatedTask: id: .+; grounding\.strategy: /);
    expect(error.cause).toBeDefined();
  });

  it("shows at most five issues in its message", () => {
    const error = thrown(() => parseTaskResponse({ task_id: 1, status: 2, result: 3, protocol_version: 4, key_findings: 5, metrics: 6 }));
    expect((error as ProtocolSchemaError).issues).toHaveLength(6);
    expect((error as ProtocolSchemaError).message).toContain("(and 1 more)");
  });

  it("keeps a bounded list and short messages for hostile input", () => {
    const metrics = Object.fromEntries(Array.from({ length: 600 }, (_, index) => [`m${index}`, "not a number"]));
    const hostile = { ...validResponse(), metrics: { elapsed_ms: 1, pgc_queries: 0, ...metrics }, [repeat("k", 10_000)]: 1 };
    const error = thrown(() => parseTaskResponse(hostile)) as ProtocolSchemaError;
    expect(error.issueCount).toBeGreaterThan(500);
    expect(error.issues).toHaveLength(MAX_KEPT_ISSUES);
    expect(error.message.length).toBeLessThan(2_000);
  });
});

describe("task error codes", () => {
  it("is one closed table with a retryable flag per code", () => {
    expect(TASK_ERROR_CODE_LIST).toEqual(Object.keys(TASK_ERROR_CODES));
    const retryable = TASK_ERROR_CODE_LIST.filter((code) => TASK_ERROR_CODES[code].retryable);
    expect(retryable).toEqual(["PGC_TIMEOUT", "PGC_QUERY_FAILED", "DEADLINE_EXCEEDED", "WORKER_OVERLOADED", "WORKER_STOPPING"]);
    for (const code of ["OVERLAY_MISSING", "PROTOCOL_MISMATCH", "SCOPE_VIOLATION", "EXECUTOR_FAILED"] as const) {
      expect(TASK_ERROR_CODES[code].retryable).toBe(false);
    }
  });

  it("round-trips a TaskError through its wire body as the same class", () => {
    const error = new TaskError("PGC_TIMEOUT", "ask timed out after 30s");
    expect(error).toMatchObject({ name: "TaskError", code: "PGC_TIMEOUT", retryable: true });
    const body = error.toWire();
    expect(TaskErrorBodySchema.parse(body)).toEqual({ code: "PGC_TIMEOUT", message: "ask timed out after 30s", retryable: true });
    const rebuilt = TaskError.fromWire(body);
    expect(rebuilt).toBeInstanceOf(TaskError);
    expect(rebuilt).toMatchObject({ code: "PGC_TIMEOUT", retryable: true, message: "ask timed out after 30s" });
  });

  it("cuts an over-long message so the wire body stays valid", () => {
    const body = new TaskError("EXECUTOR_FAILED", repeat("x", 5_000)).toWire();
    expect(() => parseTaskResponse(validResponse({ status: "failed", error: body }))).not.toThrow();
  });

  it("maps caught errors to task errors once", () => {
    const schemaError = thrown(() => parseDelegatedTask({}));
    expect(taskErrorFrom(schemaError).code).toBe("INVALID_TASK");
    const responseError = thrown(() => parseTaskResponse({}));
    expect(taskErrorFrom(responseError).code).toBe("EXECUTOR_FAILED");
    expect(taskErrorFrom(new DelegationDepthError(3, 3)).code).toBe("DELEGATION_DEPTH_EXCEEDED");
    expect(taskErrorFrom(new DelegationCycleError("a", ["a"])).code).toBe("DELEGATION_CYCLE");
    const own = new TaskError("SCOPE_VIOLATION", "path escapes scope");
    expect(taskErrorFrom(own)).toBe(own);
    expect(taskErrorFrom("weird")).toMatchObject({ code: "EXECUTOR_FAILED", message: "weird", retryable: false });
  });
});
