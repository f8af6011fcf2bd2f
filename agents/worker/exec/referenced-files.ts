// The "Files Referenced" list of OUTPUT.md as scope-relative paths; anything outside the scope is dropped.
import { isAbsolute, relative } from "node:path";
import { MAX_LIST_ITEMS } from "../../protocol/index.js";
import { normalizeScopePath } from "../../pgc/scan/index.js";

/** The path an item names: its first `code span`, else its first word, without a `:line` suffix. */
function pathOf(item: string): string {
  const raw = /`([^`]+)`/.exec(item)?.[1] ?? item.split(/\s+/)[0] ?? "";
  return raw
    .trim()
    .replace(/[,;]+$/, "")
    .replace(/(?::\d+(?:-\d+)?|#L\d+(?:-L?\d+)?)$/, "");
}

/** A scope-relative POSIX path for `path`, or undefined when it is empty or leaves the scope. */
function insideScope(path: string, scopeRoot: string | undefined): string | undefined {
  let candidate = path;
  if (isAbsolute(candidate)) {
    if (scopeRoot === undefined) return undefined;
    candidate = relative(scopeRoot, candidate);
  }
  try {
    const normalized = normalizeScopePath(candidate);
    return normalized === "." || normalized === "" ? undefined : normalized;
  } catch {
    return undefined;
  }
}

/** Distinct scope-relative paths named by `items`, in order, at most MAX_LIST_ITEMS. */
export function referencedFiles(items: readonly string[], scopeRoot: string | undefined): string[] {
  const paths = new Set<string>();
  for (const item of items) {
    const path = insideScope(pathOf(item), scopeRoot);
    if (path !== undefined) paths.add(path);
    if (paths.size === MAX_LIST_ITEMS) break;
  }
  return [...paths];
}
