// Builders of valid protocol messages for the tests; each test changes one thing and expects one outcome.
import { expect } from "vitest";
import {
  type Citation,
  citationHash,
  type DelegatedTask,
  ProtocolSchemaError,
  sliceLines,
  type TaskResponse,
} from "../../../agents/protocol/index.js";

/** A small C file used for checkable citations. */
export const DMA_FILE = "/* dma.c */\nint dma_alloc(int n)\n{\n\treturn n * 2;\n}\n";

export function validTask(overrides: Partial<DelegatedTask> = {}): DelegatedTask {
  return {
    id: "T-100",
    task: "Explain how e1000 allocates RX buffers.",
    acceptance_criteria: ["Names the allocating function", "Cites the source"],
    grounding: {
      strategy: "pgc_cite",
      overlay_hints: ["O1", "O3"],
      query_hints: ["rx buffer allocation"],
      evidence_required: true,
    },
    ...overrides,
  };
}

export function validCitation(overrides: Partial<Citation> = {}): Citation {
  return {
    overlay: "O1",
    content: "int dma_alloc(int n)",
    relevance: "The allocator the driver calls.",
    file_path: "mm/dma.c",
    line_start: 2,
    line_end: 3,
    sha256: citationHash(sliceLines(DMA_FILE, 2, 3)),
    similarity: 1,
    similarity_kind: "exact",
    ...overrides,
  };
}

export function validResponse(overrides: Partial<TaskResponse> = {}): TaskResponse {
  return {
    task_id: "T-100",
    status: "completed",
    result: "dma_alloc in mm/dma.c allocates the buffers.",
    protocol_version: "2.0",
    grounding_evidence: {
      queries_executed: ["rx buffer allocation"],
      overlays_consulted: ["O1"],
      citations: [validCitation()],
      grounding_confidence: "high",
    },
    key_findings: ["dma_alloc allocates RX buffers"],
    metrics: { elapsed_ms: 12, pgc_queries: 1 },
    ...overrides,
  };
}

/** A string of `count` copies of `unit`. */
export function repeat(unit: string, count: number): string {
  return unit.repeat(count);
}

/** The dotted paths of the issues `fn` throws; fails the test unless it throws ProtocolSchemaError. */
export function issuePaths(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolSchemaError);
    return (error as ProtocolSchemaError).issues.map((issue) => issue.path);
  }
  throw new Error("expected a ProtocolSchemaError");
}
