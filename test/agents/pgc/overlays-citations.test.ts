// Every document must cite real, non-empty lines of a real file inside its scope: re-read and check each one.
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extractScope, type ScopeExtractionResult } from "../../../agents/pgc/overlays/index.js";
import { resolveInsideScope } from "../../../agents/pgc/scan/index.js";
import { OVERLAYS } from "../../../agents/pgc/types.js";
import { makeGitHistory } from "../../../scripts/fixtures/make-git-history.js";
import { C_KERNEL_DIR, PY_SMALL_DIR, TS_SMALL_DIR } from "../../fixtures/fixture-paths.js";

const ZOD_CORE_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve("zod/package.json")), "src/v4/core");
const made: string[] = [];

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Lines of each cited file, read once through the scope-safety check. */
async function fileLines(result: ScopeExtractionResult): Promise<Map<string, string[]>> {
  const files = new Map<string, string[]>();
  const cited = [...result.docs.map((doc) => doc.file_path), ...result.crossScopeReferences.map((reference) => reference.from_file)];
  for (const file of new Set(cited)) {
    const content = await readFile(await resolveInsideScope(result.root, file), "utf8");
    files.set(file, content.split("\n"));
  }
  return files;
}

async function expectRealCitations(result: ScopeExtractionResult): Promise<void> {
  const files = await fileLines(result);
  for (const doc of result.docs) {
    const lines = files.get(doc.file_path) ?? [];
    const cited = lines.slice(doc.line_start - 1, doc.line_end);
    expect(doc.line_start, doc.id).toBeGreaterThanOrEqual(1);
    expect(doc.line_end, doc.id).toBeGreaterThanOrEqual(doc.line_start);
    expect(cited.length, doc.id).toBe(doc.line_end - doc.line_start + 1);
    expect(cited.join("\n").trim(), doc.id).not.toBe("");
    expect(doc.fields.path, doc.id).toBe(doc.file_path);
    expect(doc.text, doc.id).not.toBe("");
  }
  expect(new Set(result.docs.map((doc) => doc.id)).size).toBe(result.docs.length);
  for (const reference of result.crossScopeReferences) {
    expect(files.get(reference.from_file)?.[reference.line - 1]?.trim() ?? "", `${reference.from_file}:${reference.line}`).not.toBe("");
  }
}

describe("citations are real lines of real files", () => {
  it("in the demo kernel with git history, where every overlay has documents", async () => {
    const { dir } = await makeGitHistory({ fixtureDir: C_KERNEL_DIR });
    made.push(dir);
    const result = await extractScope({ root: dir });
    for (const overlay of OVERLAYS) expect(result.stats.docs_by_overlay[overlay], overlay).toBeGreaterThan(0);
    await expectRealCitations(result);
  });

  it("in each scope of the demo kernel", async () => {
    for (const scopePaths of [["net/", "include/linux/skbuff.h"], ["drivers/"], ["kernel/dma/"], ["mm/", "include/linux/mm.h"]]) {
      await expectRealCitations(await extractScope({ root: C_KERNEL_DIR, scopePaths, gitHistory: false }));
    }
  });

  it("in the TypeScript and Python fixtures", async () => {
    await expectRealCitations(await extractScope({ root: TS_SMALL_DIR, gitHistory: false }));
    await expectRealCitations(await extractScope({ root: PY_SMALL_DIR, gitHistory: false }));
  });

  it.skipIf(!existsSync("/usr/lib/python3.11/json"))("in the Python standard library's json package", async () => {
    await expectRealCitations(await extractScope({ root: "/usr/lib/python3.11/json", gitHistory: false }));
  });

  it.skipIf(!existsSync(ZOD_CORE_DIR))("in zod's TypeScript sources", async () => {
    await expectRealCitations(await extractScope({ root: ZOD_CORE_DIR, gitHistory: false }));
  });
});
