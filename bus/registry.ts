// The local registry directory: zero-config discovery on one machine. One JSON file per live node,
// written atomically (temp file + rename); entries of dead pids or past the stale age are pruned.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { nodeCardSchema, type NodeCard } from "./wire/schema.js";

/** An entry not refreshed for this long is stale (nodes refresh on every gossip tick). */
export const DEFAULT_REGISTRY_STALE_MS = 30_000;
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

/** Live entries of the registry; stale and unreadable ones (older than the stale age) are deleted. */
export async function readRegistry(dir: string, staleMs = DEFAULT_REGISTRY_STALE_MS): Promise<RegistryEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const now = Date.now();
  const live: RegistryEntry[] = [];
  for (const name of names) {
    if (!name.endsWith(ENTRY_SUFFIX) || name.startsWith(".")) continue;
    const path = join(dir, name);
    const entry = await readEntry(path);
    if (entry === "gone") continue;
    if (entry === "invalid") {
      const age = await stat(path).then((s) => now - s.mtimeMs, () => 0);
      if (age > staleMs) await rm(path, { force: true });
      continue;
    }
    if (isStale(entry, now, staleMs)) await rm(path, { force: true });
    else live.push(entry);
  }
  return live;
}
