// The parse step of a build: reuse each unchanged file's stored extraction (same path and sha256) and
// extract the rest, on worker threads when there is enough of it to pay for starting them.
import type { FileExtraction } from "../overlays/index.js";
import type { TokenizedDocs } from "../retrieval/index.js";
import type { ScannedFile } from "../scan/index.js";
import { defaultExtractThreads, extractOnThreads, extractWorkerScript, MIN_THREADED_BYTES } from "./extract-pool.js";

export interface ExtractChangedOptions {
  /** Extractions of the last build by `${path}\0${sha256}`. */
  previous: ReadonlyMap<string, FileExtraction>;
  /** Worker threads for parsing; 1 parses on this thread. Default: one per core, once there are MIN_THREADED_BYTES to parse. */
  threads?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ExtractedFiles {
  extractions: FileExtraction[];
  /** Per extraction, its documents tokenized on a worker thread (absent when reused or parsed here). */
  tokens: (TokenizedDocs | undefined)[];
  reused: number;
  /** Threads that parsed (1 when on this thread). */
  threads: number;
}

const inputOf = (file: ScannedFile) => ({ path: file.path, content: file.content, language: file.language, sha256: file.sha256, bytes: file.bytes });

export async function extractChanged(files: readonly ScannedFile[], options: ExtractChangedOptions): Promise<ExtractedFiles> {
  const extractions = new Array<FileExtraction>(files.length);
  const tokens = new Array<TokenizedDocs | undefined>(files.length);
  const missing: number[] = [];
  files.forEach((file, i) => {
    const cached = options.previous.get(`${file.path}\0${file.sha256}`);
    if (cached) extractions[i] = cached;
    else missing.push(i);
  });
  const reused = files.length - missing.length;
  const bytes = missing.reduce((sum, i) => sum + (files[i]?.bytes ?? 0), 0);
  const threads = Math.min(options.threads ?? defaultExtractThreads(), missing.length);
  const worthIt = options.threads !== undefined || bytes >= MIN_THREADED_BYTES;
  const progress = (done: number) => options.onProgress?.(reused + done, files.length);
  if (threads > 1 && worthIt && extractWorkerScript() !== null) {
    const fresh = await extractOnThreads(missing.map((i) => inputOf(files[i] as ScannedFile)), threads, progress);
    missing.forEach((i, k) => {
      extractions[i] = fresh[k]?.extraction as FileExtraction;
      tokens[i] = fresh[k]?.tokens;
    });
    return { extractions, tokens, reused, threads };
  }
  const { extractFile } = await import("../overlays/index.js");
  for (const [k, i] of missing.entries()) {
    extractions[i] = await extractFile(inputOf(files[i] as ScannedFile));
    progress(k + 1);
  }
  return { extractions, tokens, reused, threads: 1 };
}
