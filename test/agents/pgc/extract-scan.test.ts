// Scope scanning: what is read, what is skipped, and that no path leads out of the scope root.
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  languageForPath,
  resolveInsideScope,
  scanScope,
  ScopeNotFoundError,
  ScopeViolationError,
} from "../../../agents/pgc/scan/index.js";

let base: string;
let root: string;
let outside: string;

async function put(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "pgc-scan-")));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, "secret.c"), "int secret(void) { return 42; }\n");
  await put("src/main.c", "int main(void) { return 0; }\n");
  await put("src/util.h", "#define MAX_X 4\n");
  await put("docs/guide.md", "# Guide\n\nHello.\n");
  await put("Makefile", "all:\n\tcc src/main.c\n");
  await put("node_modules/dep/index.js", "module.exports = 1;\n");
  await put(".git/config", "[core]\n");
  await put("dist/out.js", "x\n");
  await put("build/out.o.txt", "x\n");
  await put("blob.dat.txt", Buffer.from([0x68, 0x69, 0x00, 0x01]));
  await put("image.png", "not really a png\n");
  await put("big.txt", "x".repeat(5000));
  await symlink(path.join(outside, "secret.c"), path.join(root, "src/escape.c"));
  await symlink(outside, path.join(root, "linked-dir"));
  await symlink(path.join(root, "src/main.c"), path.join(root, "src/alias.c"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("languageForPath", () => {
  it.each([
    ["a/b.c", "c"], ["a/b.h", "c"], ["x.cc", "cpp"], ["x.cpp", "cpp"], ["x.hpp", "cpp"], ["x.hh", "cpp"],
    ["x.ts", "typescript"], ["x.tsx", "tsx"], ["x.js", "javascript"], ["x.mjs", "javascript"],
    ["x.cjs", "javascript"], ["x.py", "python"], ["Makefile", "text"], ["Kconfig", "text"], ["README.md", "text"],
  ])("%s is %s", (file, language) => {
    expect(languageForPath(file)).toBe(language);
  });
});

describe("scanScope", () => {
  it("reads code and text, skipping tool dirs, binaries, oversize files and escaping symlinks", async () => {
    const result = await scanScope({ root, maxFileBytes: 4096 });
    expect(result.files.map((file) => file.path)).toEqual([
      "Makefile", "docs/guide.md", "src/alias.c", "src/main.c", "src/util.h",
    ]);
    expect(result.stats).toEqual({ skipped_binary: 2, skipped_too_large: 1, skipped_symlinks: 2, skipped_directories: 4 });
  });

  it("records language, line count, size and the sha256 of the raw bytes", async () => {
    const { files } = await scanScope({ root, scopePaths: ["src/main.c"] });
    const content = "int main(void) { return 0; }\n";
    expect(files).toEqual([
      {
        path: "src/main.c",
        language: "c",
        lines: 1,
        bytes: content.length,
        sha256: createHash("sha256").update(content).digest("hex"),
        content,
      },
    ]);
  });

  it("limits the walk to the scope paths, counting each file once", async () => {
    const { files } = await scanScope({ root, scopePaths: ["src/", "src/util.h", "docs"] });
    expect(files.map((file) => file.path)).toEqual(["docs/guide.md", "src/alias.c", "src/main.c", "src/util.h"]);
  });

  it("refuses scope paths outside the root and reports missing ones", async () => {
    await expect(scanScope({ root, scopePaths: ["../outside"] })).rejects.toBeInstanceOf(ScopeViolationError);
    await expect(scanScope({ root, scopePaths: ["linked-dir"] })).rejects.toBeInstanceOf(ScopeViolationError);
    await expect(scanScope({ root, scopePaths: ["nope/"] })).rejects.toBeInstanceOf(ScopeNotFoundError);
    await expect(scanScope({ root: path.join(base, "missing") })).rejects.toMatchObject({ code: "scope_not_found" });
  });
});

describe("resolveInsideScope", () => {
  it("resolves paths inside the root to their real location", async () => {
    await expect(resolveInsideScope(root, "src/main.c")).resolves.toBe(path.join(root, "src/main.c"));
    await expect(resolveInsideScope(root, "src/../docs/guide.md")).resolves.toBe(path.join(root, "docs/guide.md"));
    await expect(resolveInsideScope(root, "src/alias.c")).resolves.toBe(path.join(root, "src/main.c"));
    await expect(resolveInsideScope(root, "src/not-yet.c")).resolves.toBe(path.join(root, "src/not-yet.c"));
  });

  it.each([
    ["..", "`..`"],
    ["../outside/secret.c", "`..`"],
    ["src/../../outside/secret.c", "`..`"],
    ["/etc/passwd", "absolute"],
    ["src/escape.c", "symlink"],
    ["linked-dir/secret.c", "symlink"],
    ["linked-dir/new-file.c", "symlink"],
  ])("refuses %s", async (relPath, reason) => {
    const attempt = resolveInsideScope(root, relPath);
    await expect(attempt).rejects.toBeInstanceOf(ScopeViolationError);
    await expect(attempt).rejects.toMatchObject({ name: "ScopeViolationError", code: "scope_violation", retryable: false });
    await expect(attempt).rejects.toThrow(reason);
  });
});
