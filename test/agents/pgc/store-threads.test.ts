// A cold build that parses on worker threads stores exactly what a single-threaded build stores:
// the same data files, byte for byte (each extraction lands in its file's slot, in scan order).
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { extractOnThreads, extractWorkerScript } from "../../../agents/pgc/store/extract-pool.js";
import { extractFile } from "../../../agents/pgc/overlays/index.js";
import { tokenizeDocs } from "../../../agents/pgc/retrieval/index.js";

const STDLIB = "/usr/lib/python3.11";
const PACKAGES = ["json", "http", "email"];
const available = PACKAGES.every((pkg) => existsSync(join(STDLIB, pkg))) && extractWorkerScript() !== null;
const logger = pino({ level: "silent" });
let dir: string;

beforeAll(() => {
  if (!available) return;
  dir = mkdtempSync(join(tmpdir(), "mesh-threads-"));
  for (const pkg of PACKAGES) cpSync(join(STDLIB, pkg), join(dir, "src", pkg), { recursive: true, filter: (src) => !src.includes("__pycache__") });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!available)("threaded cold build (json, http, email of Python 3.11)", () => {
  it("writes the same data files as a build on one thread", async () => {
    const build = (threads: number) => openPgc({ scope: "std", root: join(dir, "src"), cacheRoot: join(dir, `cache-${threads}`), threads, logger });
    const single = await build(1);
    const threaded = await build(2);
    expect(single.outcome).toMatchObject({ mode: "built", threads: 1 });
    expect(threaded.outcome).toMatchObject({ mode: "built", reparsed: single.outcome.reparsed, threads: 2 });
    expect(single.outcome.reparsed).toBeGreaterThan(30);
    expect(threaded.manifest.index_revision).toBe(single.manifest.index_revision);
    // Each data file's sha256: identical bytes on disk.
    expect(threaded.manifest.blobs).toEqual(single.manifest.blobs);
    expect(threaded.data).toEqual(single.data);
  });

  it("extracts and tokenizes on threads what this thread would, without a progress callback too", async () => {
    const inputs = [
      { path: "a.py", content: 'def f(x):\n    """Double x."""\n    return g(x) * 2\n', language: "python" as const },
      { path: "b.ts", content: "export function g(x: number): number {\n  return x;\n}\n", language: "typescript" as const },
    ];
    const threaded = await extractOnThreads(inputs, 2);
    const here = await Promise.all(inputs.map((input) => extractFile(input)));
    expect(threaded.map((result) => result.extraction)).toEqual(here);
    expect(threaded.map((result) => result.tokens)).toEqual(here.map((extraction) => tokenizeDocs(extraction.docs)));
  });
});
