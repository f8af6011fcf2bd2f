// A cached view of the files under a root, for citing lines (a worker) and re-hashing them (the
// manager). Both sit on every hop's critical path, so this reader works synchronously on a cache: a
// cached file costs one lstat (no thread-pool round trip), and is read again when its inode, size,
// mtime or ctime changed. Paths
// that leave the root (`..`, absolute, symlinks anywhere on the path) are refused, as on a cache miss
// the path is resolved afresh; a cache hit re-checks the very file (same inode) it resolved to before.
import { lstatSync, readFileSync, realpathSync, type Stats } from "node:fs";
import { normalizeScopePath, resolveExistingInsideRootSync } from "./resolve-inside-scope.js";

/** Files whose text is kept (least recently used dropped first). */
export const SOURCE_CACHE_FILES = 256;

interface Cached {
  absolute: string;
  identity: string;
  text: string;
}

function identityOf(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

export class SourceReader {
  private readonly cache = new Map<string, Cached>();
  private rootReal: string | undefined;

  constructor(
    private readonly root: string,
    private readonly capacity = SOURCE_CACHE_FILES,
  ) {}

  /** The file's text, or null when it does not exist, is not a regular file, or escapes the root. */
  read(relPath: string): string | null {
    let key: string;
    try {
      key = normalizeScopePath(relPath);
    } catch {
      return null;
    }
    const cached = this.cache.get(key);
    if (cached) {
      const info = this.lstat(cached.absolute);
      if (info?.isFile() && identityOf(info) === cached.identity) {
        // Refresh its place in the LRU order.
        this.cache.delete(key);
        this.cache.set(key, cached);
        return cached.text;
      }
      this.cache.delete(key);
    }
    return this.load(key);
  }

  private load(key: string): string | null {
    try {
      this.rootReal ??= realpathSync(this.root);
      const absolute = resolveExistingInsideRootSync(this.rootReal, key);
      if (absolute === null) return null;
      const before = this.lstat(absolute);
      if (!before?.isFile()) return null;
      const text = readFileSync(absolute, "utf8");
      this.cache.set(key, { absolute, identity: identityOf(before), text });
      if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
      return text;
    } catch {
      return null;
    }
  }

  private lstat(absolute: string): Stats | undefined {
    try {
      return lstatSync(absolute);
    } catch {
      return undefined;
    }
  }
}
