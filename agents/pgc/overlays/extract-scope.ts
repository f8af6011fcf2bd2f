// Builds a scope's whole extraction: scan, per-file extraction, git history, then the cross-file overlays.
import { z } from "zod";
import { normalizeScopePath, realRoot } from "../scan/resolve-inside-scope.js";
import { scanScope, type ScanStats } from "../scan/walk-scope.js";
import { extractFile, type FileExtraction } from "./extract-file.js";
import { readGitHistory } from "./git-history.js";
import { linkScope, type ScopeExtraction } from "./link-scope.js";

/** The slice of a pino logger extraction uses; injected, never created here. */
export interface ExtractLogger {
  debug(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

const ExtractScopeOptionsSchema = z.object({
  root: z.string().min(1),
  scopePaths: z.array(z.string()).optional(),
  gitHistory: z.boolean().default(true),
  maxFileBytes: z.number().int().positive().optional(),
  includeDirs: z.array(z.string()).optional(),
  logger: z.custom<ExtractLogger>((value) => typeof value === "object" && value !== null).optional(),
});

export type ExtractScopeOptions = z.input<typeof ExtractScopeOptionsSchema>;

export interface ScopeExtractionResult extends ScopeExtraction {
  scan: ScanStats;
  timings_ms: { scan: number; extract: number; git: number; link: number; total: number };
}

const elapsedSince = (start: number): number => Math.round(performance.now() - start);

export async function extractScope(options: ExtractScopeOptions): Promise<ScopeExtractionResult> {
  const parsedOptions = ExtractScopeOptionsSchema.parse(options);
  const { logger, gitHistory } = parsedOptions;
  const started = performance.now();
  const root = await realRoot(parsedOptions.root);
  const scopePaths = (parsedOptions.scopePaths ?? []).map(normalizeScopePath);
  const scanned = await scanScope({ root, scopePaths, ...(parsedOptions.maxFileBytes ? { maxFileBytes: parsedOptions.maxFileBytes } : {}) });
  const scanMs = elapsedSince(started);
  // git runs in its own process, so it overlaps with parsing.
  const gitStarted = performance.now();
  const historyPromise = gitHistory ? readGitHistory({ root, scopePaths }).then((history) => ({ history, ms: elapsedSince(gitStarted) })) : null;
  const extractStarted = performance.now();
  const extractions: FileExtraction[] = [];
  for (const file of scanned.files) {
    extractions.push(await extractFile({ path: file.path, content: file.content, language: file.language, sha256: file.sha256, bytes: file.bytes }));
  }
  const extractMs = elapsedSince(extractStarted);
  const git = historyPromise ? await historyPromise : { history: null, ms: 0 };
  if (gitHistory && !git.history) logger?.debug({ root }, "no git history for this scope");
  const linkStarted = performance.now();
  const linked = await linkScope({ root, extractions, history: git.history, ...(parsedOptions.includeDirs ? { includeDirs: parsedOptions.includeDirs } : {}) });
  const timings = { scan: scanMs, extract: extractMs, git: git.ms, link: elapsedSince(linkStarted), total: elapsedSince(started) };
  logger?.debug({ root, files: linked.stats.files, docs: linked.docs.length, timings_ms: timings }, "scope extracted");
  return { ...linked, scan: scanned.stats, timings_ms: timings };
}
