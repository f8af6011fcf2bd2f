// Where a scope's PGC lives on disk: one directory per (root, scope paths) under the cache root.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";

export const CACHE_ENV = "MESH_CACHE_DIR";

/** $MESH_CACHE_DIR, else $XDG_CACHE_HOME/lattice-mesh, else ~/.cache/lattice-mesh. */
export function defaultCacheRoot(): string {
  const explicit = process.env[CACHE_ENV];
  if (explicit) return explicit;
  const xdg = process.env["XDG_CACHE_HOME"];
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), ".cache"), "lattice-mesh");
}

/** A readable, collision-free directory name: the scope name plus a hash of what the scope covers. */
export function scopeCacheDir(cacheRoot: string, scopeName: string, realRoot: string, scopePaths: readonly string[]): string {
  const key = createHash("sha256").update(realRoot).update("\0").update([...scopePaths].sort().join("\0")).digest("hex").slice(0, 16);
  const safeName = scopeName.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 40) || "scope";
  return join(cacheRoot, "pgc", `${safeName}-${key}`);
}
