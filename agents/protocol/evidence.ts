// grounding_evidence of a TaskResponse: what was queried, what was consulted, what is cited, how sure.
import { z } from "zod";
import { type Citation, CitationSchema, clampCitations } from "./citation.js";
import {
  confidenceFromSimilarities,
  confidenceRank,
  type GroundingConfidence,
  GroundingConfidenceSchema,
} from "./confidence.js";
import { listField, textField, uniqueListField } from "./fields.js";
import { MAX_CITATIONS, MAX_ITEM_CHARS, MAX_LIST_ITEMS } from "./limits.js";
import { OVERLAY_IDS, type OverlayId, OverlayIdSchema } from "./overlays.js";

export const GroundingEvidenceSchema = z
  .strictObject({
    queries_executed: listField(textField(MAX_ITEM_CHARS, 1), MAX_LIST_ITEMS),
    overlays_consulted: uniqueListField(OverlayIdSchema, OVERLAY_IDS.length),
    citations: listField(CitationSchema, MAX_CITATIONS),
    grounding_confidence: GroundingConfidenceSchema,
  })
  .superRefine((evidence, ctx) => {
    const consulted = new Set<OverlayId>(evidence.overlays_consulted);
    evidence.citations.forEach((citation, index) => {
      if (!consulted.has(citation.overlay)) {
        ctx.addIssue({ code: "custom", path: ["citations", index, "overlay"], message: `${citation.overlay} is not in overlays_consulted` });
      }
    });
    // A worker may report less confidence than its citations support, never more. (A similarity out of
    // [0, 1] is already an issue of its citation; the rule is judged only on valid ones.)
    const similarities = evidence.citations.map((citation) => citation.similarity);
    if (!similarities.every((s) => Number.isFinite(s) && s >= 0 && s <= 1)) return;
    const supported = confidenceFromSimilarities(similarities);
    if (confidenceRank(evidence.grounding_confidence) > confidenceRank(supported)) {
      ctx.addIssue({
        code: "custom",
        path: ["grounding_confidence"],
        message: `must not exceed "${supported}", the confidence of the cited similarities`,
      });
    }
  });

export type GroundingEvidence = z.output<typeof GroundingEvidenceSchema>;

export interface GroundingEvidenceInput {
  readonly queries_executed: readonly string[];
  readonly overlays_consulted?: readonly OverlayId[];
  readonly citations: readonly Citation[];
  /** A cap the worker chooses (e.g. "low" for uncalibrated sources); the result never exceeds the computed level. */
  readonly max_confidence?: GroundingConfidence;
}

/**
 * Evidence a worker can send: citations clamped (top MAX_CITATIONS, content cut), every cited
 * overlay listed as consulted, confidence computed from the citations that are actually sent.
 */
export function buildGroundingEvidence(input: GroundingEvidenceInput): GroundingEvidence {
  const citations = clampCitations(input.citations);
  const overlays = new Set<OverlayId>([...(input.overlays_consulted ?? []), ...citations.map((citation) => citation.overlay)]);
  const computed = confidenceFromSimilarities(citations.map((citation) => citation.similarity));
  const cap = input.max_confidence;
  return {
    queries_executed: [...input.queries_executed],
    overlays_consulted: OVERLAY_IDS.filter((overlay) => overlays.has(overlay)),
    citations,
    grounding_confidence: cap !== undefined && confidenceRank(cap) < confidenceRank(computed) ? cap : computed,
  };
}
