// The code base's own name in a question ("How does ProseMirror …", "Where does TanStack Table …") names no
// part of it: read from the root's directory name and package manifest, the question's words naming it
// weigh as words every function has, not as words no function has.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectNames, projectTerms } from "../../../agents/manager/entry/project-name.js";
import { withRarity } from "../../../agents/manager/entry/entry-round.js";
import { parseQuestion } from "../../../agents/search/question.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function root(name: string, files: Record<string, string> = {}): string {
  const parent = mkdtempSync(join(tmpdir(), "mesh-project-"));
  dirs.push(parent);
  const dir = join(parent, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe("the project's name", () => {
  it("is the root's directory name and its manifest's package name, whole and by parts", () => {
    expect([...projectNames(root("ts-prosemirror-view"))].sort()).toEqual(["prosemirror", "prosemirrorview", "tsprosemirror", "tsprosemirrorview", "view"]);
    expect([...projectNames(root("checkout", { "package.json": JSON.stringify({ name: "@tanstack/table-core" }) }))].sort()).toEqual(["checkout", "core", "table", "tablecore", "tanstack", "tanstacktable", "tanstacktablecore"]);
    expect(projectNames(root("src", { "pyproject.toml": '[project]\nname = "dulwich"\n' })).has("dulwich")).toBe(true);
    expect(projectNames(root("x1", { "package.json": "{ not json" })).size).toBe(0);
    expect(projectNames(undefined).size).toBe(0);
  });

  it("is found in the words a question writes, with all their terms", () => {
    const names = projectNames(root("ts-prosemirror-view"));
    expect([...projectTerms("How does ProseMirror read the DOM change back?", names)].sort()).toEqual(["mirror", "prose", "prosemirror"]);
    expect(projectTerms("Where does prosemirror-view itself decide?", names).has("prosemirror-view")).toBe(true);
    expect(projectTerms("How is the selection drawn?", names).size).toBe(0);
  });

  it("weighs, when no function matches it, as a word every function has", () => {
    const q = parseQuestion("How does ProseMirror turn pasted HTML into a slice?");
    const results = [{ nodes: 400, df: { past: 3, html: 5, slice: 20 } }];
    const weight = (scaled: typeof q, term: string) => scaled.terms.find((t) => t.term === term)?.weight ?? -1;
    const plain = withRarity(q, results);
    const named = withRarity(q, results, projectTerms(q.text, projectNames(root("prosemirror-view"))));
    // Unmatched and not the project's: its full weight (the code may not do it).
    expect(weight(plain, "prose")).toBe(weight(q, "prose"));
    expect(weight(named, "prose")).toBeCloseTo(weight(q, "prose") * 0.2);
    expect(weight(named, "turn")).toBe(weight(q, "turn"));
    expect(weight(named, "html")).toBe(weight(plain, "html"));
  });
});
