// Reads one candidate file of a scope: size cap, binary sniff, decoding and content hash.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { FileRecord } from "../types.js";
import { hasBinaryExtension, languageForPath } from "./detect-language.js";

/** Files larger than this are skipped: generated tables and blobs, not code worth indexing. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** How much of a file is sniffed for NUL bytes, as git does. */
const BINARY_SNIFF_BYTES = 8000;

/** A scanned file with its decoded text (BOM removed). */
export interface ScannedFile extends FileRecord {
  content: string;
}

export type ReadOutcome = { kind: "file"; file: ScannedFile } | { kind: "binary" } | { kind: "too_large" };

export async function readScopeFile(absolutePath: string, relPath: string, maxBytes: number): Promise<ReadOutcome> {
  if (hasBinaryExtension(relPath)) return { kind: "binary" };
  const info = await stat(absolutePath);
  if (info.size > maxBytes) return { kind: "too_large" };
  const raw = await readFile(absolutePath);
  if (raw.byteLength > maxBytes) return { kind: "too_large" };
  if (raw.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: "binary" };
  const decoded = raw.toString("utf8");
  const content = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const file: ScannedFile = {
    path: relPath,
    language: languageForPath(relPath),
    sha256: createHash("sha256").update(raw).digest("hex"),
    lines: countLines(content),
    bytes: raw.byteLength,
    content,
  };
  return { kind: "file", file };
}

/** Number of lines as an editor shows them: a final newline does not start a new line. */
export function countLines(content: string): number {
  if (content.length === 0) return 0;
  let count = 1;
  for (let index = content.indexOf("\n"); index !== -1; index = content.indexOf("\n", index + 1)) count++;
  return content.endsWith("\n") ? count - 1 : count;
}
