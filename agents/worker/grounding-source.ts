// What a worker consults for evidence: its own PGC, or an external `ask --json` command.
import type { Citation, OverlayId } from "../protocol/index.js";

export interface QueryOptions {
  overlays?: readonly OverlayId[];
  topK: number;
  signal?: AbortSignal;
}

export interface GroundingSource {
  /** Overlays this source can answer from right now. */
  overlays(): readonly OverlayId[];
  /** Citations for a query, most similar first; every citation is checkable (file, lines, sha256). */
  query(text: string, options: QueryOptions): Promise<Citation[]>;
  /** A bounded attempt to build missing overlays; resolves with the overlays that now exist. */
  buildOverlays?(missing: readonly OverlayId[], deadline: number): Promise<readonly OverlayId[]>;
}
