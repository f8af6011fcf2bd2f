import { describe, expect, it } from "vitest";
import {
  type Citation,
  encodeTaskResponse,
  MAX_CITATION_CHARS,
  MAX_CITATIONS,
  MAX_KEY_FINDINGS,
  MAX_RESULT_BYTES,
  parseTaskResponse,
  STATUS_DESCRIPTIONS,
  TASK_STATUSES,
  type TaskResponse,
} from "../../../agents/protocol/index.js";
import { issuePaths, repeat, validCitation, validResponse } from "./fixtures.js";

const pgcTimeout = { code: "PGC_TIMEOUT" as const, message: "ask timed out after 30s", retryable: true };

function withCitations(citations: Citation[], overrides: Partial<TaskResponse> = {}): TaskResponse {
  return validResponse({
    grounding_evidence: { queries_executed: [], overlays_consulted: ["O1"], citations, grounding_confidence: "low" },
    ...overrides,
  });
}

describe("TaskResponse: valid", () => {
  it("accepts a grounded completed response", () => {
    const response = validResponse();
    expect(parseTaskResponse(response)).toEqual(response);
  });

  it("accepts a minimal legacy response", () => {
    const response = { task_id: "T1", status: "completed", result: "", protocol_version: "1.0-legacy" };
    expect(parseTaskResponse(response)).toEqual(response);
  });

  it("accepts each status with what it requires", () => {
    const minimal = { task_id: "T1", result: "r", protocol_version: "2.0" as const };
    expect(() => parseTaskResponse({ ...minimal, status: "completed" })).not.toThrow();
    expect(() => parseTaskResponse({ ...minimal, status: "partial" })).not.toThrow();
    expect(() => parseTaskResponse({ ...minimal, status: "partial", error: { ...pgcTimeout, code: "DEADLINE_EXCEEDED" } })).not.toThrow();
    expect(() => parseTaskResponse({ ...minimal, status: "failed", error: { code: "EXECUTOR_FAILED", message: "boom", retryable: false } })).not.toThrow();
    expect(() => parseTaskResponse({ ...minimal, status: "blocked", error: pgcTimeout })).not.toThrow();
    const clarification = { question: "Which driver: e1000 or e1000e?", options: ["e1000", "e1000e"] };
    expect(() => parseTaskResponse({ ...minimal, status: "needs_clarification", clarification_request: clarification })).not.toThrow();
    expect(Object.keys(STATUS_DESCRIPTIONS)).toEqual([...TASK_STATUSES]);
  });

  it("accepts overlay warnings, extra numeric metrics and a PGC-failure evidence with no citations", () => {
    const response = validResponse({
      status: "blocked",
      error: pgcTimeout,
      overlay_warnings: ["O3, O4 not available - used O1 fallback"],
      grounding_evidence: { queries_executed: ["rx buffers"], overlays_consulted: [], citations: [], grounding_confidence: "low" },
      metrics: { elapsed_ms: 30_000.5, pgc_queries: 1, hops: 0 },
    });
    expect(parseTaskResponse(response)).toEqual(response);
  });
});

describe("TaskResponse: status rules", () => {
  it("requires clarification_request for needs_clarification", () => {
    expect(issuePaths(() => parseTaskResponse(validResponse({ status: "needs_clarification" })))).toEqual(["clarification_request"]);
  });

  it("allows clarification_request only with needs_clarification", () => {
    const response = validResponse({ clarification_request: { question: "Which one?" } });
    expect(issuePaths(() => parseTaskResponse(response))).toEqual(["clarification_request"]);
  });

  it("requires an error for failed and blocked", () => {
    expect(issuePaths(() => parseTaskResponse(validResponse({ status: "failed" })))).toEqual(["error"]);
    expect(issuePaths(() => encodeTaskResponse(validResponse({ status: "blocked" })))).toEqual(["error"]);
  });

  it("forbids an error on completed and needs_clarification", () => {
    expect(issuePaths(() => parseTaskResponse(validResponse({ error: pgcTimeout })))).toEqual(["error"]);
  });

  it("rejects an unknown status, error code or protocol version", () => {
    expect(issuePaths(() => parseTaskResponse({ ...validResponse(), status: "done" }))).toEqual(["status"]);
    expect(issuePaths(() => parseTaskResponse({ ...validResponse({ status: "failed" }), error: { code: "OOPS", message: "x", retryable: false } }))).toEqual([
      "error.code",
    ]);
    expect(issuePaths(() => parseTaskResponse({ ...validResponse(), protocol_version: "3.0" }))).toEqual(["protocol_version"]);
  });

  it("rejects a retryable flag that contradicts the code's", () => {
    const response = validResponse({ status: "blocked", error: { ...pgcTimeout, retryable: false } });
    expect(issuePaths(() => parseTaskResponse(response))).toEqual(["error.retryable"]);
  });
});

describe("TaskResponse: grounding evidence rules", () => {
  it("rejects confidence above what the citations support", () => {
    const citation = validCitation({ similarity: 0.5, similarity_kind: "calibrated_lexical" });
    const response = withCitations([citation]);
    const evidence = { ...response.grounding_evidence!, grounding_confidence: "medium" as const };
    expect(issuePaths(() => parseTaskResponse({ ...response, grounding_evidence: evidence }))).toEqual([
      "grounding_evidence.grounding_confidence",
    ]);
    expect(parseTaskResponse(response).grounding_evidence?.grounding_confidence).toBe("low");
  });

  it("allows a worker to report less confidence than its citations support", () => {
    expect(() => parseTaskResponse(withCitations([validCitation()]))).not.toThrow();
  });

  it("rejects a citation from an overlay not listed as consulted", () => {
    const response = withCitations([validCitation({ overlay: "O2" })]);
    expect(issuePaths(() => parseTaskResponse(response))).toEqual(["grounding_evidence.citations[0].overlay"]);
  });

  it("reports a similarity out of [0, 1] as its citation's schema error, not by throwing from the confidence rule", () => {
    for (const similarity of [-1, 1.5, Number.NaN]) {
      const response = withCitations([validCitation({ similarity, similarity_kind: "coverage" })]);
      expect(issuePaths(() => parseTaskResponse(response))).toEqual(["grounding_evidence.citations[0].similarity"]);
    }
  });
});

describe("TaskResponse: limits on encode and decode", () => {
  const eleven = Array.from({ length: MAX_CITATIONS + 1 }, () => validCitation());

  it("allows MAX_CITATIONS citations and rejects one more", () => {
    expect(() => encodeTaskResponse(withCitations(eleven.slice(0, MAX_CITATIONS)))).not.toThrow();
    expect(issuePaths(() => encodeTaskResponse(withCitations(eleven)))).toEqual(["grounding_evidence.citations"]);
    expect(issuePaths(() => parseTaskResponse(withCitations(eleven)))).toEqual(["grounding_evidence.citations"]);
  });

  it("bounds citation content in code points, on both ends", () => {
    const atLimit = validCitation({ content: repeat("😀", MAX_CITATION_CHARS) });
    expect(() => parseTaskResponse(withCitations([atLimit]))).not.toThrow();
    const over = validCitation({ content: repeat("x", MAX_CITATION_CHARS + 1) });
    expect(issuePaths(() => encodeTaskResponse(withCitations([over])))).toEqual(["grounding_evidence.citations[0].content"]);
    expect(issuePaths(() => parseTaskResponse(withCitations([over])))).toEqual(["grounding_evidence.citations[0].content"]);
  });

  it("bounds result in UTF-8 bytes", () => {
    expect(() => encodeTaskResponse(validResponse({ result: repeat("r", MAX_RESULT_BYTES) }))).not.toThrow();
    expect(issuePaths(() => encodeTaskResponse(validResponse({ result: repeat("r", MAX_RESULT_BYTES + 1) })))).toEqual(["result"]);
    expect(issuePaths(() => parseTaskResponse(validResponse({ result: repeat("€", MAX_RESULT_BYTES / 3 + 1) })))).toEqual(["result"]);
  });

  it("bounds key findings in number and length", () => {
    const many = Array.from({ length: MAX_KEY_FINDINGS + 1 }, (_, index) => `finding ${index}`);
    expect(issuePaths(() => encodeTaskResponse(validResponse({ key_findings: many })))).toEqual(["key_findings"]);
    expect(issuePaths(() => parseTaskResponse(validResponse({ key_findings: [repeat("k", 301)] })))).toEqual(["key_findings[0]"]);
  });

  it("bounds metrics and requires their core counters", () => {
    const metrics = Object.fromEntries(Array.from({ length: 31 }, (_, index) => [`m${index}`, index]));
    expect(issuePaths(() => parseTaskResponse(validResponse({ metrics: { elapsed_ms: 1, pgc_queries: 0, ...metrics } })))).toEqual(["metrics"]);
    expect(issuePaths(() => parseTaskResponse({ ...validResponse(), metrics: { elapsed_ms: 1 } }))).toEqual(["metrics.pgc_queries"]);
    expect(issuePaths(() => parseTaskResponse(validResponse({ metrics: { elapsed_ms: 1, pgc_queries: 0, hops: -1 } })))).toEqual(["metrics.hops"]);
    expect(issuePaths(() => parseTaskResponse({ ...validResponse(), metrics: { elapsed_ms: 1, pgc_queries: 0, note: "x" } }))).toEqual([
      "metrics.note",
    ]);
  });
});
