// The citation hash rule, written once so every party computes it identically (docs/DELEGATION.md).
// Lines are 1-based and inclusive, separated by "\n" only; nothing is normalized ("\r", BOM, tabs stay).
import { createHash } from "node:crypto";
import { CitationRangeError } from "./errors.js";

/** Lowercase hex SHA-256 of `text` encoded as UTF-8. */
export function citationHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Lines in `fileText`: "\n"-separated segments, not counting the empty segment after a final "\n".
 * "" has 0 lines, "a" and "a\n" have 1, "a\n\n" has 2.
 */
export function countLines(fileText: string): number {
  if (fileText.length === 0) return 0;
  let count = 1;
  for (let at = fileText.indexOf("\n"); at !== -1; at = fileText.indexOf("\n", at + 1)) {
    if (at + 1 < fileText.length) count++;
  }
  return count;
}

/**
 * Lines `lineStart`..`lineEnd` (1-based, inclusive) of `fileText` joined by "\n", without the "\n"
 * that ends `lineEnd`: the exact contiguous text from the first character of `lineStart` up to, not
 * including, the next "\n" after it (or the end of the file). Throws CitationRangeError when out of range.
 */
export function sliceLines(fileText: string, lineStart: number, lineEnd: number): string {
  if (!Number.isInteger(lineStart) || !Number.isInteger(lineEnd) || lineStart < 1 || lineEnd < lineStart) {
    throw new CitationRangeError(lineStart, lineEnd, countLines(fileText));
  }
  let start: number | undefined;
  let last: number | undefined;
  const table = fileText.length >= LINE_TABLE_MIN_CHARS ? lineStarts(fileText) : null;
  if (table) {
    start = table[lineStart - 1];
    last = table[lineEnd - 1];
  } else {
    start = lineOffset(fileText, lineStart);
    last = start === undefined ? undefined : lineOffset(fileText, lineEnd - lineStart + 1, start);
  }
  if (start === undefined || last === undefined) throw new CitationRangeError(lineStart, lineEnd, countLines(fileText));
  const newline = fileText.indexOf("\n", last);
  return fileText.slice(start, newline === -1 ? fileText.length : newline);
}

/**
 * A file this long has its lines' offsets worked out once and kept (a worker cites many lines of one file
 * per request, and finding line 3,000 by counting from the top each time was a tenth of its search time).
 */
export const LINE_TABLE_MIN_CHARS = 16 * 1024;
/**
 * Texts whose line tables are kept, most recently used last (a worker's files in play): at most this many,
 * and at most LINE_TABLES_MAX_CHARS of text between them (a kept table keeps its text alive too).
 */
const LINE_TABLES_KEPT = 64;
export const LINE_TABLES_MAX_CHARS = 8 * 1024 * 1024;
const lineTables = new Map<string, Int32Array>();
let keptChars = 0;

/** Where each line of `fileText` begins (entry i: line i + 1), as lineOffset counts lines. */
function lineStarts(fileText: string): Int32Array {
  const known = lineTables.get(fileText);
  if (known) {
    lineTables.delete(fileText);
    lineTables.set(fileText, known);
    return known;
  }
  const starts: number[] = fileText.length > 0 ? [0] : [];
  for (let at = fileText.indexOf("\n"); at !== -1; at = fileText.indexOf("\n", at + 1)) if (at + 1 < fileText.length) starts.push(at + 1);
  const table = Int32Array.from(starts);
  if (fileText.length > LINE_TABLES_MAX_CHARS) return table;
  lineTables.set(fileText, table);
  keptChars += fileText.length;
  for (const oldest of lineTables.keys()) {
    if (lineTables.size <= LINE_TABLES_KEPT && keptChars <= LINE_TABLES_MAX_CHARS) break;
    lineTables.delete(oldest);
    keptChars -= oldest.length;
  }
  return table;
}

/** Offset where line `line` begins, counting lines from `from` (itself a line start); undefined if no such line. */
function lineOffset(fileText: string, line: number, from = 0): number | undefined {
  let offset = from;
  for (let current = 1; current < line; current++) {
    const newline = fileText.indexOf("\n", offset);
    if (newline === -1) return undefined;
    offset = newline + 1;
  }
  return offset < fileText.length ? offset : undefined;
}

/** True when lines `line_start`..`line_end` of `fileText` hash to `sha256`; false when out of range. */
export function citationMatches(
  fileText: string,
  citation: { readonly line_start: number; readonly line_end: number; readonly sha256: string },
): boolean {
  try {
    return citationHash(sliceLines(fileText, citation.line_start, citation.line_end)) === citation.sha256;
  } catch (error) {
    if (error instanceof CitationRangeError) return false;
    throw error;
  }
}
