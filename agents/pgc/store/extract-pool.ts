// Extracts many files on worker threads. Each file's extraction is a pure function of its input and
// lands in its own slot, so the result is the same array, in the same order, as one thread gives.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ExtractFileInput, FileExtraction } from "../overlays/index.js";
import type { TokenizedDocs } from "../retrieval/index.js";
import type { ExtractRequest } from "./extract-worker.js";
import { BuildWorkerError, workerScript } from "./worker-script.js";

/** Below this much source, starting threads (each loads the wasm runtime and grammars) costs more than it saves. */
export const MIN_THREADED_BYTES = 2_000_000;
/** Never more threads than this, whatever the core count. */
export const MAX_EXTRACT_THREADS = 8;

/** A file's extraction and its documents tokenized for the index. */
export interface ThreadExtraction {
  extraction: FileExtraction;
  tokens: TokenizedDocs;
}

type Reply = ({ slot: number } & ThreadExtraction) | { slot: number; error: string };

/** Threads to use by default: one per core the process may use, at most MAX_EXTRACT_THREADS. */
export function defaultExtractThreads(): number {
  return Math.max(1, Math.min(MAX_EXTRACT_THREADS, availableParallelism()));
}

/** The compiled extraction worker, or null when it is not built. */
export const extractWorkerScript = (): string | null => workerScript("extract-worker.js");

/** Extracts and tokenizes `inputs` on `threads` worker threads; results in input order. */
export async function extractOnThreads(inputs: readonly ExtractFileInput[], threads: number, onDone?: (done: number) => void): Promise<ThreadExtraction[]> {
  const script = extractWorkerScript();
  if (!script) throw new BuildWorkerError("the extraction worker script is not built (npm run build)");
  const results = new Array<ThreadExtraction>(inputs.length);
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
          if ("error" in reply) return reject(new BuildWorkerError(`extracting ${inputs[reply.slot]?.path ?? "?"} failed: ${reply.error}`));
          results[reply.slot] = { extraction: reply.extraction, tokens: reply.tokens };
          done++; // not inside onDone?.(…): an absent callback would skip the increment too
          onDone?.(done);
          if (done === inputs.length) resolve();
          else feed(worker);
        });
        worker.on("error", (error) => reject(new BuildWorkerError("an extraction worker failed", { cause: error })));
        worker.on("exit", (code) => {
          if (done < inputs.length) reject(new BuildWorkerError(`an extraction worker exited with code ${code}`));
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
