// Fitting what an agent wrote into the protocol's limits, so a long answer is cut, never rejected.
import {
  MAX_CLARIFICATION_OPTIONS,
  MAX_ITEM_CHARS,
  MAX_KEY_FINDING_CHARS,
  MAX_KEY_FINDINGS,
  MAX_MESSAGE_CHARS,
  MAX_RESULT_BYTES,
  TRUNCATION_MARKER,
  truncateText,
  utf8ByteLength,
} from "../../protocol/index.js";

/** `text` cut to at most `maxBytes` UTF-8 bytes at a character boundary, ending in TRUNCATION_MARKER when cut. */
export function fitBytes(text: string, maxBytes: number): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  const budget = maxBytes - utf8ByteLength(TRUNCATION_MARKER);
  let kept = "";
  let bytes = 0;
  for (const codePoint of text) {
    const size = utf8ByteLength(codePoint);
    if (bytes + size > budget) break;
    kept += codePoint;
    bytes += size;
  }
  return kept + TRUNCATION_MARKER;
}

/** A TaskResponse `result`. */
export function fitResult(text: string): string {
  return fitBytes(text, MAX_RESULT_BYTES);
}

/** An error message or clarification question: never empty, at most MAX_MESSAGE_CHARS. */
export function fitMessage(text: string, fallback: string): string {
  return truncateText(text.trim() || fallback, MAX_MESSAGE_CHARS);
}

/** Key findings: one line each, at most MAX_KEY_FINDINGS of MAX_KEY_FINDING_CHARS. */
export function fitFindings(items: readonly string[]): string[] {
  return items.slice(0, MAX_KEY_FINDINGS).map((item) => truncateText(item.replace(/\s+/g, " "), MAX_KEY_FINDING_CHARS));
}

/** Suggested answers of a clarification request. */
export function fitOptions(items: readonly string[]): string[] {
  return items.slice(0, MAX_CLARIFICATION_OPTIONS).map((item) => truncateText(item, MAX_ITEM_CHARS));
}
