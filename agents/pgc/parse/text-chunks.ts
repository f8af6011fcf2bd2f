// Cuts a text file into passages of about forty lines, at headings or paragraph breaks where possible.
import type { TextChunk } from "./parsed-file.js";

/** A chunk is closed at the next paragraph break once it is this long… */
export const TARGET_CHUNK_LINES = 40;
/** …and at the next heading once it is this long, so short sections are not split into crumbs. */
const MIN_LINES_BEFORE_HEADING = 8;
/** No chunk is longer than this, paragraph break or not. */
export const MAX_CHUNK_LINES = 60;

const MARKDOWN_HEADING = /^\s{0,3}#{1,6}\s+\S/;
const RST_UNDERLINE = /^([=\-~^*#+])\1{2,}\s*$/;

/** The heading text when line `index` starts a section (markdown `#` or an rst underline below it). */
function headingAt(lines: readonly string[], index: number): string | null {
  const line = lines[index] ?? "";
  if (MARKDOWN_HEADING.test(line)) return line.replace(/^\s*#+\s*/, "").trim();
  const next = lines[index + 1];
  if (next !== undefined && line.trim() !== "" && RST_UNDERLINE.test(next) && !RST_UNDERLINE.test(line)) {
    return line.trim();
  }
  return null;
}

export function chunkText(content: string): TextChunk[] {
  const lines = content.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const chunks: TextChunk[] = [];
  let start = 0;
  let heading: string | null = null;
  let chunkHeading: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const length = index - start;
    const lineHeading = headingAt(lines, index);
    const breakHere =
      (lineHeading !== null && length >= MIN_LINES_BEFORE_HEADING) ||
      (lines[index]?.trim() === "" && length >= TARGET_CHUNK_LINES) ||
      length >= MAX_CHUNK_LINES;
    if (breakHere) {
      pushTrimmed(chunks, lines, start, index - 1, chunkHeading);
      start = index;
      chunkHeading = lineHeading ?? heading;
    }
    if (lineHeading !== null) {
      heading = lineHeading;
      if (index === start) chunkHeading = lineHeading;
    }
  }
  pushTrimmed(chunks, lines, start, lines.length - 1, chunkHeading);
  return chunks;
}

/** Adds lines [from, to] (0-based) without their leading and trailing blank lines, if any remain. */
function pushTrimmed(chunks: TextChunk[], lines: readonly string[], from: number, to: number, heading: string | null): void {
  let first = from;
  let last = to;
  while (first <= last && (lines[first] ?? "").trim() === "") first++;
  while (last >= first && (lines[last] ?? "").trim() === "") last--;
  if (first > last) return;
  chunks.push({ line_start: first + 1, line_end: last + 1, ...(heading ? { heading } : {}) });
}
