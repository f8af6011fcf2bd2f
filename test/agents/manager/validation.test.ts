// The manager's checklist on real files: hashes recomputed from disk, never trusted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkCriterion, validateResponse, type ValidationInput } from "../../../agents/manager/validation/index.js";
import { citationHash, sliceLines, type Citation, type DelegatedTask, type TaskResponse } from "../../../agents/protocol/index.js";

let root: string;
const SOURCE = "/* alloc */\nvoid *dma_alloc_coherent(int size)\n{\n\treturn alloc_pages(size);\n}\n";

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "mesh-validate-"));
  mkdirSync(join(root, "kernel"), { recursive: true });
  writeFileSync(join(root, "kernel/mapping.c"), SOURCE);
  writeFileSync(join(root, "secret.txt"), "outside\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const readFile = async (path: string) => {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return null;
  }
};

function citation(over: Partial<Citation> = {}): Citation {
  const base = { file_path: "kernel/mapping.c", line_start: 2, line_end: 5 };
  const path = over.file_path ?? base.file_path;
  const text = readFileSync(join(root, path), "utf8");
  const sha = (() => {
    try {
      return citationHash(sliceLines(text, over.line_start ?? base.line_start, over.line_end ?? base.line_end));
    } catch {
      return "0".repeat(64);
    }
  })();
  return { overlay: "O1", content: "function:dma_alloc_coherent calls alloc_pages", relevance: "names it", ...base, sha256: sha, similarity: 1, similarity_kind: "exact", ...over };
}

function input(cites: Citation[], task: Partial<DelegatedTask> = {}, response: Partial<TaskResponse> = {}): ValidationInput {
  return {
    task: { id: "t1", task: "where is dma_alloc_coherent", acceptance_criteria: [], grounding: { strategy: "pgc_cite", evidence_required: true }, ...task },
    response: {
      task_id: "t1",
      status: "completed",
      result: "dma_alloc_coherent is in kernel/mapping.c and calls alloc_pages",
      protocol_version: "2.0",
      grounding_evidence: { queries_executed: ["q"], overlays_consulted: ["O1"], citations: cites, grounding_confidence: "high" },
      ...response,
    },
    scope: { name: "kernel", paths: ["kernel/"] },
    readFile,
    random: () => 0,
  };
}

describe("validateResponse", () => {
  it("accepts a response whose citations hash to the files", async () => {
    const verdict = await validateResponse(input([citation()]));
    expect(verdict).toMatchObject({ status: "accepted", citations_checked: 1, citations_verified: 1 });
  });

  it("rejects a fabricated citation and a stale one", async () => {
    const fabricated = await validateResponse(input([citation({ sha256: "a".repeat(64) })]));
    expect(fabricated).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION" });
    expect(fabricated.reasons[0]).toMatch(/kernel\/mapping\.c:2-5/);
    const beyond = await validateResponse(input([citation({ line_start: 40, line_end: 41 })]));
    expect(beyond.code).toBe("FABRICATED_CITATION");
  });

  it("rejects citations outside the worker's scope, including .. escapes", async () => {
    expect((await validateResponse(input([citation({ file_path: "secret.txt", line_start: 1, line_end: 1 })]))).code).toBe("CITATION_OUT_OF_SCOPE");
    const escape = { ...citation(), file_path: "kernel/../secret.txt" };
    expect((await validateResponse(input([escape]))).code).toBe("CITATION_OUT_OF_SCOPE");
  });

  it("rejects a response without evidence where evidence was required, naming the legacy protocol", async () => {
    const { grounding_evidence: _dropped, ...legacy } = input([]).response;
    const verdict = await validateResponse({ ...input([]), response: { ...legacy, protocol_version: "1.0-legacy" } });
    expect(verdict).toMatchObject({ status: "rejected", code: "PROTOCOL_MISMATCH" });
    expect(verdict.reasons[0]).toMatch(/legacy/);
  });

  it("applies the confidence policy: low + critical rejected, low otherwise warned", async () => {
    const low = (critical: boolean) => {
      const base = input([citation()], { critical });
      const evidence = base.response.grounding_evidence;
      return { ...base, response: { ...base.response, ...(evidence ? { grounding_evidence: { ...evidence, grounding_confidence: "low" as const } } : {}) } };
    };
    expect(await validateResponse(low(true))).toMatchObject({ status: "rejected", code: "LOW_CONFIDENCE_CRITICAL" });
    expect((await validateResponse(low(false))).status).toBe("accepted_with_warnings");
    expect((await validateResponse({ ...low(true), policy: { lowConfidenceCritical: "warn" } })).status).toBe("accepted_with_warnings");
  });

  it("samples citations for ordinary tasks and checks all of them for critical ones", async () => {
    const many = [citation(), citation({ line_start: 2, line_end: 2 }), citation({ line_start: 3, line_end: 4 }), citation({ line_start: 1, line_end: 1 })];
    expect((await validateResponse(input(many))).citations_checked).toBe(2);
    expect((await validateResponse(input(many, { critical: true }))).citations_checked).toBe(4);
  });

  it("asks another replica when the manager cannot read the root", async () => {
    const remote = { ...input([citation(), citation({ line_start: 2, line_end: 2 })]), readFile: null, verifyRemote: async (cs: readonly Citation[]) => cs.map((_, i) => i === 0) };
    expect(await validateResponse(remote)).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION", citations_verified: 1 });
    const nobody = { ...input([citation()], { critical: true }), readFile: null };
    expect(await validateResponse(nobody)).toMatchObject({ status: "rejected", code: "UNVERIFIABLE_CITATION" });
  });

  it("warns when hinted overlays were not consulted", async () => {
    const verdict = await validateResponse(input([citation()], { grounding: { strategy: "pgc_cite", overlay_hints: ["O2"], evidence_required: true } }));
    expect(verdict.status).toBe("accepted_with_warnings");
    expect(verdict.warnings.join(" ")).toMatch(/O2/);
  });

  it("does not accept a failed or blocked response as an answer", async () => {
    const failed = input([citation()], {}, { status: "failed", error: { code: "EXECUTOR_FAILED", message: "boom", retryable: false } });
    expect(await validateResponse(failed)).toMatchObject({ status: "rejected", code: "TASK_NOT_COMPLETED" });
  });
});

describe("acceptance criteria rule", () => {
  it("requires every code anchor of a criterion", () => {
    expect(checkCriterion("names dma_alloc_coherent and alloc_pages", "dma_alloc_coherent calls alloc_pages")).toMatchObject({ met: true, rule: "anchors" });
    expect(checkCriterion("mentions `kmalloc`", "dma_alloc_coherent calls alloc_pages")).toMatchObject({ met: false, rule: "anchors" });
    expect(checkCriterion("cites kernel/dma/mapping.c", "see kernel/dma/mapping.c:12")).toMatchObject({ met: true });
  });

  it("requires 60% of the content terms of a plain-words criterion", () => {
    expect(checkCriterion("explains how pages are allocated", "pages get allocated by the buddy allocator; this explains it")).toMatchObject({ met: true, rule: "terms" });
    expect(checkCriterion("describes the interrupt coalescing policy", "pages get allocated")).toMatchObject({ met: false, rule: "terms" });
  });
});
