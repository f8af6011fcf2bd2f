// Fits a calibration on a worker thread, so a cold build writes its data files meanwhile. Only the
// documents the fit reads (O1 documents with a name and a doc comment, in order) are sent: the fit's
// queries come from those alone, so the result is the one fitCalibration gives on this thread.
import { Worker } from "node:worker_threads";
import { fitCalibration, isSummaryCandidate, type Calibration, type LexicalIndex } from "../retrieval/index.js";
import type { IndexDoc } from "../types.js";
import type { CalibrationRequest } from "./calibration-worker.js";
import { BuildWorkerError, workerScript } from "./worker-script.js";

/** Below this many documents a fit is quick, and starting a thread costs more than it overlaps. */
export const MIN_THREADED_CALIBRATION_DOCS = 20_000;

function fitOnWorker(script: string, request: CalibrationRequest): Promise<Calibration> {
  const worker = new Worker(script);
  return new Promise<Calibration>((resolve, reject) => {
    worker.once("message", (reply: { calibration: Calibration } | { error: string }) => {
      if ("error" in reply) reject(new BuildWorkerError(`the calibration fit failed: ${reply.error}`));
      else resolve(reply.calibration);
    });
    worker.once("error", (error) => reject(new BuildWorkerError("the calibration worker failed", { cause: error })));
    worker.once("exit", (code) => reject(new BuildWorkerError(`the calibration worker exited with code ${code}`)));
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}

/**
 * fitCalibration, on a worker thread when `threads` > 1 and the scope is large (or `threads` was asked
 * for explicitly); otherwise here, and the promise is already settled when returned.
 */
export function fitCalibrationOnThread(index: LexicalIndex, docs: readonly IndexDoc[], threads: { count: number; explicit: boolean }): Promise<Calibration> {
  const script = threads.count > 1 && (threads.explicit || index.docCount >= MIN_THREADED_CALIBRATION_DOCS) ? workerScript("calibration-worker.js") : null;
  if (!script) return Promise.resolve(fitCalibration(index, docs));
  const read = docs.filter(isSummaryCandidate);
  return fitOnWorker(script, { index: index.toStored(), docs: read });
}
