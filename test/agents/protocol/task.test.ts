import { describe, expect, it } from "vitest";
import {
  encodeDelegatedTask,
  MAX_DELEGATION_DEPTH,
  MAX_HINT_OPTIONS_BYTES,
  MAX_TASK_BYTES,
  parseDelegatedTask,
  ProtocolSchemaError,
  protocolVersionFor,
  requiresEvidence,
  STRATEGY_DESCRIPTIONS,
} from "../../../agents/protocol/index.js";
import { hasUndefined } from "../../../agents/protocol/parse.js";
import { issuePaths, repeat, validTask } from "./fixtures.js";

describe("DelegatedTask: valid", () => {
  it("accepts a minimal legacy task", () => {
    const task = parseDelegatedTask({ id: "T1", task: "Rename foo to bar", acceptance_criteria: [] });
    expect(task).toEqual({ id: "T1", task: "Rename foo to bar", acceptance_criteria: [] });
  });

  it("accepts every optional field", () => {
    const task = validTask({
      context: "Previous agent found: OAuth2 recommended",
      critical: true,
      delegation_depth: 2,
      delegation_chain: ["manager", "drivers-agent"],
      grounding: {
        strategy: "pgc_first",
        analysis_hints: [{ type: "blast_radius", target: "dma_alloc", options: { depth: 2, include: ["mm"], strict: null } }],
        algebra_expression: "O1 + O4",
        overlay_hints: ["O1", "O3"],
        query_hints: ["buffer allocation", "DMA setup"],
        evidence_required: true,
      },
    });
    expect(parseDelegatedTask(task)).toEqual(task);
  });

  it("returns a copy, not the caller's object", () => {
    const task = validTask();
    const parsed = parseDelegatedTask(task);
    expect(parsed).not.toBe(task);
    expect(parsed.grounding).not.toBe(task.grounding);
  });
});

describe("DelegatedTask: invalid", () => {
  it("rejects missing required fields", () => {
    expect(issuePaths(() => parseDelegatedTask({ id: "T1" }))).toEqual(["task", "acceptance_criteria"]);
  });

  it("rejects unknown keys at the top level and inside grounding", () => {
    expect(issuePaths(() => parseDelegatedTask({ ...validTask(), priority: 1 }))).toEqual(["(root)"]);
    const grounding = { strategy: "pgc_cite", evidence_requried: true };
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding } as never)))).toEqual(["grounding"]);
  });

  it("rejects unknown enum values", () => {
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding: { strategy: "pgc_maybe" } } as never)))).toEqual(["grounding.strategy"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding: { strategy: "none", overlay_hints: ["O8"] } } as never)))).toEqual([
      "grounding.overlay_hints[0]",
    ]);
    const hint = { type: "fuzz", target: "x" };
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding: { strategy: "pgc_first", analysis_hints: [hint] } } as never)))).toEqual([
      "grounding.analysis_hints[0].type",
    ]);
  });

  it("rejects duplicate overlay hints", () => {
    const grounding = { strategy: "pgc_first" as const, overlay_hints: ["O1" as const, "O1" as const] };
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding })))).toEqual(["grounding.overlay_hints[1]"]);
  });

  it("rejects evidence_required with strategy none", () => {
    const grounding = { strategy: "none" as const, evidence_required: true };
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding })))).toEqual(["grounding.evidence_required"]);
  });

  it("rejects null for an optional field: omit the key instead", () => {
    expect(issuePaths(() => parseDelegatedTask({ ...validTask(), grounding: null }))).toEqual(["grounding"]);
  });

  it("rejects empty, spaced or overlong ids and an empty task", () => {
    expect(issuePaths(() => parseDelegatedTask(validTask({ id: "" })))).toEqual(["id"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ id: "T 1" })))).toEqual(["id"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ id: repeat("x", 257) })))).toEqual(["id"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ task: "" })))).toEqual(["task"]);
  });

  it("rejects analysis options that are not JSON values", () => {
    const hint = { type: "blast_radius" as const, target: "x", options: { at: new Date(0) } };
    expect(() => parseDelegatedTask(validTask({ grounding: { strategy: "pgc_first", analysis_hints: [hint] } } as never))).toThrow(
      ProtocolSchemaError,
    );
  });
});

describe("DelegatedTask: limits on encode and decode", () => {
  it("bounds task text in UTF-8 bytes", () => {
    const atLimit = validTask({ task: repeat("a", MAX_TASK_BYTES) });
    expect(encodeDelegatedTask(atLimit).task.length).toBe(MAX_TASK_BYTES);
    const over = validTask({ task: repeat("a", MAX_TASK_BYTES + 1) });
    expect(issuePaths(() => encodeDelegatedTask(over))).toEqual(["task"]);
    expect(issuePaths(() => parseDelegatedTask(over))).toEqual(["task"]);
  });

  it("counts multi-byte characters as their UTF-8 bytes", () => {
    // "é" is 2 bytes: half as many fit.
    expect(() => parseDelegatedTask(validTask({ task: repeat("é", MAX_TASK_BYTES / 2) }))).not.toThrow();
    expect(issuePaths(() => parseDelegatedTask(validTask({ task: repeat("é", MAX_TASK_BYTES / 2 + 1) })))).toEqual(["task"]);
  });

  it("bounds acceptance criteria and query hints", () => {
    const criteria = Array.from({ length: 33 }, (_, index) => `criterion ${index}`);
    expect(issuePaths(() => parseDelegatedTask(validTask({ acceptance_criteria: criteria })))).toEqual(["acceptance_criteria"]);
    const grounding = { strategy: "pgc_first" as const, query_hints: [repeat("q", 1_001)] };
    expect(issuePaths(() => encodeDelegatedTask(validTask({ grounding })))).toEqual(["grounding.query_hints[0]"]);
  });

  it("bounds analysis options by their JSON size", () => {
    const hint = (pad: string) => ({ type: "blast_radius" as const, target: "x", options: { pad } });
    // {"pad":"…"} adds 10 bytes of JSON around the value.
    const fits = { strategy: "pgc_first" as const, analysis_hints: [hint(repeat("o", MAX_HINT_OPTIONS_BYTES - 10))] };
    expect(() => encodeDelegatedTask(validTask({ grounding: fits }))).not.toThrow();
    const over = { strategy: "pgc_first" as const, analysis_hints: [hint(repeat("o", MAX_HINT_OPTIONS_BYTES - 9))] };
    expect(issuePaths(() => parseDelegatedTask(validTask({ grounding: over })))).toEqual(["grounding.analysis_hints[0].options"]);
  });
});

describe("DelegatedTask: delegation depth and chain", () => {
  it("accepts depth 0..MAX_DELEGATION_DEPTH with a chain of that length", () => {
    expect(MAX_DELEGATION_DEPTH).toBe(3);
    for (let depth = 0; depth <= MAX_DELEGATION_DEPTH; depth++) {
      const chain = Array.from({ length: depth }, (_, index) => `agent-${index}`);
      expect(() => parseDelegatedTask(validTask({ delegation_depth: depth, delegation_chain: chain }))).not.toThrow();
    }
  });

  it("rejects depth beyond the limit, negative or fractional depth", () => {
    expect(issuePaths(() => parseDelegatedTask(validTask({ delegation_depth: 4 })))).toEqual(["delegation_depth"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ delegation_depth: -1 })))).toEqual(["delegation_depth"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ delegation_depth: 1.5 })))).toEqual(["delegation_depth"]);
  });

  it("rejects a chain whose length is not the depth, or that repeats an agent", () => {
    expect(issuePaths(() => parseDelegatedTask(validTask({ delegation_depth: 2, delegation_chain: ["manager"] })))).toEqual([
      "delegation_chain",
    ]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ delegation_chain: ["manager"] })))).toEqual(["delegation_chain"]);
    expect(issuePaths(() => parseDelegatedTask(validTask({ delegation_depth: 2, delegation_chain: ["a", "a"] })))).toEqual([
      "delegation_chain[1]",
    ]);
  });
});

describe("legacy detection", () => {
  it("is 2.0 when the task has a grounding object, even strategy none", () => {
    expect(protocolVersionFor(validTask())).toBe("2.0");
    expect(protocolVersionFor(validTask({ grounding: { strategy: "none" } }))).toBe("2.0");
  });

  it("is 1.0-legacy without a grounding key", () => {
    const { grounding: _grounding, ...legacy } = validTask();
    expect(protocolVersionFor(parseDelegatedTask(legacy))).toBe("1.0-legacy");
  });

  it("treats grounding: undefined as absent and drops the key when encoding", () => {
    const task = encodeDelegatedTask(validTask({ grounding: undefined }));
    expect("grounding" in task).toBe(false);
    expect(protocolVersionFor(task)).toBe("1.0-legacy");
    // Nested too: an undefined deep inside is dropped, not sent.
    const nested = encodeDelegatedTask(validTask({ grounding: { strategy: "pgc_cite", overlay_hints: undefined } }));
    expect("overlay_hints" in (nested.grounding ?? {})).toBe(false);
  });

  it("hasUndefined says whether there is a key to drop, at any depth, without copying", () => {
    expect(hasUndefined(validTask())).toBe(false);
    expect(hasUndefined({ a: [{ b: 1 }, { c: undefined }] })).toBe(true);
    expect(hasUndefined({ a: { b: { c: undefined } } })).toBe(true);
    // An undefined array element is kept by the copy (msgpack writes it as nil), so nothing is dropped.
    expect(hasUndefined([1, undefined])).toBe(false);
    expect(hasUndefined(Object.create({ inherited: undefined }) as object)).toBe(false);
  });
});

describe("requiresEvidence", () => {
  it("follows evidence_required and pgc_cite", () => {
    expect(requiresEvidence({})).toBe(false);
    expect(requiresEvidence({ grounding: { strategy: "pgc_first" } })).toBe(false);
    expect(requiresEvidence({ grounding: { strategy: "pgc_first", evidence_required: true } })).toBe(true);
    expect(requiresEvidence({ grounding: { strategy: "pgc_cite" } })).toBe(true);
  });

  it("describes every strategy", () => {
    expect(Object.keys(STRATEGY_DESCRIPTIONS).sort()).toEqual(["none", "pgc_cite", "pgc_first", "pgc_verify"]);
    expect(STRATEGY_DESCRIPTIONS.pgc_verify.queryTiming).toBe("after_proposal");
    expect(Object.isFrozen(STRATEGY_DESCRIPTIONS.pgc_first)).toBe(true);
  });
});
