// `mesh ask-local` and `mesh worker` as a user runs them: real processes, real exit codes.
import { afterAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { citationHash, sliceLines } from "../../agents/protocol/index.js";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN } from "../helpers/processes.js";

const run = promisify(execFile);
const cache = mkdtempSync(join(tmpdir(), "mesh-cli-cache-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

async function mesh(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MESH_BIN, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("mesh ask-local", () => {
  it("answers in the ask --json shape with checkable sources, and reuses its index", async () => {
    const args = ["ask-local", "where is dma_alloc_coherent defined?", "--root", C_KERNEL_DIR, "--scope-path", "kernel/", "--cache", cache, "--json"];
    const first = await mesh(...args);
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout) as { question: string; answer: string; query_intent: { intent: string }; sources: { file_path: string; line_start: number; line_end: number; sha256: string; similarity_kind: string }[]; metadata: { question_hash: string; top_k: number } };
    expect(result.query_intent.intent).toBe("location");
    expect(result.sources[0]).toMatchObject({ similarity_kind: "exact" });
    for (const s of result.sources) {
      expect(s.file_path.startsWith("kernel/")).toBe(true);
      expect(citationHash(sliceLines(readFileSync(join(C_KERNEL_DIR, s.file_path), "utf8"), s.line_start, s.line_end))).toBe(s.sha256);
    }
    const text = await mesh(...args.slice(0, -1));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/From scope kernel/);
    expect(text.stderr).toMatch(/loaded index [0-9a-f]{16}/);
  });

  it("reports bad arguments and an unreadable root with distinct exit codes", async () => {
    expect((await mesh("ask-local", "q")).code).toBe(64);
    expect((await mesh("ask-local", "--root", C_KERNEL_DIR)).code).toBe(64);
    expect((await mesh("ask-local", "q", "--root", C_KERNEL_DIR, "--overlays", "O9")).code).toBe(64);
    const missing = await mesh("ask-local", "q", "--root", join(cache, "no-such-dir"), "--cache", cache);
    expect(missing.code).toBe(65);
    expect(missing.stderr).toMatch(/cannot index/);
  });
});

describe("mesh worker", () => {
  it("refuses to start without a scope or a way to join a mesh", async () => {
    expect((await mesh("worker", "--root", C_KERNEL_DIR)).code).toBe(64);
    const noMesh = await mesh("worker", "--scope", "mm", "--root", C_KERNEL_DIR);
    expect(noMesh.code).toBe(64);
    expect(noMesh.stderr).toMatch(/--seed ENDPOINT or --registry DIR/);
  });
});

describe("mesh scopes", () => {
  it("proposes a scopes file that covers every file once", async () => {
    const { code, stdout } = await mesh("scopes", C_KERNEL_DIR, "--target-lines", "400", "--json");
    expect(code).toBe(0);
    const file = JSON.parse(stdout) as { target_lines: number; scopes: { name: string; paths: string[]; lines: number }[] };
    expect(file.target_lines).toBe(400);
    const paths = file.scopes.flatMap((s) => s.paths);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.some((p) => p.startsWith("mm/"))).toBe(true);
    expect(new Set(file.scopes.map((s) => s.name)).size).toBe(file.scopes.length);
    // Without --target-lines: an eighth of the code, at least 5,000 lines, so this small tree stays whole.
    const auto = JSON.parse((await mesh("scopes", C_KERNEL_DIR, "--json")).stdout) as typeof file;
    expect(auto.target_lines).toBe(5_000);
    // Without --json the file is indented on stdout, and what it proposes is summed up on stderr.
    const shown = await mesh("scopes", C_KERNEL_DIR);
    expect(JSON.parse(shown.stdout)).toEqual(auto);
    expect(shown.stderr).toMatch(/^mesh scopes: 1 scope for [\d,]+ lines \(at most 5,000 each, an eighth of the code within 5,000–50,000\): /);
    expect(auto.scopes).toHaveLength(1);
    expect(auto.scopes[0]?.paths).toEqual(expect.arrayContaining(["drivers/", "mm/", "net/", "kernel/", "include/"]));
    expect((await mesh("scopes")).code).toBe(64);
    expect((await mesh("scopes", join(cache, "missing"))).code).toBe(65);
  });
});
