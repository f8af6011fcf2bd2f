// Entry of the worker-only bundle (dist/bundle/worker/worker.cjs, scripts/build-bundle.mjs): `mesh worker`
// without the command registry, one CommonJS file that bin/mesh.js compiles with a V8 code cache.
import { run } from "./commands/worker.js";
import { settleExit } from "./settle-exit.js";

/** `mesh worker ARGV…`, ending as the whole CLI would. */
export function runWorker(argv: string[]): void {
  settleExit(run(argv));
}
