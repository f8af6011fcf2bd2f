import { describe, expect, it } from "vitest";
import { type AskResult, encodeAskResult, MAX_ASK_SOURCES, parseAskResult, ProtocolSchemaError } from "../../../agents/protocol/index.js";
import { issuePaths } from "./fixtures.js";

/** The `ask --json` example of seed 002 §3, trimmed to two sources. */
const SEED_EXAMPLE = {
  question: "How does session compression work?",
  answer: "Session compression is a process that can be enabled and configured using `CompressionOptions`...",
  query_intent: {
    intent: "conceptual_overview",
    entities: ["session compression", "mechanism"],
    scope: "conceptual",
    refined_query: "mechanism and process of session compression",
  },
  sources: [
    {
      overlay: "O1",
      section: "O1",
      text: "function:useCompression | params:1 | returns:UseCompressionResult | async:false",
      similarity: 0.5328465282382895,
      weight: 1,
    },
    {
      overlay: "O1",
      section: "O1",
      text: "function:compressContext | params:2 | returns:Promise<CompressionResult> | async:true",
      similarity: 0.5271795362811473,
      weight: 1,
    },
  ],
  metadata: { question_hash: "f587deeadeec2f91d2db16166046d3eb81948b3a7cd7a14737e106c8c8614ca5", top_k: 5, elapsed_ms: 2376 },
};

function workerAsk(): AskResult {
  return {
    ...SEED_EXAMPLE,
    sources: [
      {
        overlay: "O1",
        section: "function",
        text: "function:dma_alloc | params:1 | returns:int",
        similarity: 1,
        weight: 1,
        file_path: "mm/dma.c",
        line_start: 2,
        line_end: 5,
        sha256: "7cd284f1649ed39279896f0fb34235fe38759ad81c31d894aded0d76a91edb58",
        similarity_kind: "exact",
      },
    ],
  };
}

describe("AskResult", () => {
  it("parses the seed's ask --json example", () => {
    expect(parseAskResult(SEED_EXAMPLE)).toEqual(SEED_EXAMPLE);
  });

  it("parses a worker's checkable sources", () => {
    expect(encodeAskResult(workerAsk())).toEqual(workerAsk());
  });

  it("strips unknown keys from external tools instead of failing", () => {
    const external = {
      ...SEED_EXAMPLE,
      model: "gemini-2.0-flash",
      query_intent: { ...SEED_EXAMPLE.query_intent, confidence: 0.9 },
      sources: [{ ...SEED_EXAMPLE.sources[0], embedding_id: "abc" }],
      metadata: { ...SEED_EXAMPLE.metadata, cache: "hit" },
    };
    const parsed = parseAskResult(external);
    expect(parsed).not.toHaveProperty("model");
    expect(parsed.query_intent).not.toHaveProperty("confidence");
    expect(parsed.sources[0]).not.toHaveProperty("embedding_id");
    expect(parsed.metadata).not.toHaveProperty("cache");
  });

  it("accepts an external raw score but requires [0, 1] once a similarity_kind is claimed", () => {
    const raw = { ...SEED_EXAMPLE, sources: [{ ...SEED_EXAMPLE.sources[0], similarity: -0.2 }] };
    expect(() => parseAskResult(raw)).not.toThrow();
    const claimed = { ...SEED_EXAMPLE, sources: [{ ...SEED_EXAMPLE.sources[0], similarity: 1.4, similarity_kind: "external" }] };
    expect(issuePaths(() => parseAskResult(claimed))).toEqual(["sources[0].similarity"]);
  });

  it("requires line ranges in pairs, and a file for a range or a hash", () => {
    const source = workerAsk().sources[0]!;
    const { line_end: _end, ...halfRange } = source;
    expect(issuePaths(() => parseAskResult({ ...SEED_EXAMPLE, sources: [halfRange] }))).toEqual(["sources[0].line_end"]);
    const { file_path: _file, ...noFile } = source;
    expect(issuePaths(() => parseAskResult({ ...SEED_EXAMPLE, sources: [noFile] }))).toEqual(["sources[0].file_path"]);
    expect(issuePaths(() => parseAskResult({ ...SEED_EXAMPLE, sources: [{ ...source, file_path: "../etc/passwd" }] }))).toEqual([
      "sources[0].file_path",
    ]);
  });

  it("rejects missing sections, wrong types and too many sources", () => {
    const { metadata: _metadata, ...noMetadata } = SEED_EXAMPLE;
    expect(issuePaths(() => parseAskResult(noMetadata))).toEqual(["metadata"]);
    expect(issuePaths(() => parseAskResult({ ...SEED_EXAMPLE, metadata: { ...SEED_EXAMPLE.metadata, top_k: "5" } }))).toEqual(["metadata.top_k"]);
    const many = Array.from({ length: MAX_ASK_SOURCES + 1 }, () => SEED_EXAMPLE.sources[0]);
    expect(issuePaths(() => parseAskResult({ ...SEED_EXAMPLE, sources: many }))).toEqual(["sources"]);
    expect(() => parseAskResult("not json")).toThrow(ProtocolSchemaError);
  });
});
