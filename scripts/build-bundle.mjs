#!/usr/bin/env node
// Bundles the `mesh` CLI (src/cli/main.ts and everything it imports, one chunk per lazily loaded command)
// into dist/bundle/cli/, which bin/mesh.js runs when it is there. A fleet starts one Node process per
// worker; loading a few pre-linked chunks instead of ~200 modules (zod alone is 95 files) halves a
// worker's start-up CPU and shrinks its heap (docs/BENCHMARKS.md, "Fleet launch").
// Run by `npm run build` after tsc, which type-checks and emits dist/ (tests and benchmarks use that).
//
// External: native addons and what loads files relative to its own package (zeromq's prebuilt addon,
// msgpackr's optional native extension, the tree-sitter runtime and grammar wasm files).
// dist/bundle/cli/ is three levels below the project root, like dist/src/<dir>/, so the modules that
// find bin/mesh.js from their own location (`new URL("../../../bin/mesh.js", import.meta.url)`) work
// unchanged in the bundle.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT_DIR = `${ROOT}dist/bundle/cli`;
const WORKER_DIR = `${ROOT}dist/bundle/worker`;
const EXTERNAL = ["zeromq", "msgpackr-extract", "web-tree-sitter", "@repomix/tree-sitter-wasms"];

/**
 * zod re-exports all of its ~40 locales as `z.locales` (366 kB of the 755 kB zod chunk, parsed by every
 * process that loads zod); nothing here uses them, and English, the default, is imported on its own.
 * In the bundle, `z.locales` holds English only.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: "zod-locales", namespace: "zod-english-only", pluginData: args.resolveDir } : undefined));
    b.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({ contents: 'export { default as en } from "../locales/en.js";', resolveDir: args.pluginData, loader: "js" }));
  },
};

/**
 * zeromq stays external (its native addon is found relative to its package), but an ES module importing a
 * CommonJS package makes Node scan that package's source for its export names (cjs-module-lexer) in
 * every process; loading it with require() instead skips the scan.
 */
const zeromqByRequire = {
  name: "zeromq-by-require",
  setup(b) {
    b.onResolve({ filter: /^zeromq$/ }, (args) => (args.namespace === "zeromq-by-require" ? { path: "zeromq", external: true } : { path: "zeromq", namespace: "zeromq-by-require" }));
    b.onLoad({ filter: /.*/, namespace: "zeromq-by-require" }, () => ({ contents: 'module.exports = require("zeromq");', loader: "js" }));
  },
};

rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/cli/main.ts"],
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  external: EXTERNAL,
  // CommonJS dependencies (pino) call require() on Node built-ins; an ES module has no require.
  banner: { js: "import { createRequire as __meshCreateRequire } from 'node:module'; const require = __meshCreateRequire(import.meta.url);" },
  plugins: [zodEnglishOnly, zeromqByRequire],
  logLevel: "warning",
});

// `mesh worker` alone, as one CommonJS file (dist/bundle/worker/worker.cjs, at the same depth as the CLI's
// bundle), which bin/mesh.js compiles from a V8 code cache (bin/code-cache.js): a fleet starts one worker
// per scope, and compiling the bundle was most of a worker's start-up CPU after Node's own
// (docs/BENCHMARKS.md, "Fleet launch"). `import.meta.url` becomes the file's own URL. The file is one
// function expression over CommonJS's parameters, which bin/code-cache.js calls.
rmSync(WORKER_DIR, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/cli/worker-entry.ts"],
  outfile: `${WORKER_DIR}/worker.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: true,
  external: EXTERNAL,
  define: { "import.meta.url": "__meshModuleUrl" },
  charset: "ascii", // read as latin1 by bin/code-cache.js: one byte a character on the heap
  // The source stays on the heap for V8 to compile functions lazily: without comments and whitespace it is
  // 0.86 MB instead of 1.2, an idle worker's private memory 14.9 MB instead of 15.2 (names are kept, so
  // stack traces still read; docs/BENCHMARKS.md, "Fleet launch").
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: '(function (exports, require, module, __filename, __dirname) {"use strict";\nconst __meshModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  footer: { js: "})" },
  plugins: [zodEnglishOnly],
  logLevel: "warning",
});
writeWorkerCodeCache();

/**
 * The code cache holds what V8 compiled while the bundle's modules ran their top-level code (building
 * zod's schemas among the rest); made by a fresh process, since V8 checks the flags it was made with.
 */
function writeWorkerCodeCache() {
  const make = `import { loadCompiled, writeCodeCache } from "./bin/code-cache.js"; const f = ${JSON.stringify(`${WORKER_DIR}/worker.cjs`)}; writeCodeCache(f, loadCompiled(f).script);`;
  const made = spawnSync(process.execPath, ["--input-type=module", "-e", make], { cwd: ROOT, stdio: "inherit" });
  if (made.status !== 0) throw new Error(`the worker's code cache was not made (exit ${String(made.status)})`);
}

// The browser app of `mesh web` (src/web/client/), with Cytoscape.js, as one file the server sends:
// nothing is fetched from a CDN, so the page works offline.
await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/web/client/app.ts"],
  outfile: `${ROOT}dist/web/app.js`,
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: true,
  legalComments: "linked",
});
