// The per-file extractions on disk, in shards by path: a rebuild rewrites only the shards holding a file
// that was added, removed or changed, and keeps the others (and their checksums) as they are.
import type { Logger } from "pino";
import type { FileExtraction } from "../overlays/index.js";
import { readBlob, writeBlob } from "./blobs.js";
import type { StoreManifest } from "./manifest.js";

export const EXTRACTION_SHARDS = 16;

/** `extractions-07.msgpack`: the shard a path belongs to, by an FNV-1a hash of the path. */
export function shardName(path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return `extractions-${String((hash >>> 0) % EXTRACTION_SHARDS).padStart(2, "0")}.msgpack`;
}

export interface StoredExtractions {
  /** Every stored extraction of the last build by `${path}\0${sha256}`. */
  byFile: Map<string, FileExtraction>;
  /** The shards that read back intact (only those may be kept without rewriting). */
  intact: Set<string>;
}

/** The last build's extractions; an unreadable shard only costs re-parsing (and rewriting) its files. */
export async function readExtractionShards(dir: string, manifest: StoreManifest | null, logger: Logger): Promise<StoredExtractions> {
  const stored: StoredExtractions = { byFile: new Map(), intact: new Set() };
  if (!manifest) return stored;
  const names = Object.keys(manifest.blobs).filter((name) => name.startsWith("extractions-"));
  await Promise.all(
    names.map(async (name) => {
      try {
        const shard = await readBlob<FileExtraction[]>(dir, name, manifest.blobs[name] ?? "");
        for (const extraction of shard) stored.byFile.set(`${extraction.file.path}\0${extraction.file.sha256}`, extraction);
        stored.intact.add(name);
      } catch (error) {
        logger.warn({ err: error, shard: name }, "stored extractions unusable; re-parsing their files");
      }
    }),
  );
  return stored;
}

/** Writes the shards whose files differ from the last build's; returns every shard's checksum. */
export async function writeExtractionShards(
  dir: string,
  extractions: readonly FileExtraction[],
  previous: { manifest: StoreManifest | null; intact: ReadonlySet<string> },
): Promise<Record<string, string>> {
  const manifest = previous.manifest;
  const byShard = new Map<string, FileExtraction[]>();
  for (const extraction of extractions) {
    const name = shardName(extraction.file.path);
    const list = byShard.get(name) ?? [];
    list.push(extraction);
    byShard.set(name, list);
  }
  const stale = new Set<string>();
  const before = new Map(Object.entries(manifest?.files ?? {}));
  for (const extraction of extractions) if (before.get(extraction.file.path) !== extraction.file.sha256) stale.add(shardName(extraction.file.path));
  const now = new Set(extractions.map((extraction) => extraction.file.path));
  for (const path of before.keys()) if (!now.has(path)) stale.add(shardName(path));
  const sums: Record<string, string> = {};
  for (const [name, list] of [...byShard.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const kept = stale.has(name) || !previous.intact.has(name) ? undefined : manifest?.blobs[name];
    sums[name] = kept ?? (await writeBlob(dir, name, list));
  }
  return sums;
}
