// The build half of openPgc: from scanned files to a stored PGC, reusing what the last build left that
// still holds: extractions of unchanged files, their import resolutions, the index's tokenized documents,
// the calibration; and writing only the extraction shards whose files changed.
import type { Logger } from "pino";
import type { FileExtraction } from "../overlays/index.js";
import { LexicalIndex, type TokenizedBatch, type TokenizedDocs } from "../retrieval/index.js";
import type { ScannedFile } from "../scan/index.js";
import { writeBlob } from "./blobs.js";
import { CALIBRATION_BLOB, calibrationFor } from "./calibration-reuse.js";
import { extractChanged } from "./extract-changed.js";
import { defaultExtractThreads } from "./extract-pool.js";
import { fitCalibrationOnThread } from "./fit-on-thread.js";
import { writeExtractionShards } from "./extraction-shards.js";
import { toScopeBlob } from "./scope-blob.js";
import { IMPORT_LINKS_BLOB, INDEX_BLOB, type StoredState } from "./stored-state.js";
import { MANIFEST_FORMAT, STORE_VERSION, writeManifest, type StoreManifest } from "./manifest.js";
import type { OpenedPgc, ProgressListener, ScopeData } from "./open-pgc.js";

export const BLOB = { scope: "scope.msgpack", index: INDEX_BLOB, importLinks: IMPORT_LINKS_BLOB, calibration: CALIBRATION_BLOB } as const;

export interface BuildContext {
  scope: string;
  root: string;
  scopePaths: string[];
  dir: string;
  files: readonly ScannedFile[];
  head: string | null;
  revision: string;
  /** The last build's manifest; null for a cold build. */
  manifest: StoreManifest | null;
  /** What the last build left that may be reused. */
  stored: StoredState;
  reason: string;
  threads?: number;
  started: number;
  logger: Logger;
  onProgress?: ProgressListener;
}

export async function buildScope(context: BuildContext): Promise<OpenedPgc> {
  const { dir, manifest, onProgress } = context;
  // The extraction code (tree-sitter grammars, overlay builders) is loaded only when something must be
  // built: a worker whose stored index is still valid starts without it.
  const { linkScope, readGitHistory } = await import("../overlays/index.js");
  const { extractions: stored, importLinks: previousLinks, index: previousIndex } = context.stored;
  const { extractions, tokens, reused, threads } = await extractChanged(context.files, {
    previous: stored.byFile,
    ...(context.threads !== undefined ? { threads: context.threads } : {}),
    onProgress: (done, total) => onProgress?.({ phase: "parse", done, total }),
  });
  onProgress?.({ phase: "link", done: 0, total: 1 });
  const history = await readGitHistory({ root: context.root, scopePaths: context.scopePaths });
  const { extractions: _kept, importLinks, ...data } = await linkScope({ root: context.root, extractions, history, previousImportLinks: previousLinks });
  onProgress?.({ phase: "index", done: 0, total: 1 });
  const index = LexicalIndex.build(data.docs, previousIndex ?? undefined, tokenizedBatches(extractions, tokens));
  onProgress?.({ phase: "calibrate", done: 0, total: 1 });
  // A fit on a worker thread runs while this thread writes the other data files.
  const threadsAsked = { count: context.threads ?? defaultExtractThreads(), explicit: context.threads !== undefined };
  const calibrating = calibrationFor(dir, manifest, context.revision, context.files, index, () => fitCalibrationOnThread(index, data.docs, threadsAsked), context.logger);
  calibrating.catch(() => undefined); // awaited below; a failure while writing must not go unhandled
  onProgress?.({ phase: "write", done: 0, total: 1 });
  const written = {
    ...(await writeExtractionShards(dir, extractions, { manifest, intact: stored.intact })),
    [BLOB.importLinks]: await writeBlob(dir, BLOB.importLinks, importLinks),
    [BLOB.scope]: await writeBlob(dir, BLOB.scope, toScopeBlob(data, extractions)),
    [BLOB.index]: await writeBlob(dir, BLOB.index, index.toStored()),
  };
  const { calibration, drift } = await calibrating;
  const blobs = { ...written, [BLOB.calibration]: await writeBlob(dir, BLOB.calibration, calibration) };
  const manifestWritten = manifestOf(context, data, { kind: calibration.kind, ...calibration.report, ...drift }, blobs);
  await writeManifest(dir, manifestWritten);
  const reparsed = context.files.length - reused;
  context.logger.info({ scope: context.scope, files: context.files.length, reparsed, ms: manifestWritten.build_ms }, "PGC built");
  return { data, index, calibration, manifest: manifestWritten, outcome: { mode: "built", reparsed, reused, reason: context.reason, threads } };
}

/** Where each file's documents tokenized on a thread start in `data.docs` (files' documents come first, in file order). */
function tokenizedBatches(extractions: readonly FileExtraction[], tokens: readonly (TokenizedDocs | undefined)[]): TokenizedBatch[] {
  const batches: TokenizedBatch[] = [];
  let first = 0;
  extractions.forEach((extraction, i) => {
    const batch = tokens[i];
    if (batch) batches.push({ first, batch });
    first += extraction.docs.length;
  });
  return batches;
}

function manifestOf(context: BuildContext, data: ScopeData, calibration: Record<string, unknown>, blobs: Record<string, string>): StoreManifest {
  return {
    format: MANIFEST_FORMAT,
    version: STORE_VERSION,
    scope: context.scope,
    root: context.root,
    scope_paths: context.scopePaths,
    source_revision: context.head,
    index_revision: context.revision,
    files: Object.fromEntries(context.files.map((f) => [f.path, f.sha256])),
    stats: { ...data.stats },
    calibration,
    built_at: new Date().toISOString(),
    build_ms: Math.round(performance.now() - context.started),
    blobs,
  };
}
