// Worker-thread side of a calibration fit: the build fits its calibration here while the main thread
// writes the data files. The fit is a pure function of the index and documents it is sent.
import { parentPort } from "node:worker_threads";
import { fitCalibration, LexicalIndex, type StoredLexicalIndex } from "../retrieval/index.js";
import type { IndexDoc } from "../types.js";

export interface CalibrationRequest {
  index: StoredLexicalIndex;
  docs: IndexDoc[];
}

const port = parentPort;
if (port) {
  port.once("message", (request: CalibrationRequest) => {
    try {
      port.postMessage({ calibration: fitCalibration(LexicalIndex.fromJSON(request.index), request.docs) });
    } catch (error) {
      port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
}
