// The bundled CLI (scripts/build-bundle.mjs, run by `npm run build` before the tests): bin/mesh.js runs it,
// so every CLI and fleet test exercises it; here, what the bundle must keep outside itself.
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const BUNDLE_DIR = fileURLToPath(new URL("../../dist/bundle/cli/", import.meta.url));

describe("the bundled CLI", () => {
  it("is built, runs on its own, and lists every command", async () => {
    expect(existsSync(`${BUNDLE_DIR}main.js`)).toBe(true);
    const { stdout } = await run(process.execPath, [`${BUNDLE_DIR}main.js`, "--help"]);
    for (const command of ["up", "down", "agents", "worker", "manager", "ask-local"]) expect(stdout).toMatch(new RegExp(`^  ${command} `, "m"));
  });

  it("keeps the native addons and the tree-sitter runtime external", () => {
    const code = readdirSync(BUNDLE_DIR)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(`${BUNDLE_DIR}${f}`, "utf8"))
      .join("\n");
    expect(code).toMatch(/require\("zeromq"\)/); // by require(): no export-name scan of its CommonJS source
    expect(code).toMatch(/from "web-tree-sitter"/);
    expect(code).toMatch(/require\("msgpackr-extract"\)/);
  });

  it("carries zod's English messages and none of its other locales", () => {
    const code = readdirSync(BUNDLE_DIR)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(`${BUNDLE_DIR}${f}`, "utf8"))
      .join("\n");
    expect(code).toContain("Invalid input: expected");
    expect(code).not.toContain("Ungültige Eingabe"); // German
  });
});

describe("the worker's bundle", () => {
  const WORKER_BUNDLE = fileURLToPath(new URL("../../dist/bundle/worker/worker.cjs", import.meta.url));
  const CODE_CACHE = fileURLToPath(new URL("../../bin/code-cache.js", import.meta.url));

  it("is built with a code cache that V8 accepts in a fresh process", async () => {
    const check = `import { loadCompiled } from ${JSON.stringify(CODE_CACHE)}; const { exports, script } = loadCompiled(${JSON.stringify(WORKER_BUNDLE)}); process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected, run: typeof exports.runWorker }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", check]);
    expect(JSON.parse(stdout)).toEqual({ rejected: false, run: "function" });
  });

  it("runs `mesh worker` in strict mode, as the ES module bundle does", () => {
    expect(readFileSync(WORKER_BUNDLE, "utf8")).toMatch(/^\(function \(exports, require, module, __filename, __dirname\) \{"use strict";\n/);
  });

  it("answers `mesh worker --help` through bin/mesh.js", async () => {
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL("../../bin/mesh.js", import.meta.url)), "worker", "--help"]);
    expect(stdout).toMatch(/^Usage: mesh worker --scope NAME/);
  });
});
