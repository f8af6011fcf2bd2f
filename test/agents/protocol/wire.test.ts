import { Packr } from "msgpackr";
import { describe, expect, it } from "vitest";
import {
  buildGroundingEvidence,
  encodeAskResult,
  encodeDelegatedTask,
  encodeTaskResponse,
  MAX_ANALYSIS_HINTS,
  MAX_CITATION_CHARS,
  MAX_CITATIONS,
  MAX_CONTEXT_BYTES,
  MAX_HINT_OPTIONS_BYTES,
  MAX_ITEM_CHARS,
  MAX_KEY_FINDING_CHARS,
  MAX_KEY_FINDINGS,
  MAX_LIST_ITEMS,
  MAX_RESULT_BYTES,
  MAX_TASK_BYTES,
  parseAskResult,
  parseDelegatedTask,
  parseTaskResponse,
  protocolVersionFor,
  TaskError,
} from "../../../agents/protocol/index.js";
import { repeat, validCitation, validResponse, validTask } from "./fixtures.js";

const packr = new Packr({ useRecords: false });

/** Encode, pack, unpack, parse: what travels between two processes. */
function overTheWire<T>(value: T, parse: (decoded: unknown) => T): T {
  return parse(packr.unpack(packr.pack(value)));
}

describe("msgpack round trip", () => {
  it("carries a grounded task unchanged", () => {
    const task = encodeDelegatedTask(
      validTask({
        critical: true,
        delegation_depth: 1,
        delegation_chain: ["manager"],
        grounding: {
          strategy: "pgc_first",
          analysis_hints: [{ type: "dependency_check", target: "mm/", options: { strict: true, depth: 2.5, tags: ["a"], none: null } }],
          overlay_hints: ["O1", "O3"],
          query_hints: ["DMA setup — größe 😀"],
          evidence_required: true,
        },
      }),
    );
    expect(overTheWire(task, parseDelegatedTask)).toEqual(task);
  });

  it("keeps legacy detection across the wire", () => {
    const { grounding: _grounding, ...legacy } = validTask();
    const received = overTheWire(encodeDelegatedTask({ ...legacy, grounding: undefined }), parseDelegatedTask);
    expect(protocolVersionFor(received)).toBe("1.0-legacy");
  });

  it("sends no undefined values (msgpackr would emit an extension type other languages reject)", () => {
    const bytes = packr.pack(encodeDelegatedTask(validTask({ context: undefined, critical: undefined })));
    expect(packr.unpack(bytes)).not.toHaveProperty("context");
    expect(bytes.includes(Buffer.from([0xd4, 0x00, 0x00]))).toBe(false);
  });

  it("carries every response status unchanged, similarities bit for bit", () => {
    const evidence = buildGroundingEvidence({
      queries_executed: ["rx buffers"],
      citations: [validCitation(), validCitation({ similarity: 0.8731234567891234, similarity_kind: "calibrated_lexical" })],
    });
    const responses = [
      validResponse({ grounding_evidence: evidence }),
      validResponse({ status: "partial", overlay_warnings: ["O3, O4 not available - used O1 fallback"] }),
      validResponse({ status: "blocked", error: new TaskError("PGC_QUERY_FAILED", "index missing").toWire() }),
      validResponse({ status: "failed", error: new TaskError("SCOPE_VIOLATION", "../x").toWire() }),
      validResponse({ status: "needs_clarification", clarification_request: { question: "Which NIC?", options: ["e1000", "e1000e"] } }),
    ];
    for (const response of responses) {
      const encoded = encodeTaskResponse(response);
      expect(overTheWire(encoded, parseTaskResponse)).toEqual(encoded);
    }
  });

  it("carries an ask result unchanged", () => {
    const ask = encodeAskResult({
      question: "How does e1000 allocate DMA buffers?",
      answer: "Through dma_alloc.",
      query_intent: { intent: "lookup", entities: ["e1000"], scope: "drivers", refined_query: "e1000 dma allocation" },
      sources: [{ overlay: "O1", section: "function", text: "function:dma_alloc", similarity: 1, weight: 1, similarity_kind: "exact" }],
      metadata: { question_hash: "0".repeat(64), top_k: 5, elapsed_ms: 3 },
    });
    expect(overTheWire(ask, parseAskResult)).toEqual(ask);
  });
});

describe("worst-case sizes", () => {
  // The bus frame limit must exceed these; docs/DELEGATION.md quotes the bound.
  const WORST_CASE_BOUND_BYTES = 1_048_576;
  const big = (chars: number) => repeat("\u{10FFFF}", chars);

  it("keeps the largest valid task and response under 1 MiB of msgpack", () => {
    const list = Array.from({ length: MAX_LIST_ITEMS }, (_, index) => `${index}${big(MAX_ITEM_CHARS - 3)}`);
    const task = encodeDelegatedTask({
      id: "x".repeat(256),
      task: "t".repeat(MAX_TASK_BYTES),
      acceptance_criteria: list,
      context: "c".repeat(MAX_CONTEXT_BYTES),
      grounding: {
        strategy: "pgc_first",
        analysis_hints: Array.from({ length: MAX_ANALYSIS_HINTS }, () => ({
          type: "blast_radius" as const,
          target: big(1_000),
          options: { pad: "o".repeat(MAX_HINT_OPTIONS_BYTES - 10) },
        })),
        algebra_expression: big(1_000),
        overlay_hints: ["O1", "O2", "O3", "O4", "O5", "O6", "O7"],
        query_hints: list,
        evidence_required: true,
      },
    });
    const response = encodeTaskResponse(
      validResponse({
        result: "r".repeat(MAX_RESULT_BYTES),
        overlay_warnings: list,
        key_findings: Array.from({ length: MAX_KEY_FINDINGS }, () => big(MAX_KEY_FINDING_CHARS)),
        grounding_evidence: {
          queries_executed: list,
          overlays_consulted: ["O1"],
          citations: Array.from({ length: MAX_CITATIONS }, () =>
            validCitation({ content: big(MAX_CITATION_CHARS), relevance: big(500), file_path: "p".repeat(1_024) }),
          ),
          grounding_confidence: "high",
        },
      }),
    );
    const taskBytes = packr.pack(task).length;
    const responseBytes = packr.pack(response).length;
    expect(taskBytes).toBeLessThan(WORST_CASE_BOUND_BYTES);
    expect(responseBytes).toBeLessThan(WORST_CASE_BOUND_BYTES);
  });
});
