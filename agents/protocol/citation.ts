// A checkable citation: where the evidence is (file, lines, hash), what it says, and how well it matched.
import { z } from "zod";
import { lineNumberField, relativePathField, sha256Field, similarityField, textField } from "./fields.js";
import { MAX_CITATION_CHARS, MAX_CITATIONS, MAX_RELEVANCE_CHARS } from "./limits.js";
import { OverlayIdSchema } from "./overlays.js";
import { truncateText } from "./text.js";

/**
 * What a similarity means. exact: a named fact (symbol, call or include edge), always 1.
 * calibrated_lexical: a lexical score calibrated per scope so 0.9 is right ~9 times in 10.
 * coverage: the fraction of the query's terms the source covers. external: reported by an outside
 * tool, uncalibrated. none: no score, always 0.
 */
export const SIMILARITY_KINDS = Object.freeze(["exact", "calibrated_lexical", "coverage", "external", "none"] as const);
export type SimilarityKind = (typeof SIMILARITY_KINDS)[number];
export const SimilarityKindSchema = z.enum(SIMILARITY_KINDS);

export const CitationSchema = z
  .strictObject({
    overlay: OverlayIdSchema,
    /** An excerpt or summary of the cited lines, for humans; not hashed. */
    content: textField(MAX_CITATION_CHARS, 1),
    relevance: textField(MAX_RELEVANCE_CHARS),
    file_path: relativePathField,
    line_start: lineNumberField,
    line_end: lineNumberField,
    /** citationHash(sliceLines(file, line_start, line_end)). */
    sha256: sha256Field,
    similarity: similarityField,
    similarity_kind: SimilarityKindSchema,
  })
  .superRefine((citation, ctx) => {
    if (citation.line_end < citation.line_start) {
      ctx.addIssue({ code: "custom", path: ["line_end"], message: `must be >= line_start (${citation.line_start})` });
    }
    if (citation.similarity_kind === "exact" && citation.similarity !== 1) {
      ctx.addIssue({ code: "custom", path: ["similarity"], message: "must be 1 when similarity_kind is exact" });
    }
    if (citation.similarity_kind === "none" && citation.similarity !== 0) {
      ctx.addIssue({ code: "custom", path: ["similarity"], message: "must be 0 when similarity_kind is none" });
    }
  });

export type Citation = z.output<typeof CitationSchema>;

/**
 * What a worker sends: the MAX_CITATIONS most similar citations (ties keep their order), with
 * content and relevance cut to their limits ending in TRUNCATION_MARKER. Never mutates its input.
 */
export function clampCitations(citations: readonly Citation[]): Citation[] {
  // Array.prototype.sort is stable, so equal similarities keep the worker's order.
  return [...citations]
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, MAX_CITATIONS)
    .map((citation) => ({
      ...citation,
      content: truncateText(citation.content, MAX_CITATION_CHARS),
      relevance: truncateText(citation.relevance, MAX_RELEVANCE_CHARS),
    }));
}
