#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run automatically by `npm ci`), which
// also bundles it into dist/bundle/cli/ (scripts/build-bundle.mjs); the bundle starts faster, so it is
// preferred, and the plain tsc output is the fallback. `mesh worker`, started once per scope of a fleet,
// runs its own bundle (dist/bundle/worker/) from a V8 code cache when there is one.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const workerBundle = fileURLToPath(new URL("../dist/bundle/worker/worker.cjs", import.meta.url));
if (process.argv[2] === "worker" && existsSync(workerBundle)) {
  const { loadCompiled } = await import("./code-cache.js");
  loadCompiled(workerBundle).exports.runWorker(process.argv.slice(3));
} else {
  const bundled = new URL("../dist/bundle/cli/main.js", import.meta.url);
  const compiled = new URL("../dist/src/cli/main.js", import.meta.url);
  const entry = [bundled, compiled].find((url) => existsSync(fileURLToPath(url)));
  if (!entry) {
    process.stderr.write("mesh: the compiled CLI is missing (dist/). Run `npm run build` in the project root.\n");
    process.exit(70);
  }
  await import(entry.href);
}
