// A search's options, checked before it runs: how many hits (topK) and which overlays' documents (lexical-index.ts).
import { OVERLAYS, type Overlay } from "../types.js";
import { InvalidRetrievalOptionsError } from "./errors.js";

export const DEFAULT_TOP_K = 10;
export const MAX_TOP_K = 1_000;

export interface SearchOptions {
  topK?: number;
  /** Only documents of these overlays are returned; all overlays when absent or empty. */
  overlays?: readonly Overlay[];
}

export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
    throw new InvalidRetrievalOptionsError(`topK must be an integer in [1, ${MAX_TOP_K}], got ${topK}`);
  }
  return topK;
}

/** A bit per overlay number; every bit set when no filter is given. */
export function overlayMask(overlays: readonly Overlay[] | undefined): number {
  if (overlays === undefined || overlays.length === 0) return 0xff;
  let mask = 0;
  for (const overlay of overlays) {
    const at = OVERLAYS.indexOf(overlay);
    if (at < 0) throw new InvalidRetrievalOptionsError(`unknown overlay "${String(overlay)}"`);
    mask |= 1 << at;
  }
  return mask;
}
