// Length and truncation of strings in the units the protocol counts: code points and UTF-8 bytes.
import { TRUNCATION_MARKER } from "./limits.js";

/** Unicode code points in `text`; a surrogate pair counts once, as every other language counts it. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Bytes of `text` encoded as UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as it is sent). */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * `text` cut to at most `maxChars` code points; when cut, the last kept code point is replaced by
 * TRUNCATION_MARKER so the result is exactly `maxChars` long. Never splits a surrogate pair.
 */
export function truncateText(text: string, maxChars: number): string {
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  if (codePointLength(text) <= maxChars) return text;
  let kept = "";
  let count = 0;
  for (const codePoint of text) {
    if (count === maxChars - 1) break;
    kept += codePoint;
    count++;
  }
  return kept + TRUNCATION_MARKER;
}
