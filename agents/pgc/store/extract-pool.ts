// Extracts many files on worker threads. Each file's extraction is a pure function of its input and
// lands in its own slot, so the result is the same array, in the same order, as one thread gives.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ExtractFileInput, FileExtraction } from "../overlays/index.js";
import type { ExtractRequest } from "./extract-worker.js";

/** Below this much source, starting threads (each loads the wasm runtime and grammars) costs more than it saves. */
export const MIN_THREADED_BYTES = 2_000_000;
/** Never more threads than this, whatever the core count. */
export const MAX_EXTRACT_THREADS = 8;

type Reply = { slot: number; extraction: FileExtraction } | { slot: number; error: string };

export class ExtractionWorkerError extends Error {
  override readonly name = "ExtractionWorkerError";
  readonly code = "pgc_extract_worker_failed";
  readonly retryable = false;
}

/** Threads to use by default: one per core the process may use, at most MAX_EXTRACT_THREADS. */
export function defaultExtractThreads(): number {
  return Math.max(1, Math.min(MAX_EXTRACT_THREADS, availableParallelism()));
}

/**
 * The compiled worker script: beside this module in dist/, or dist/'s copy when this module runs from
 * its TypeScript source (tests) or from the CLI bundle (dist/bundle/cli/, three levels below the root).
 */
export function extractWorkerScript(): string | null {
  const candidates = [new URL("./extract-worker.js", import.meta.url), new URL("../../../dist/agents/pgc/store/extract-worker.js", import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (!path.endsWith(".ts") && existsSync(path)) return path;
  }
  return null;
}

/** Extracts `inputs` on `threads` worker threads; results in input order. */
export async function extractOnThreads(inputs: readonly ExtractFileInput[], threads: number, onDone?: (done: number) => void): Promise<FileExtraction[]> {
  const script = extractWorkerScript();
  if (!script) throw new ExtractionWorkerError("the extraction worker script is not built (npm run build)");
  const results = new Array<FileExtraction>(inputs.length);
  const workers = Array.from({ length: Math.max(1, Math.min(threads, inputs.length)) }, () => new Worker(script));
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const feed = (worker: Worker): void => {
        if (next >= inputs.length) return;
        const slot = next++;
        worker.postMessage({ slot, input: inputs[slot] as ExtractFileInput } satisfies ExtractRequest);
      };
      for (const worker of workers) {
        worker.on("message", (reply: Reply) => {
          if ("error" in reply) return reject(new ExtractionWorkerError(`extracting ${inputs[reply.slot]?.path ?? "?"} failed: ${reply.error}`));
          results[reply.slot] = reply.extraction;
          onDone?.(++done);
          if (done === inputs.length) resolve();
          else feed(worker);
        });
        worker.on("error", (error) => reject(new ExtractionWorkerError("an extraction worker failed", { cause: error })));
        worker.on("exit", (code) => {
          if (done < inputs.length) reject(new ExtractionWorkerError(`an extraction worker exited with code ${code}`));
        });
        // Two files in flight per thread, so a thread never waits for the main thread between files.
        feed(worker);
        feed(worker);
      }
      if (inputs.length === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}
