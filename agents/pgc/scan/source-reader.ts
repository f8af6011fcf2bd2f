// A cached view of the files under a root, for citing lines (a worker) and re-hashing them (the
// manager). Both sit on every hop's critical path, so this reader works synchronously on a cache: a
// cached file costs one lstat (no thread-pool round trip), and is read again when its inode, size,
// mtime or ctime changed. Paths that leave the root (`..`, absolute, symlinks anywhere on the path) are
// refused, as on a cache miss the path is resolved afresh; a cache hit re-checks the very file (same
// inode) it resolved to before.
// The cache is bounded by files and by bytes; an `accept` test (a worker's "unchanged since indexed")
// runs once per version of a file.
import { lstatSync, readFileSync, realpathSync, type Stats } from "node:fs";
import { normalizeScopePath, resolveExistingInsideRootSync } from "./resolve-inside-scope.js";

/** Files whose text is kept (least recently used dropped first). */
export const SOURCE_CACHE_FILES = 256;
/** Bytes of file text kept at most (by file size), whatever the file count. */
export const SOURCE_CACHE_BYTES = 32 * 1024 * 1024;

interface Cached {
  absolute: string;
  identity: string;
  /** null: read, but refused by `accept` (kept so an unchanged refused file costs only an lstat). */
  text: string | null;
  bytes: number;
}

export interface SourceReaderOptions {
  capacity?: number;
  maxBytes?: number;
  /** Judges a file's text once per version of the file; a refused file reads as null. */
  accept?: (path: string, text: string) => boolean;
}

function identityOf(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

export class SourceReader {
  private readonly cache = new Map<string, Cached>();
  private rootReal: string | undefined;
  private heldBytes = 0;

  private readonly capacity: number;
  private readonly maxBytes: number;

  constructor(
    private readonly root: string,
    private readonly options: SourceReaderOptions = {},
  ) {
    this.capacity = options.capacity ?? SOURCE_CACHE_FILES;
    this.maxBytes = options.maxBytes ?? SOURCE_CACHE_BYTES;
  }

  /** Bytes of file text held now (at most maxBytes, except a single larger file just read). */
  get bytes(): number {
    return this.heldBytes;
  }

  /** The file's text, or null when it does not exist, is not a regular file, escapes the root, or is refused. */
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
      this.forget(key);
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
      const read = readFileSync(absolute, "utf8");
      const text = this.options.accept === undefined || this.options.accept(key, read) ? read : null;
      const bytes = text === null ? 0 : before.size;
      this.cache.set(key, { absolute, identity: identityOf(before), text, bytes });
      this.heldBytes += bytes;
      // Oldest first, never the file just read (it is returned either way).
      for (const oldest of this.cache.keys()) {
        if (oldest === key || (this.cache.size <= this.capacity && this.heldBytes <= this.maxBytes)) break;
        this.forget(oldest);
      }
      return text;
    } catch {
      return null;
    }
  }

  private forget(key: string): void {
    const entry = this.cache.get(key);
    if (!entry) return;
    this.heldBytes -= entry.bytes;
    this.cache.delete(key);
  }

  private lstat(absolute: string): Stats | undefined {
    try {
      return lstatSync(absolute);
    } catch {
      return undefined;
    }
  }
}
