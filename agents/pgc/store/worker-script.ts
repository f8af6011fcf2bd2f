// Finding a build worker's compiled script, and the error a failed worker raises.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export class BuildWorkerError extends Error {
  override readonly name = "BuildWorkerError";
  readonly code = "pgc_build_worker_failed";
  readonly retryable = false;
}

/**
 * The compiled worker script `file` of agents/pgc/store/: beside this module in dist/, or dist/'s copy
 * when this module runs from its TypeScript source (tests) or from the CLI bundle (dist/bundle/cli/,
 * three levels below the root). Null when it is not built.
 */
export function workerScript(file: string): string | null {
  const candidates = [new URL(`./${file}`, import.meta.url), new URL(`../../../dist/agents/pgc/store/${file}`, import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (!path.endsWith(".ts") && existsSync(path)) return path;
  }
  return null;
}
