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
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT_DIR = `${ROOT}dist/bundle/cli`;

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
  external: ["zeromq", "msgpackr-extract", "web-tree-sitter", "@repomix/tree-sitter-wasms"],
  // CommonJS dependencies (pino) call require() on Node built-ins; an ES module has no require.
  banner: { js: "import { createRequire as __meshCreateRequire } from 'node:module'; const require = __meshCreateRequire(import.meta.url);" },
  logLevel: "warning",
});
