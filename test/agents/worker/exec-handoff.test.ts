// HANDOFF.md: the seed 004 preamble and depth line first, then the CDP sections with checkable citations.
import { describe, expect, it } from "vitest";
import { citationHash, sliceLines, type Citation, type DelegatedTask } from "../../../agents/protocol/index.js";
import { citationLine, renderHandoff } from "../../../agents/worker/exec/handoff.js";

/** The worked example of docs/DELEGATION.md §8.1. */
const DMA_C = "/* dma.c */\nint dma_alloc(int n)\n{\n\treturn n * 2;\n}\n";
const cited: Citation = { overlay: "O1", content: "int dma_alloc(int n)\n{", relevance: "the allocator", file_path: "mm/dma.c", line_start: 2, line_end: 3, sha256: citationHash(sliceLines(DMA_C, 2, 3)), similarity: 0.9134, similarity_kind: "calibrated_lexical" };
const scope = { name: "mm", root: "/src/linux", paths: ["mm/", "include/linux/mm.h"] };
const DEADLINE = Date.UTC(2026, 10, 22, 10, 30);

function render(task: DelegatedTask, evidence: Citation[] = [cited]): string {
  return renderHandoff(task, scope, "mm-1", evidence, DEADLINE);
}

describe("HANDOFF.md", () => {
  it("opens with the delegation chain preamble and the depth line", () => {
    const text = render({ id: "T-9", task: "t", acceptance_criteria: [], delegation_depth: 2, delegation_chain: ["manager", "drivers"] });
    expect(text.split("\n").slice(0, 5)).toEqual(["[AI-TO-AI DELEGATION]", "From: drivers", "Chain: human -> manager -> drivers -> you", "Max-Depth: 3 | Your-Depth: 2 | Can-Spawn: YES", ""]);
    expect(text).toContain("- Delegation: you may delegate sub-tasks (depth 2 of 3).");
  });

  it("tells an agent at the depth limit to work inline", () => {
    const text = render({ id: "T-9", task: "t", acceptance_criteria: [], delegation_depth: 3, delegation_chain: ["a", "b", "c"] });
    expect(text).toContain("Max-Depth: 3 | Your-Depth: 3 | Can-Spawn: NO");
    expect(text).toContain("- Delegation: you must work inline (depth 3 of 3).");
  });

  it("renders a legacy task as the primary's, without grounding", () => {
    const text = render({ id: "T-0", task: "Summarise mm/", acceptance_criteria: [] }, []);
    expect(text.split("\n").slice(0, 4)).toEqual(["[AI-TO-AI DELEGATION]", "From: human", "Chain: human -> you", "Max-Depth: 3 | Your-Depth: 0 | Can-Spawn: YES"]);
    expect(text).toContain("## Acceptance Criteria\n(none given: answer the task)");
    expect(text).toContain("- Strategy: none — Free-form execution");
    expect(text).toContain("- Evidence required: no");
    expect(text).toMatch(/## Evidence from the PGC\n\(none gathered/);
  });

  it("lists criteria, context, grounding instructions, citations with file:lines and sha256, and key files", () => {
    const task: DelegatedTask = {
      id: "T-100",
      task: "Explain how RX buffers are allocated.",
      acceptance_criteria: ["Names the allocating function", "Cites the source"],
      context: "Previous agent found: e1000 calls dma_alloc.\nReference: audit/T-99.md",
      critical: true,
      grounding: { strategy: "pgc_cite", overlay_hints: ["O1", "O3"], query_hints: ["rx buffer allocation", "dma"], analysis_hints: [{ type: "blast_radius", target: "dma_alloc" }], algebra_expression: "O1 + O3" },
      delegation_depth: 1,
      delegation_chain: ["manager"],
    };
    const text = render(task, [cited, { ...cited, line_start: 4, line_end: 4, sha256: citationHash("\treturn n * 2;"), content: "\treturn n * 2;", similarity: 1, similarity_kind: "exact" }]);
    expect(text).toContain("## Task\nExplain how RX buffers are allocated.\n");
    expect(text).toContain("## Acceptance Criteria\n- [ ] Names the allocating function\n- [ ] Cites the source\n");
    expect(text).toContain("## Context\nPrevious agent found: e1000 calls dma_alloc.\nReference: audit/T-99.md\n");
    expect(text).toContain("- Strategy: pgc_cite — Cite PGC sources in the response");
    expect(text).toContain("- Overlay hints: O1, O3");
    expect(text).toContain('- Query hints: "rx buffer allocation"; "dma"');
    expect(text).toContain("- Evidence required: yes — back every claim with a file and line range");
    expect(text).toContain("- Algebra expression: O1 + O3\n- Analysis hint: blast_radius on \"dma_alloc\"");
    expect(text).toContain("1. `mm/dma.c:2-3` [O1] sha256=7cd284f1649ed39279896f0fb34235fe38759ad81c31d894aded0d76a91edb58 (calibrated_lexical 0.91) — int dma_alloc(int n)\n");
    expect(text).toContain("2. `mm/dma.c:4-4` [O1] sha256=");
    expect(text).toContain("## Key Files\n- `mm/dma.c` — cited in the evidence below\n\n");
    expect(text).toContain("- Scope: mm (mm/, include/linux/mm.h) under `/src/linux`");
    expect(text).toContain("- Deadline: 2026-11-22T10:30:00.000Z");
    expect(text).toContain("- Critical: an answer with low grounding confidence is rejected.");
    expect(text).toContain("**Status:** completed | partial | blocked | failed | needs_clarification");
  });

  it("cuts a citation's excerpt to one line", () => {
    expect(citationLine({ ...cited, content: `\n${"x".repeat(300)}\nsecond` }, 0)).toMatch(/ — x{160}$/);
  });
});
