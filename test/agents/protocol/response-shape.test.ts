// The TaskResponse's hand-written check (response-shape.ts) against its zod schema, with every rule on
// evidence (cited overlays consulted, confidence no higher than the similarities support, exact means 1):
// what the check passes, zod accepts and returns unchanged; a response zod refuses, the check never passes.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../agents/pgc/retrieval/prng.js";
import { parseTaskResponse, encodeTaskResponse, ProtocolSchemaError, TaskResponseSchema } from "../../../agents/protocol/index.js";
import { isPlainTaskResponse } from "../../../agents/protocol/response-shape.js";
import { agrees, fuzz } from "../../helpers/shape-fuzz.js";
import { validCitation, validResponse } from "./fixtures.js";

/** A response with every field the fast path takes: several citations of every kind, warnings, findings, named metrics. */
const FULL = validResponse({
  status: "partial",
  overlay_warnings: ["O4 is stale"],
  key_findings: ["dma_alloc allocates", "the driver frees"],
  metrics: { elapsed_ms: 12.5, pgc_queries: 2, citations_dropped: 1 },
  grounding_evidence: {
    queries_executed: ["rx buffer allocation", "free"],
    overlays_consulted: ["O1", "O3", "O7"],
    citations: [
      validCitation(),
      validCitation({ overlay: "O3", similarity: 0.82, similarity_kind: "calibrated_lexical", relevance: "" }),
      validCitation({ overlay: "O7", similarity: 0, similarity_kind: "none" }),
      validCitation({ overlay: "O1", similarity: 0.4, similarity_kind: "coverage" }),
    ],
    grounding_confidence: "low",
  },
});

describe("the TaskResponse's hand-written check", () => {
  it("passes a typical hop's response and one with every field it takes, returned as they came", () => {
    for (const response of [validResponse(), FULL]) {
      expect(isPlainTaskResponse(response)).toBe(true);
      expect(parseTaskResponse(response)).toBe(response);
      expect(encodeTaskResponse(response)).toBe(response);
      expect(agrees(TaskResponseSchema, isPlainTaskResponse, response).zod).toBe(true);
    }
  });

  it("leaves to zod the statuses and fields it alone judges: failed, blocked, an error, a clarification", () => {
    for (const response of [
      validResponse({ status: "failed", error: { code: "PGC_TIMEOUT", message: "the index did not answer", retryable: true } }),
      validResponse({ status: "needs_clarification", clarification_request: { question: "Which driver?" } }),
    ]) {
      expect(isPlainTaskResponse(response)).toBe(false);
      expect(agrees(TaskResponseSchema, isPlainTaskResponse, response).zod).toBe(true);
    }
  });

  it("never passes a response zod refuses, over 4,000 seeded mutations of each", () => {
    for (const [seed, valid] of [[7, validResponse()], [11, FULL]] as const) {
      const { refused, passed } = fuzz(TaskResponseSchema, isPlainTaskResponse, parseTaskResponse, valid, mulberry32(seed), 4_000, ProtocolSchemaError);
      expect(refused).toBeGreaterThan(1_000);
      expect(passed).toBeGreaterThan(100);
    }
  });

  it("refuses what the evidence rules refuse: confidence above the similarities, an overlay not consulted, an inexact exact", () => {
    const evidence = validResponse().grounding_evidence as NonNullable<ReturnType<typeof validResponse>["grounding_evidence"]>;
    for (const response of [
      validResponse({ grounding_evidence: { ...evidence, citations: [validCitation({ similarity: 0.3, similarity_kind: "coverage" })], grounding_confidence: "high" } }),
      validResponse({ grounding_evidence: { ...evidence, citations: [validCitation({ overlay: "O5" })] } }),
      validResponse({ grounding_evidence: { ...evidence, citations: [validCitation({ similarity: 0.9 })] } }),
      validResponse({ grounding_evidence: { ...evidence, citations: [validCitation({ line_start: 5, line_end: 4 })] } }),
      // Out of [0, 1], a similarity is its citation's schema error (the confidence rule had thrown a RangeError on it).
      validResponse({ grounding_evidence: { ...evidence, citations: [validCitation({ similarity: -1, similarity_kind: "coverage" })], grounding_confidence: "low" } }),
    ]) {
      expect(isPlainTaskResponse(response)).toBe(false);
      expect(() => parseTaskResponse(response)).toThrow(ProtocolSchemaError);
    }
  });
});
