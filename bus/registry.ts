// The local registry directory: zero-config discovery on one machine. One JSON file per live node,
// written atomically (temp file + rename); entries of dead pids or past the stale age are pruned.
// A member node goes through LocalRegistry, which rewrites its own entry only when its card changed or
// the refresh interval passed, and re-reads only the entries whose file changed since its last read:
// with a hundred nodes on one machine, re-reading and re-validating every entry on every gossip tick
// was thousands of file reads a second.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { nodeCardSchema, type NodeCard } from "./wire/schema.js";

/** An entry not refreshed for this long is stale. */
export const DEFAULT_REGISTRY_STALE_MS = 30_000;
/** A member rewrites its entry at least this often (and whenever its card changes): a third of the stale age. */
export const DEFAULT_REGISTRY_REFRESH_MS = 10_000;
const ENTRY_SUFFIX = ".json";

const entrySchema = z.object({
  card: nodeCardSchema,
  pid: z.number().int().positive(),
  host: z.string(),
  updated_at: z.number().int(),
});
export type RegistryEntry = z.infer<typeof entrySchema>;

function entryPath(dir: string, id: string): string {
  return join(dir, `${id}${ENTRY_SUFFIX}`);
}

export async function writeRegistryEntry(dir: string, card: NodeCard): Promise<void> {
  await mkdir(dir, { recursive: true });
  const entry: RegistryEntry = { card, pid: process.pid, host: hostname(), updated_at: Date.now() };
  const temp = join(dir, `.${card.id}.${process.pid}.${Date.now()}.tmp`);
  await writeFile(temp, JSON.stringify(entry));
  await rename(temp, entryPath(dir, card.id));
}

export async function removeRegistryEntry(dir: string, id: string): Promise<void> {
  const path = entryPath(dir, id);
  try {
    const entry = entrySchema.parse(JSON.parse(await readFile(path, "utf8")));
    // Never remove the entry of a newer process that took over the same id.
    if (entry.pid !== process.pid) return;
  } catch {
    // unreadable: remove it all the same
  }
  await rm(path, { force: true });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isStale(entry: RegistryEntry, now: number, staleMs: number): boolean {
  if (now - entry.updated_at > staleMs) return true;
  return entry.host === hostname() && !pidAlive(entry.pid);
}

async function readEntry(path: string): Promise<RegistryEntry | "invalid" | "gone"> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return "gone";
  }
  try {
    return entrySchema.parse(JSON.parse(text));
  } catch {
    return "invalid";
  }
}

/** What a reader remembers of one entry file: its identity on disk and the entry it held. */
interface CachedEntry {
  key: string;
  entry: RegistryEntry | "invalid";
}

async function readLive(dir: string, staleMs: number, cache?: Map<string, CachedEntry>): Promise<RegistryEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const now = Date.now();
  const live: RegistryEntry[] = [];
  const present = new Set<string>();
  for (const name of names) {
    if (!name.endsWith(ENTRY_SUFFIX) || name.startsWith(".")) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info) continue;
    present.add(name);
    // Entries are replaced by rename, so a changed entry is a new inode (and a new mtime).
    const key = `${info.ino}:${info.mtimeMs}:${info.size}`;
    const cached = cache?.get(name);
    let entry: RegistryEntry | "invalid" | "gone";
    if (cached && cached.key === key) entry = cached.entry;
    else {
      entry = await readEntry(path);
      if (entry !== "gone") cache?.set(name, { key, entry });
    }
    if (entry === "gone") continue;
    if (entry === "invalid") {
      if (now - info.mtimeMs > staleMs) await rm(path, { force: true });
      continue;
    }
    if (isStale(entry, now, staleMs)) await rm(path, { force: true });
    else live.push(entry);
  }
  if (cache) for (const name of cache.keys()) if (!present.has(name)) cache.delete(name);
  return live;
}

/** Live entries of the registry; stale and unreadable ones (older than the stale age) are deleted. */
export async function readRegistry(dir: string, staleMs = DEFAULT_REGISTRY_STALE_MS): Promise<RegistryEntry[]> {
  return readLive(dir, staleMs);
}

export interface LocalRegistryOptions {
  refreshMs?: number;
  staleMs?: number;
}

/** A member node's use of a registry directory: its own entry kept fresh, the others read incrementally. */
export class LocalRegistry {
  private readonly cache = new Map<string, CachedEntry>();
  private readonly refreshMs: number;
  private readonly staleMs: number;
  private written: { card: NodeCard; at: number } | undefined;

  constructor(
    readonly dir: string,
    options: LocalRegistryOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? DEFAULT_REGISTRY_REFRESH_MS;
    this.staleMs = options.staleMs ?? DEFAULT_REGISTRY_STALE_MS;
  }

  /** Write this node's entry if the card changed (another object) or the refresh interval passed. */
  async announce(card: NodeCard): Promise<boolean> {
    const now = Date.now();
    if (this.written && this.written.card === card && now - this.written.at < this.refreshMs) return false;
    await writeRegistryEntry(this.dir, card);
    this.written = { card, at: now };
    return true;
  }

  /** The live entries; only files that changed since the last read are read and validated again. */
  read(): Promise<RegistryEntry[]> {
    return readLive(this.dir, this.staleMs, this.cache);
  }

  /** Remove this node's entry (it is stopping); the next announce writes it again. */
  async remove(id: string): Promise<void> {
    this.written = undefined;
    await removeRegistryEntry(this.dir, id);
  }
}
