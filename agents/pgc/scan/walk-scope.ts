// Walks a scope (a root plus optional scope paths) and reads every indexable file in it.
import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_MAX_FILE_BYTES, readScopeFile, type ScannedFile } from "./read-scope-file.js";
import { isInsideRoot, normalizeScopePath, realRoot, resolveInsideScope } from "./resolve-inside-scope.js";
import { ScopeNotFoundError } from "./scan-errors.js";

/** Directories that hold tooling state, dependencies or build output rather than the scope's own code. */
export const SKIPPED_DIRECTORY_NAMES: ReadonlySet<string> = new Set([
  ".git", ".hg", ".svn", "node_modules", "dist", "build", "__pycache__", ".venv", ".tox", ".mesh", "coverage",
]);
/** Files read at once; bounded so a huge scope does not exhaust file descriptors. */
const READ_CONCURRENCY = 16;

export interface ScanOptions {
  root: string;
  /** Root-relative directories or files; empty or absent means the whole root. */
  scopePaths?: readonly string[];
  maxFileBytes?: number;
}

export interface ScanStats {
  skipped_binary: number;
  skipped_too_large: number;
  skipped_symlinks: number;
  skipped_directories: number;
}

export interface ScanResult {
  rootReal: string;
  files: ScannedFile[];
  stats: ScanStats;
}

interface WalkState {
  rootReal: string;
  found: Set<string>;
  stats: ScanStats;
}

/** Scans the scope; files are returned sorted by path. Symlinks never lead out of the root. */
export async function scanScope(options: ScanOptions): Promise<ScanResult> {
  const rootReal = await realRoot(options.root);
  const state: WalkState = { rootReal, found: new Set(), stats: emptyStats() };
  const starts = options.scopePaths && options.scopePaths.length > 0 ? options.scopePaths : ["."];
  for (const start of starts) await visitStart(state, normalizeScopePath(start));
  const files = await readAll(rootReal, [...state.found].sort(), options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, state.stats);
  return { rootReal, files, stats: state.stats };
}

function emptyStats(): ScanStats {
  return { skipped_binary: 0, skipped_too_large: 0, skipped_symlinks: 0, skipped_directories: 0 };
}

async function visitStart(state: WalkState, relPath: string): Promise<void> {
  const absolute = await resolveInsideScope(state.rootReal, relPath);
  const info = await stat(absolute).catch((cause: unknown) => {
    throw new ScopeNotFoundError(relPath, { cause });
  });
  if (info.isDirectory()) await walkDirectory(state, relPath === "." ? "" : relPath);
  else if (info.isFile()) state.found.add(relPath);
}

async function walkDirectory(state: WalkState, relDir: string): Promise<void> {
  const entries: Dirent[] = await readdir(path.join(state.rootReal, relDir), { withFileTypes: true });
  for (const entry of entries) {
    const relPath = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORY_NAMES.has(entry.name)) state.stats.skipped_directories++;
      else await walkDirectory(state, relPath);
    } else if (entry.isFile()) {
      state.found.add(relPath);
    } else if (entry.isSymbolicLink()) {
      if (await isFileLinkInsideRoot(state.rootReal, relPath)) state.found.add(relPath);
      else state.stats.skipped_symlinks++;
    }
  }
}

/** Symlinked files are kept only when their target is inside the root; symlinked directories never (no cycles). */
async function isFileLinkInsideRoot(rootReal: string, relPath: string): Promise<boolean> {
  try {
    const target = await realpath(path.join(rootReal, relPath));
    return isInsideRoot(rootReal, target) && (await lstat(target)).isFile();
  } catch {
    return false;
  }
}

async function readAll(rootReal: string, relPaths: string[], maxBytes: number, stats: ScanStats): Promise<ScannedFile[]> {
  const files: ScannedFile[] = [];
  for (let offset = 0; offset < relPaths.length; offset += READ_CONCURRENCY) {
    const batch = relPaths.slice(offset, offset + READ_CONCURRENCY);
    const outcomes = await Promise.all(batch.map((rel) => readScopeFile(path.join(rootReal, rel), rel, maxBytes)));
    for (const outcome of outcomes) {
      if (outcome.kind === "file") files.push(outcome.file);
      else if (outcome.kind === "binary") stats.skipped_binary++;
      else stats.skipped_too_large++;
    }
  }
  return files;
}
