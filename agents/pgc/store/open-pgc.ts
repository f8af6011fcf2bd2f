// Build or load a scope's PGC. Unchanged files are never re-parsed: their stored extractions are
// reused by sha256; when nothing changed at all, the stored index is loaded as it is. A missing,
// stale or corrupt store is detected (checksums, versions) and rebuilt, never half-read.
import { mkdir } from "node:fs/promises";
import type { Logger } from "pino";
import type { ScopeExtraction } from "../overlays/index.js";
import type { Calibration, LexicalIndex } from "../retrieval/index.js";
import { normalizeScopePath, realRoot, scanScope, type ScannedFile } from "../scan/index.js";
import { CorruptStoreError, readBlob, sha256Hex } from "./blobs.js";
import { BLOB, buildScope } from "./build-scope.js";
import { defaultCacheRoot, scopeCacheDir } from "./cache-location.js";
import { readManifest, type StoreManifest } from "./manifest.js";
import { fromScopeBlob, type ScopeBlob } from "./scope-blob.js";
import { gitHead } from "./source-revision.js";
import { readStoredState, type StoredState } from "./stored-state.js";

export { CALIBRATION_REFIT_SHARE, type CalibrationDrift } from "./calibration-reuse.js";

export type BuildPhase = "scan" | "parse" | "link" | "index" | "calibrate" | "write" | "load";
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

/** Scope data kept in memory (the per-file extractions and import resolutions stay on disk for the next rebuild). */
export type ScopeData = Omit<ScopeExtraction, "extractions" | "importLinks">;

export interface OpenedPgc {
  data: ScopeData;
  index: LexicalIndex;
  calibration: Calibration;
  manifest: StoreManifest;
  /** How the index came to be: loaded untouched, or rebuilt re-parsing `reparsed` files on `threads` threads. */
  outcome: { mode: "loaded" | "built"; reparsed: number; reused: number; reason: string; threads?: number };
}


function indexRevision(files: readonly ScannedFile[], head: string | null): string {
  const listing = files.map((f) => `${f.path}\0${f.sha256}`).join("\n");
  return sha256Hex(`${listing}\n${head ?? ""}`).slice(0, 16);
}

/** Loads a current store; throws (CorruptStoreError) on any data file it cannot trust. */
async function loadStored(dir: string, manifest: StoreManifest, files: readonly ScannedFile[], state: StoredState): Promise<Pick<OpenedPgc, "data" | "index" | "calibration">> {
  const read = <T>(name: string) => readBlob<T>(dir, name, manifest.blobs[name] ?? "");
  const [blob, calibration] = await Promise.all([read<ScopeBlob>(BLOB.scope), read<Calibration>(BLOB.calibration)]);
  if (!state.index) throw new CorruptStoreError("the stored index is unusable");
  const extractions = files.map((file) => {
    const extraction = state.extractions.byFile.get(`${file.path}\0${file.sha256}`);
    if (!extraction) throw new CorruptStoreError(`the stored extractions lack ${file.path}`);
    return extraction;
  });
  return { data: fromScopeBlob(blob, extractions), index: state.index, calibration };
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
  const manifestRead = options.rebuild ? Promise.resolve(null) : readManifest(dir);
  // What both a load and a rebuild need of the store is read while the scope is scanned (never rejects).
  const stateRead = manifestRead.then((manifest) => readStoredState(dir, manifest, logger));
  const [scanned, head, manifest] = await Promise.all([scanScope({ root, scopePaths }), options.sourceRevision !== undefined ? options.sourceRevision : gitHead(root), manifestRead]);
  onProgress?.({ phase: "scan", done: 1, total: 1 });
  const revision = indexRevision(scanned.files, head);
  const state = await stateRead;
  if (manifest && manifest.index_revision === revision) {
    try {
      onProgress?.({ phase: "load", done: 0, total: 1 });
      const stored = await loadStored(dir, manifest, scanned.files, state);
      onProgress?.({ phase: "load", done: 1, total: 1 });
      return { ...stored, manifest, outcome: { mode: "loaded", reparsed: 0, reused: scanned.files.length, reason: "no file changed" } };
    } catch (error) {
      logger.warn({ err: error, dir }, "stored PGC is corrupt; rebuilding");
    }
  }
  const reason = options.rebuild ? "rebuild requested" : manifest ? "files changed since the last build" : "no usable stored index";
  return buildScope({
    scope: options.scope,
    root,
    scopePaths,
    dir,
    files: scanned.files,
    head,
    revision,
    manifest,
    stored: state,
    reason,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    started,
    logger,
    ...(onProgress ? { onProgress } : {}),
  });
}
