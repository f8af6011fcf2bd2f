// What a build may reuse from the last one, read while the scope is scanned: the extraction shards, the
// index (loaded as it is when nothing changed, patched otherwise) and the import resolutions. Reading
// never fails: an unusable part is logged and left out, and the build does without it.
import type { Logger } from "pino";
import type { ImportLinkMemory } from "../overlays/import-links.js";
import { LexicalIndex, type StoredLexicalIndex } from "../retrieval/index.js";
import { readBlob } from "./blobs.js";
import { readExtractionShards, type StoredExtractions } from "./extraction-shards.js";
import type { StoreManifest } from "./manifest.js";

export const INDEX_BLOB = "index.msgpack";
export const IMPORT_LINKS_BLOB = "import-links.msgpack";

export interface StoredState {
  extractions: StoredExtractions;
  index: LexicalIndex | null;
  importLinks: ImportLinkMemory | null;
}

async function optionalBlob<T>(dir: string, manifest: StoreManifest | null, name: string, decode: (value: unknown) => T, logger: Logger): Promise<T | null> {
  const sum = manifest?.blobs[name];
  if (sum === undefined) return null;
  try {
    return decode(await readBlob<unknown>(dir, name, sum));
  } catch (error) {
    logger.warn({ err: error, blob: name }, "stored data unusable; rebuilding it from scratch");
    return null;
  }
}

export async function readStoredState(dir: string, manifest: StoreManifest | null, logger: Logger): Promise<StoredState> {
  const [extractions, index, importLinks] = await Promise.all([
    readExtractionShards(dir, manifest, logger),
    optionalBlob(dir, manifest, INDEX_BLOB, (value) => LexicalIndex.fromJSON(value as StoredLexicalIndex), logger),
    optionalBlob(dir, manifest, IMPORT_LINKS_BLOB, (value) => value as ImportLinkMemory, logger),
  ]);
  return { extractions, index, importLinks };
}
