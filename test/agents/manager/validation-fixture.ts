// Shared by the validation tests: a real source tree in a temp dir, citations hashed from it, and
// schema-valid tasks and responses built around them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ValidationInput } from "../../../agents/manager/validation/index.js";
import {
  citationHash,
  confidenceFromSimilarities,
  parseDelegatedTask,
  parseTaskResponse,
  sliceLines,
  type Citation,
  type DelegatedTask,
  type GroundingEvidence,
  type TaskResponse,
} from "../../../agents/protocol/index.js";

export const MAPPING_C = [
  "/* kernel/dma/mapping.c */",
  "void *dma_alloc_coherent(struct device *dev, size_t size)",
  "{",
  "\treturn alloc_pages(GFP_KERNEL, get_order(size));",
  "}",
  "",
].join("\n");
export const POOL_C = ["/* kernel/dma/pool.c */", "static int dma_pool_grow(struct dma_pool *pool)", "{", "\treturn -ENOMEM;", "}", ""].join("\n");
export const PAGE_ALLOC_C = ["/* mm/page_alloc.c */", "struct page *alloc_pages(gfp_t gfp, unsigned int order)", "{", "\treturn 0;", "}", ""].join("\n");

export const KERNEL_SCOPE = { name: "kernel", paths: ["kernel/"] } as const;

/** A temp source tree: kernel/dma/{mapping,pool}.c inside the kernel scope, mm/page_alloc.c outside it. */
export class SourceTree {
  readonly root = mkdtempSync(join(tmpdir(), "mesh-validation-"));

  constructor() {
    this.write("kernel/dma/mapping.c", MAPPING_C);
    this.write("kernel/dma/pool.c", POOL_C);
    this.write("mm/page_alloc.c", PAGE_ALLOC_C);
  }

  write(path: string, text: string): void {
    mkdirSync(dirname(join(this.root, path)), { recursive: true });
    writeFileSync(join(this.root, path), text);
  }

  /** The manager's view of the root; null for a file that does not exist. */
  readonly readFile = async (path: string): Promise<string | null> => {
    try {
      return readFileSync(join(this.root, path), "utf8");
    } catch {
      return null;
    }
  };

  /** A citation of real lines with their real hash; `over` can then falsify any field. */
  cite(path: string, lineStart: number, lineEnd: number, over: Partial<Citation> = {}): Citation {
    const text = readFileSync(join(this.root, path), "utf8");
    const base: Citation = {
      overlay: "O1",
      content: sliceLines(text, lineStart, lineEnd).slice(0, 200),
      relevance: "where it is defined",
      file_path: path,
      line_start: lineStart,
      line_end: lineEnd,
      sha256: citationHash(sliceLines(text, lineStart, lineEnd)),
      similarity: 1,
      similarity_kind: "exact",
    };
    return { ...base, ...over };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A grounded task (pgc_cite, evidence required), validated by the protocol's own schema. */
export function groundedTask(over: Partial<DelegatedTask> = {}): DelegatedTask {
  return parseDelegatedTask({ id: "T-1", task: "Where is dma_alloc_coherent defined?", acceptance_criteria: [], grounding: { strategy: "pgc_cite", evidence_required: true }, ...over });
}

/** Evidence for `citations`: their overlays consulted, confidence as high as their similarities allow. */
export function evidenceOf(citations: Citation[], over: Partial<GroundingEvidence> = {}): GroundingEvidence {
  const overlays = [...new Set(citations.map((c) => c.overlay))].sort();
  const confidence = confidenceFromSimilarities(citations.map((c) => c.similarity));
  return { queries_executed: ["dma_alloc_coherent"], overlays_consulted: overlays, citations, grounding_confidence: confidence, ...over };
}

/** A completed 2.0 answer carrying `citations`, validated by the protocol's own schema. */
export function answer(citations: Citation[], over: Partial<TaskResponse> = {}): TaskResponse {
  return parseTaskResponse({
    task_id: "T-1",
    status: "completed",
    result: "dma_alloc_coherent is defined in kernel/dma/mapping.c and calls alloc_pages.",
    protocol_version: "2.0",
    grounding_evidence: evidenceOf(citations),
    ...over,
  });
}

/** A response without grounding_evidence (what a legacy worker sends). */
export function withoutEvidence(response: TaskResponse): TaskResponse {
  const { grounding_evidence: _dropped, ...rest } = response;
  return rest;
}

/** Returns the values in order, then repeats the last: a seeded stand-in for Math.random. */
export function sequence(...values: number[]): () => number {
  let next = 0;
  return () => values[Math.min(next++, values.length - 1)] ?? 0;
}

export function inputFor(tree: SourceTree, task: DelegatedTask, response: TaskResponse, over: Partial<ValidationInput> = {}): ValidationInput {
  return { task, response, scope: KERNEL_SCOPE, readFile: tree.readFile, random: sequence(0), ...over };
}
