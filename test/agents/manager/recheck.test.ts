// Re-checking every citation of a recorded answer against the code as it is now (`mesh trace --verify`).
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recheckCitations } from "../../../agents/manager/recheck.js";
import type { HopRecord } from "../../../agents/manager/answer/result.js";
import { citationHash, sliceLines } from "../../../agents/protocol/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "recheck-"));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function cited(text: string, file_path: string, line_start: number, line_end: number): HopRecord["citations"][number] {
  return { file_path, line_start, line_end, sha256: citationHash(sliceLines(text, line_start, line_end)), similarity: 1, similarity_kind: "exact", overlay: "O1" };
}

function record(citations: HopRecord["citations"]): { id: string; knowledge_chain: HopRecord[] } {
  const hop = { hop: 0, scope: "mm", citations } as unknown as HopRecord;
  return { id: "q-1", knowledge_chain: [hop] };
}

const source = "int a;\nvoid *alloc_pages(int order)\n{\n\treturn 0;\n}\n";

describe("recheckCitations", () => {
  it("says which citations still match, which lines changed, and which files are gone", () => {
    const root = tree({ "mm/page_alloc.c": source, "mm/slab.c": source });
    const answer = record([cited(source, "mm/page_alloc.c", 2, 5), cited(source, "mm/page_alloc.c", 1, 1), cited(source, "mm/slab.c", 2, 2)]);
    expect(recheckCitations(answer, root)).toMatchObject({ id: "q-1", matching: 3, citations: [{ outcome: "match" }, { outcome: "match" }, { outcome: "match" }] });

    writeFileSync(join(root, "mm/page_alloc.c"), source.replace("return 0;", "return NULL;"));
    unlinkSync(join(root, "mm/slab.c"));
    const after = recheckCitations(answer, root);
    expect(after.matching).toBe(1);
    expect(after.citations.map((c) => [c.file_path, c.line_start, c.outcome])).toEqual([
      ["mm/page_alloc.c", 2, "changed"],
      ["mm/page_alloc.c", 1, "match"],
      ["mm/slab.c", 2, "missing"],
    ]);
    expect(after.citations[0]?.detail).toMatch(/hash to [0-9a-f]{12}…, not/);
  });

  it("calls lines past the end of a shortened file changed, and never reads outside the root", () => {
    const outside = tree({ "secret.c": source });
    const root = tree({ "mm/page_alloc.c": source });
    symlinkSync(join(outside, "secret.c"), join(root, "mm/link.c"));
    writeFileSync(join(root, "mm/page_alloc.c"), "int a;\n");
    const report = recheckCitations(record([cited(source, "mm/page_alloc.c", 2, 5), cited(source, "../secret.c", 2, 2), cited(source, "mm/link.c", 2, 2)]), root);
    expect(report.citations.map((c) => c.outcome)).toEqual(["changed", "missing", "missing"]);
    expect(report.citations[0]?.detail).toMatch(/do not exist/);
  });
});
