// Whether a cited path lies inside a worker's scope. The manager never opens a path that fails this.

/** Why `path` cannot be a root-relative path at all, or undefined when it can. */
export function unsafePathProblem(path: string): string | undefined {
  if (path.length === 0) return "the path is empty";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "the path is absolute";
  if (path.includes("\\")) return "the path uses '\\'";
  if (/[\u0000-\u001f\u007f]/.test(path)) return "the path holds control characters";
  const segments = path.split("/");
  if (segments.includes("..")) return "the path climbs out with '..'";
  if (segments.some((segment) => segment === "" || segment === ".")) return "the path has an empty or '.' segment";
  return undefined;
}

/** True when the scope's prefixes cover the whole root: none given, or the empty prefix. */
function coversWholeRoot(scopePaths: readonly string[]): boolean {
  return scopePaths.length === 0 || scopePaths.includes("");
}

/** A prefix ending in "/" is a directory (everything under it); any other prefix is one file. */
function prefixCovers(prefix: string, path: string): boolean {
  return prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix;
}

/** Why `path` is outside the scope, or undefined when it is inside. */
export function outOfScopeProblem(path: string, scopePaths: readonly string[]): string | undefined {
  const unsafe = unsafePathProblem(path);
  if (unsafe !== undefined) return unsafe;
  if (coversWholeRoot(scopePaths) || scopePaths.some((prefix) => prefixCovers(prefix, path))) return undefined;
  return `not under ${scopePaths.join(", ")}`;
}

export function insideScope(path: string, scopePaths: readonly string[]): boolean {
  return outOfScopeProblem(path, scopePaths) === undefined;
}
