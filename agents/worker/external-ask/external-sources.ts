// What an external ask result is worth to us: its similarities are the tool's own, not calibrated per
// scope, so every source is marked "external"; only sources naming a file, lines and hash become citations.
import { MAX_CITATION_CHARS, MAX_RELEVANCE_CHARS, OVERLAY_IDS, truncateText, type AskResult, type AskSource, type Citation, type OverlayId } from "../../protocol/index.js";

/** A similarity in [0, 1], as the protocol requires once a kind is given; NaN counts as 0. */
export function clampSimilarity(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** The result with every source's similarity kept (clamped to [0, 1]) and its kind set to "external". */
export function markExternal(result: AskResult): AskResult {
  return {
    ...result,
    sources: result.sources.map((source) => ({ ...source, similarity: clampSimilarity(source.similarity), similarity_kind: "external" as const })),
  };
}

/** "O1".."O7" (any case); other overlay names of external tools have no citation counterpart. */
export function overlayIdOf(name: string): OverlayId | undefined {
  const upper = name.trim().toUpperCase();
  return (OVERLAY_IDS as readonly string[]).includes(upper) ? (upper as OverlayId) : undefined;
}

function citationOf(source: AskSource): Citation | undefined {
  const overlay = overlayIdOf(source.overlay);
  const { file_path, line_start, line_end, sha256 } = source;
  if (overlay === undefined || file_path === undefined || line_start === undefined || line_end === undefined || sha256 === undefined) return undefined;
  const where = `${file_path}:${line_start}-${line_end}`;
  return {
    overlay,
    content: truncateText(source.text.trim() || where, MAX_CITATION_CHARS),
    relevance: truncateText(`external ask${source.section ? ` (${source.section})` : ""}; similarity not calibrated by this mesh`, MAX_RELEVANCE_CHARS),
    file_path,
    line_start,
    line_end,
    sha256,
    similarity: clampSimilarity(source.similarity),
    similarity_kind: "external",
  };
}

/** Checkable citations from an ask result, in its order; uncheckable sources are skipped. */
export function citationsFrom(result: AskResult): Citation[] {
  return result.sources.flatMap((source) => citationOf(source) ?? []);
}
