// Whether a rebuild may keep the stored calibration: a statistical fit over the whole scope that a few
// changed files barely move (PGC.md, "Storage").
import type { Logger } from "pino";
import { indexSignature, type Calibration, type LexicalIndex } from "../retrieval/index.js";
import { readBlob } from "./blobs.js";
import type { StoreManifest } from "./manifest.js";

export const CALIBRATION_BLOB = "calibration.json";

/**
 * The calibration is a statistical fit over the whole scope (about half of a cold build); a few changed
 * files barely move it. A rebuild therefore keeps the stored fit while the files changed since it was made
 * (added, removed or edited, summed over rebuilds) stay within CALIBRATION_REFIT_SHARE of the scope's
 * files, and the document count within the same share of the fitted one; past that it refits. Rankings
 * do not depend on it (only the similarity reported beside each hit does).
 */
export const CALIBRATION_REFIT_SHARE = 0.05;

export interface CalibrationDrift {
  /** Files changed since the calibration was fitted. */
  drift_files: number;
  /** The index revision the calibration was fitted on. */
  fitted_on: string;
  /** True when this build kept the stored fit. */
  reused: boolean;
}

/** `fit` makes a new calibration (perhaps on another thread); it is called only when the stored one cannot be kept. */
export async function calibrationFor(
  dir: string,
  manifest: StoreManifest | null,
  revision: string,
  files: readonly { path: string; sha256: string }[],
  index: LexicalIndex,
  fit: () => Promise<Calibration>,
  logger: Logger,
): Promise<{ calibration: Calibration; drift: CalibrationDrift }> {
  const fresh = async (): Promise<{ calibration: Calibration; drift: CalibrationDrift }> => ({ calibration: await fit(), drift: { drift_files: 0, fitted_on: revision, reused: false } });
  const fittedOn = manifest?.calibration["fitted_on"];
  if (!manifest || manifest.blobs[CALIBRATION_BLOB] === undefined) return fresh();
  const before = new Map(Object.entries(manifest.files));
  let changed = files.filter((f) => before.get(f.path) !== f.sha256).length;
  const now = new Set(files.map((f) => f.path));
  changed += [...before.keys()].filter((path) => !now.has(path)).length;
  const drift = (typeof manifest.calibration["drift_files"] === "number" ? (manifest.calibration["drift_files"] as number) : 0) + changed;
  let stored: Calibration;
  try {
    stored = await readBlob<Calibration>(dir, CALIBRATION_BLOB, manifest.blobs[CALIBRATION_BLOB] ?? "");
  } catch (error) {
    logger.warn({ err: error }, "stored calibration unusable; refitting");
    return fresh();
  }
  const docDrift = Math.abs(index.docCount - stored.index_signature.doc_count);
  if (drift > Math.max(1, CALIBRATION_REFIT_SHARE * files.length) || docDrift > CALIBRATION_REFIT_SHARE * Math.max(1, stored.index_signature.doc_count)) {
    return fresh();
  }
  const calibration: Calibration = { ...stored, index_signature: indexSignature(index) };
  return { calibration, drift: { drift_files: drift, fitted_on: typeof fittedOn === "string" && fittedOn !== "" ? fittedOn : manifest.index_revision, reused: true } };
}

