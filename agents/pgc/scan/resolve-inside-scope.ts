// Scope safety: every path a scope hands out or accepts is checked to stay under the scope root.
import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { ScopeNotFoundError, ScopeViolationError } from "./scan-errors.js";

/** True when `candidate` (already a real path) is `root` itself or lies below it. */
export function isInsideRoot(rootReal: string, candidate: string): boolean {
  return candidate === rootReal || candidate.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

/** The real path of a scope root; a missing root is a ScopeNotFoundError. */
export async function realRoot(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch (cause) {
    throw new ScopeNotFoundError(root, { cause });
  }
}

/** Normalises a scope-relative path to POSIX form, refusing absolute paths and `..` escapes. */
export function normalizeScopePath(relPath: string): string {
  if (typeof relPath !== "string" || relPath.includes("\0")) {
    throw new ScopeViolationError(String(relPath), "not a valid path");
  }
  const posix = relPath.replaceAll("\\", "/");
  if (path.posix.isAbsolute(posix) || path.win32.isAbsolute(relPath)) {
    throw new ScopeViolationError(relPath, "absolute paths are not accepted");
  }
  const normalized = path.posix.normalize(posix === "" ? "." : posix);
  if (normalized === ".." || normalized.startsWith("../")) {
    throw new ScopeViolationError(relPath, "`..` leaves the scope root");
  }
  return normalized.replace(/\/$/, "");
}

/**
 * Resolves `relPath` under `root` and returns its real absolute path. Refuses `..` escapes, absolute paths
 * and symlinks (anywhere on the path) whose target lies outside the root. A path that does not exist yet is
 * accepted when its nearest existing ancestor is inside the root.
 */
export async function resolveInsideScope(root: string, relPath: string): Promise<string> {
  const normalized = normalizeScopePath(relPath);
  const rootReal = await realRoot(root);
  const candidate = path.resolve(rootReal, normalized);
  const real = await realpathOfNearestExisting(candidate);
  if (!isInsideRoot(rootReal, real.existing)) {
    throw new ScopeViolationError(relPath, "a symlink on the path points outside the scope root");
  }
  return real.existing + real.missingTail;
}

/** Real path of the deepest existing ancestor of `candidate`, plus the part of the path that does not exist. */
async function realpathOfNearestExisting(candidate: string): Promise<{ existing: string; missingTail: string }> {
  let current = candidate;
  let tail = "";
  for (;;) {
    try {
      return { existing: await realpath(current), missingTail: tail };
    } catch (error) {
      const parent = path.dirname(current);
      if (!isMissing(error) || parent === current) throw error;
      tail = path.sep + path.basename(current) + tail;
      current = parent;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * The synchronous form for an existing file, for hot paths that cannot afford a thread-pool round trip
 * per check: the real path of `relPath` under `rootReal` (itself a real path), or null when it does not
 * exist. Refuses the same escapes as resolveInsideScope.
 */
export function resolveExistingInsideRootSync(rootReal: string, relPath: string): string | null {
  const candidate = path.resolve(rootReal, normalizeScopePath(relPath));
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  if (!isInsideRoot(rootReal, real)) throw new ScopeViolationError(relPath, "a symlink on the path points outside the scope root");
  return real;
}
