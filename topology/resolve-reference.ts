// Resolution rules that turn one code reference into the scope(s) that own its target; see docs/TOPOLOGY.md.
import { posix } from "node:path";
import { compareText } from "./scope-graph.js";

/** Include roots tried when an include is written relative to one, e.g. `linux/dma.h` → `include/linux/dma.h`. */
export const DEFAULT_INCLUDE_ROOTS: readonly string[] = Object.freeze(["include/"]);

export type Resolution =
  | { status: "resolved"; scopes: readonly string[]; resolvedAs: string }
  | { status: "missing"; reason: "undefined_symbol" | "no_owner" | "escapes_root"; detail: string; tried: readonly string[] };

/** Symbol name → the scopes that define it (sorted). */
export function indexSymbols(scopes: ReadonlyArray<{ scope: string; symbols: readonly string[] }>): Map<string, string[]> {
  const index = new Map<string, Set<string>>();
  for (const { scope, symbols } of scopes) {
    for (const symbol of symbols) {
      let owners = index.get(symbol);
      if (owners === undefined) index.set(symbol, (owners = new Set()));
      owners.add(scope);
    }
  }
  return new Map([...index].map(([symbol, owners]) => [symbol, [...owners].sort(compareText)]));
}

export function resolveCall(symbols: ReadonlyMap<string, readonly string[]>, target: string): Resolution {
  const owners = symbols.get(target);
  if (owners === undefined || owners.length === 0) {
    return { status: "missing", reason: "undefined_symbol", detail: `no scope defines "${target}"`, tried: [target] };
  }
  return { status: "resolved", scopes: owners, resolvedAs: target };
}

/** Path prefix → owning scopes; lookups walk up the path's ancestors, so the longest prefix wins. */
export class PathOwners {
  private readonly byPrefix = new Map<string, Set<string>>();

  add(scope: string, prefix: string): void {
    // "drivers/net/" and "drivers/net" are the same prefix: it owns itself and everything below it.
    const key = normalizePath(prefix);
    let owners = this.byPrefix.get(key);
    if (owners === undefined) this.byPrefix.set(key, (owners = new Set()));
    owners.add(scope);
  }

  /** Owners of the longest non-empty prefix covering `path`; empty when only a catch-all ("") prefix covers it. */
  specific(path: string): string[] {
    for (let current = path; current !== "" && current !== "." && current !== "/"; current = posix.dirname(current)) {
      const owners = this.byPrefix.get(current);
      if (owners !== undefined) return [...owners].sort(compareText);
    }
    return [];
  }

  /** Scopes that declared the catch-all prefix "" (or "." or "./"). */
  catchAll(): string[] {
    return [...(this.byPrefix.get("") ?? [])].sort(compareText);
  }
}

/**
 * Resolves an include or import target. Relative targets (`./x`, `../x`) are joined to the referencing file's
 * directory; others are tried as written, then under each include root, then with a leading include root
 * stripped, then (imports only) as a dotted module (`mm.dma` → `mm/dma`). The first candidate with an owner
 * wins; a catch-all scope is used only when no candidate has a specific owner.
 */
export function resolvePath(
  owners: PathOwners,
  reference: { kind: "include" | "import"; target: string; from_file: string },
  includeRoots: readonly string[],
): Resolution {
  const target = cleanTarget(reference.target);
  const candidates = candidatePaths(target, reference, includeRoots);
  if (candidates === "escapes_root") {
    const detail = `"${reference.target}" from ${reference.from_file} points outside the repository root`;
    return { status: "missing", reason: "escapes_root", detail, tried: [] };
  }
  for (const candidate of candidates) {
    const scopes = owners.specific(candidate);
    if (scopes.length > 0) return { status: "resolved", scopes, resolvedAs: candidate };
  }
  const fallback = owners.catchAll();
  const first = candidates[0];
  if (fallback.length > 0 && first !== undefined) return { status: "resolved", scopes: fallback, resolvedAs: first };
  const detail = `no scope owns ${candidates.map((c) => `"${c}"`).join(" or ")}`;
  return { status: "missing", reason: "no_owner", detail, tried: candidates };
}

function candidatePaths(
  target: string,
  reference: { kind: "include" | "import"; from_file: string },
  includeRoots: readonly string[],
): string[] | "escapes_root" {
  if (isRelative(target)) {
    const joined = normalizePath(posix.join(posix.dirname(normalizePath(reference.from_file)), target));
    return joined === ".." || joined.startsWith("../") ? "escapes_root" : [joined];
  }
  const path = normalizePath(target);
  const candidates = [path];
  const roots = includeRoots.map(normalizePath).filter((root) => root !== "");
  for (const root of roots) candidates.push(`${root}/${path}`);
  for (const root of roots) if (path.startsWith(`${root}/`)) candidates.push(path.slice(root.length + 1));
  if (reference.kind === "import" && DOTTED_MODULE.test(path)) candidates.push(path.replaceAll(".", "/"));
  return [...new Set(candidates)];
}

// Python-style module names: two or more identifiers joined by dots, with no slash.
const DOTTED_MODULE = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

function isRelative(target: string): boolean {
  return target === "." || target === ".." || target.startsWith("./") || target.startsWith("../");
}

/** Strips the quotes or angle brackets of `#include "x.h"` / `<x.h>` in case a parser kept them. */
function cleanTarget(target: string): string {
  const trimmed = target.trim().replaceAll("\\", "/");
  const quoted = /^<(.*)>$/.exec(trimmed) ?? /^"(.*)"$/.exec(trimmed) ?? /^'(.*)'$/.exec(trimmed);
  return quoted?.[1] ?? trimmed;
}

/** POSIX-normalises a repository path: forward slashes, no `./` segments, no trailing slash, "" for the root. */
export function normalizePath(path: string): string {
  const normalized = posix.normalize(path.trim().replaceAll("\\", "/"));
  const stripped = normalized.replace(/\/+$/, "");
  return stripped === "." ? "" : stripped.replace(/^\.\//, "");
}
