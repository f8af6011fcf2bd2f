// Build or load a scope's PGC. Unchanged files are never re-parsed: their stored extractions are
// reused by sha256; when nothing changed at all, the stored index is loaded as it is. A missing,
// stale or corrupt store is detected (checksums, versions) and rebuilt, never half-read.
import { mkdir } from "node:fs/promises";
import type { Logger } from "pino";
import type { FileExtraction, ScopeExtraction } from "../overlays/index.js";
import { fitCalibration, indexSignature, LexicalIndex, type Calibration, type LexicalIndexJSON } from "../retrieval/index.js";
import { normalizeScopePath, realRoot, scanScope, type ScannedFile } from "../scan/index.js";
import { readBlob, sha256Hex, writeBlob } from "./blobs.js";
import { defaultCacheRoot, scopeCacheDir } from "./cache-location.js";
import { readManifest, STORE_VERSION, MANIFEST_FORMAT, writeManifest, type StoreManifest } from "./manifest.js";
import { extractChanged } from "./extract-changed.js";
import { gitHead } from "./source-revision.js";

export type BuildPhase = "scan" | "parse" | "link" | "index" | "calibrate" | "load";
export type ProgressListener = (event: { phase: BuildPhase; done: number; total: number }) => void;

export interface OpenPgcOptions {
  scope: string;
  root: string;
  scopePaths?: readonly string[];
  cacheRoot?: string;
  /** Ignore any stored index and rebuild from source. */
  rebuild?: boolean;
  /** The root's git HEAD when the caller already knows it (one `git rev-parse` for many scopes). */
  sourceRevision?: string | null;
  /** Worker threads that parse a build's changed files; 1 parses on the calling thread. Default: one per core. */
  threads?: number;
  logger: Logger;
  onProgress?: ProgressListener;
}

/** Scope data kept in memory (the per-file extractions stay on disk for the next rebuild). */
export type ScopeData = Omit<ScopeExtraction, "extractions">;

export interface OpenedPgc {
  data: ScopeData;
  index: LexicalIndex;
  calibration: Calibration;
  manifest: StoreManifest;
  /** How the index came to be: loaded untouched, or rebuilt re-parsing `reparsed` files on `threads` threads. */
  outcome: { mode: "loaded" | "built"; reparsed: number; reused: number; reason: string; threads?: number };
}

const BLOB = { extractions: "extractions.msgpack", scope: "scope.msgpack", index: "index.msgpack", calibration: "calibration.json" } as const;

function indexRevision(files: readonly ScannedFile[], head: string | null): string {
  const listing = files.map((f) => `${f.path}\0${f.sha256}`).join("\n");
  return sha256Hex(`${listing}\n${head ?? ""}`).slice(0, 16);
}

async function loadStored(dir: string, manifest: StoreManifest): Promise<Pick<OpenedPgc, "data" | "index" | "calibration">> {
  const data = await readBlob<ScopeData>(dir, BLOB.scope, manifest.blobs[BLOB.scope] ?? "");
  const index = LexicalIndex.fromJSON(await readBlob<LexicalIndexJSON>(dir, BLOB.index, manifest.blobs[BLOB.index] ?? ""));
  const calibration = await readBlob<Calibration>(dir, BLOB.calibration, manifest.blobs[BLOB.calibration] ?? "");
  return { data, index, calibration };
}

async function previousExtractions(dir: string, manifest: StoreManifest | null, logger: Logger): Promise<Map<string, FileExtraction>> {
  if (!manifest) return new Map();
  try {
    const stored = await readBlob<FileExtraction[]>(dir, BLOB.extractions, manifest.blobs[BLOB.extractions] ?? "");
    return new Map(stored.map((e) => [`${e.file.path}\0${e.file.sha256}`, e]));
  } catch (error) {
    logger.warn({ err: error }, "stored extractions unusable; re-parsing every file");
    return new Map();
  }
}

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

async function calibrationFor(
  dir: string,
  manifest: StoreManifest | null,
  revision: string,
  files: readonly { path: string; sha256: string }[],
  index: LexicalIndex,
  docs: Parameters<typeof fitCalibration>[1],
  logger: Logger,
): Promise<{ calibration: Calibration; drift: CalibrationDrift }> {
  const fresh = (): { calibration: Calibration; drift: CalibrationDrift } => ({ calibration: fitCalibration(index, docs), drift: { drift_files: 0, fitted_on: revision, reused: false } });
  const fittedOn = manifest?.calibration["fitted_on"];
  if (!manifest || manifest.blobs[BLOB.calibration] === undefined) return fresh();
  const before = new Map(Object.entries(manifest.files));
  let changed = files.filter((f) => before.get(f.path) !== f.sha256).length;
  const now = new Set(files.map((f) => f.path));
  changed += [...before.keys()].filter((path) => !now.has(path)).length;
  const drift = (typeof manifest.calibration["drift_files"] === "number" ? (manifest.calibration["drift_files"] as number) : 0) + changed;
  let stored: Calibration;
  try {
    stored = await readBlob<Calibration>(dir, BLOB.calibration, manifest.blobs[BLOB.calibration] ?? "");
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

export interface StoredPgcCheck {
  /** The revision the scope's files (and the root's git HEAD) have now. */
  index_revision: string;
  /** True when the stored index was built from exactly these files: opening it would only load it. */
  current: boolean;
}

/**
 * Whether a scope's stored index is current, without loading it: scan, hash and compare with the stored
 * manifest. `mesh up` checks every scope this way; a worker still verifies its blobs when it opens them.
 */
export async function checkStoredPgc(options: Omit<OpenPgcOptions, "logger" | "onProgress" | "rebuild">): Promise<StoredPgcCheck> {
  const root = await realRoot(options.root);
  const scopePaths = (options.scopePaths ?? []).map(normalizeScopePath);
  const dir = scopeCacheDir(options.cacheRoot ?? defaultCacheRoot(), options.scope, root, scopePaths);
  const [scanned, head] = await Promise.all([scanScope({ root, scopePaths }), options.sourceRevision !== undefined ? options.sourceRevision : gitHead(root)]);
  const revision = indexRevision(scanned.files, head);
  const manifest = await readManifest(dir);
  return { index_revision: revision, current: manifest !== null && manifest.index_revision === revision };
}

export async function openPgc(options: OpenPgcOptions): Promise<OpenedPgc> {
  const started = performance.now();
  const { logger, onProgress } = options;
  const root = await realRoot(options.root);
  const scopePaths = (options.scopePaths ?? []).map(normalizeScopePath);
  const dir = scopeCacheDir(options.cacheRoot ?? defaultCacheRoot(), options.scope, root, scopePaths);
  await mkdir(dir, { recursive: true });
  onProgress?.({ phase: "scan", done: 0, total: 1 });
  const [scanned, head] = await Promise.all([scanScope({ root, scopePaths }), options.sourceRevision !== undefined ? options.sourceRevision : gitHead(root)]);
  onProgress?.({ phase: "scan", done: 1, total: 1 });
  const revision = indexRevision(scanned.files, head);
  const manifest = options.rebuild ? null : await readManifest(dir);
  if (manifest && manifest.index_revision === revision) {
    try {
      onProgress?.({ phase: "load", done: 0, total: 1 });
      const stored = await loadStored(dir, manifest);
      onProgress?.({ phase: "load", done: 1, total: 1 });
      return { ...stored, manifest, outcome: { mode: "loaded", reparsed: 0, reused: scanned.files.length, reason: "no file changed" } };
    } catch (error) {
      logger.warn({ err: error, dir }, "stored PGC is corrupt; rebuilding");
    }
  }
  // The extraction code (tree-sitter grammars, overlay builders) is loaded only when something must be
  // parsed: a worker whose stored index is still valid starts without it.
  const { linkScope, readGitHistory } = await import("../overlays/index.js");
  const reason = options.rebuild ? "rebuild requested" : manifest ? "files changed since the last build" : "no usable stored index";
  const previous = await previousExtractions(dir, manifest, logger);
  const { extractions, reused, threads } = await extractChanged(scanned.files, {
    previous,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    onProgress: (done, total) => onProgress?.({ phase: "parse", done, total }),
  });
  onProgress?.({ phase: "link", done: 0, total: 1 });
  const history = await readGitHistory({ root, scopePaths });
  const { extractions: _kept, ...data } = await linkScope({ root, extractions, history });
  onProgress?.({ phase: "index", done: 0, total: 1 });
  const index = LexicalIndex.build(data.docs);
  onProgress?.({ phase: "calibrate", done: 0, total: 1 });
  const { calibration, drift } = await calibrationFor(dir, manifest, revision, scanned.files, index, data.docs, logger);
  const blobs = {
    [BLOB.extractions]: await writeBlob(dir, BLOB.extractions, extractions),
    [BLOB.scope]: await writeBlob(dir, BLOB.scope, data),
    [BLOB.index]: await writeBlob(dir, BLOB.index, index.toJSON()),
    [BLOB.calibration]: await writeBlob(dir, BLOB.calibration, calibration),
  };
  const written: StoreManifest = {
    format: MANIFEST_FORMAT,
    version: STORE_VERSION,
    scope: options.scope,
    root,
    scope_paths: scopePaths,
    source_revision: head,
    index_revision: revision,
    files: Object.fromEntries(scanned.files.map((f) => [f.path, f.sha256])),
    stats: { ...data.stats },
    calibration: { kind: calibration.kind, ...calibration.report, ...drift },
    built_at: new Date().toISOString(),
    build_ms: Math.round(performance.now() - started),
    blobs,
  };
  await writeManifest(dir, written);
  logger.info({ scope: options.scope, files: scanned.files.length, reparsed: scanned.files.length - reused, ms: written.build_ms }, "PGC built");
  return { data, index, calibration, manifest: written, outcome: { mode: "built", reparsed: scanned.files.length - reused, reused, reason, threads } };
}
