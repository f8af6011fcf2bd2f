// The stored PGC: incremental rebuilds re-parse only changed files; a corrupt or stale store is
// detected and rebuilt; a file changed after indexing is never cited.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { checkStoredPgc, openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";

const logger = pino({ level: "silent" });
let dir: string;
let root: string;
let cacheRoot: string;
const scopePaths = ["mm/", "include/linux/mm.h", "include/linux/gfp.h", "include/linux/slab.h"];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mesh-store-"));
  root = join(dir, "src");
  cacheRoot = join(dir, "cache");
  cpSync(C_KERNEL_DIR, root, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => openPgc({ scope: "mm", root, scopePaths, cacheRoot, logger });

function storeDir(): string {
  const pgcDir = join(cacheRoot, "pgc");
  const [only] = readdirSync(pgcDir);
  return join(pgcDir, only as string);
}

describe("stored PGC", () => {
  it("checkStoredPgc tells a current store from a stale one without loading it (mesh up's check)", async () => {
    const check = (sourceRevision?: string | null) => checkStoredPgc({ scope: "mm", root, scopePaths, cacheRoot, ...(sourceRevision !== undefined ? { sourceRevision } : {}) });
    expect((await check()).current).toBe(false); // nothing stored yet
    const built = await open();
    expect(await check()).toEqual({ index_revision: built.manifest.index_revision, current: true });
    expect(await check(null)).toEqual({ index_revision: built.manifest.index_revision, current: true }); // not a git repository
    expect((await check("0123abcd")).current).toBe(false); // another HEAD is another revision
    appendFileSync(join(root, "mm", "page_alloc.c"), "\n/* changed */\n");
    const stale = await check();
    expect(stale.current).toBe(false);
    const rebuilt = await open();
    expect(rebuilt.outcome.mode).toBe("built");
    expect(rebuilt.manifest.index_revision).toBe(stale.index_revision);
  });

  it("builds cold, loads unchanged, and re-parses only a changed file", async () => {
    const cold = await open();
    expect(cold.outcome.mode).toBe("built");
    expect(cold.outcome.reused).toBe(0);
    const files = cold.outcome.reparsed;
    expect(files).toBeGreaterThan(3);

    const again = await open();
    expect(again.outcome).toMatchObject({ mode: "loaded", reparsed: 0 });
    expect(again.manifest.index_revision).toBe(cold.manifest.index_revision);
    expect(again.data.docs.length).toBe(cold.data.docs.length);

    appendFileSync(join(root, "mm/page_alloc.c"), "\n/* a comment added later */\n");
    const changed = await open();
    expect(changed.outcome).toMatchObject({ mode: "built", reparsed: 1, reused: files - 1 });
    expect(changed.manifest.index_revision).not.toBe(cold.manifest.index_revision);
    expect(changed.manifest.files["mm/page_alloc.c"]).not.toBe(cold.manifest.files["mm/page_alloc.c"]);
  });

  it("detects a corrupt data file and rebuilds instead of half-reading it", async () => {
    await open();
    writeFileSync(join(storeDir(), "index.msgpack"), "garbage");
    const reopened = await open();
    expect(reopened.outcome.mode).toBe("built");
    expect(reopened.outcome.reparsed).toBe(0); // the per-file extractions were intact and reused
    expect((await open()).outcome.mode).toBe("loaded");
  });

  it("rebuilds from scratch when the manifest is unreadable", async () => {
    await open();
    writeFileSync(join(storeDir(), "manifest.json"), "{ truncated");
    const reopened = await open();
    expect(reopened.outcome).toMatchObject({ mode: "built", reused: 0 });
  });

  it("never cites a file that changed after indexing", async () => {
    const pgc = new Pgc("mm", scopePaths, await open());
    const before = await pgc.query("alloc_pages", { topK: 5 });
    expect(before.some((c) => c.file_path === "mm/page_alloc.c")).toBe(true);
    appendFileSync(join(root, "mm/page_alloc.c"), "\nint drift;\n");
    // The running worker's own Pgc (its reader had the file cached) and a fresh one both refuse it.
    const after = await pgc.query("alloc_pages", { topK: 5 });
    expect(after.some((c) => c.file_path === "mm/page_alloc.c")).toBe(false);
    const fresh = await new Pgc("mm", scopePaths, pgc.opened).query("alloc_pages", { topK: 5 });
    expect(fresh.some((c) => c.file_path === "mm/page_alloc.c")).toBe(false);
  });

  it("keeps the calibration through a small change, answering as a cold build does, and refits once the changes add up", async () => {
    const cold = await open();
    expect(cold.manifest.calibration).toMatchObject({ reused: false, drift_files: 0, fitted_on: cold.manifest.index_revision });
    appendFileSync(join(root, "mm/page_alloc.c"), "\n/* one file changed */\n");
    const patched = await open();
    expect(patched.manifest.calibration).toMatchObject({ reused: true, drift_files: 1, fitted_on: cold.manifest.index_revision });
    // The same tree built cold elsewhere: the same hits in the same order, the same index; only the
    // reported similarity may differ, and little.
    const elsewhere = await openPgc({ scope: "mm", root, scopePaths, cacheRoot: join(dir, "cold-cache"), logger });
    expect(elsewhere.manifest.calibration).toMatchObject({ reused: false });
    expect(patched.index.toJSON()).toEqual(elsewhere.index.toJSON());
    const [a, b] = [new Pgc("mm", scopePaths, patched), new Pgc("mm", scopePaths, elsewhere)];
    for (const question of ["alloc_pages", "free pages to the buddy allocator", "slab cache", "GFP flags for the page allocator"]) {
      const [x, y] = [await a.query(question, { topK: 5 }), await b.query(question, { topK: 5 })];
      expect(x.map((c) => `${c.file_path}:${c.line_start}`), question).toEqual(y.map((c) => `${c.file_path}:${c.line_start}`));
      for (const [i, c] of x.entries()) expect(Math.abs(c.similarity - (y[i]?.similarity ?? 0)), question).toBeLessThan(0.1);
    }
    // A second change takes the files changed since the fit past the share: the scope is refitted.
    appendFileSync(join(root, "mm/slab.c"), "\n/* another */\n");
    const refit = await open();
    expect(refit.manifest.calibration).toMatchObject({ reused: false, drift_files: 0, fitted_on: refit.manifest.index_revision });
  });
});
