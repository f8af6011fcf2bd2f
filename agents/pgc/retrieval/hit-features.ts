// The feature vector calibration reads from a hit; its order is part of the stored calibration format.
import type { HitFeatures } from "./lexical-index.js";

export const HIT_FEATURE_NAMES = [
  "score_ratio",
  "margin",
  "coverage",
  "log_query_terms",
  "margin_x_coverage",
  "score_ratio_x_coverage",
] as const;

/**
 * Short queries match by chance more often, so query length enters on a log scale. The products let a lead
 * count only in proportion to how much of the query it explains: a clear winner on half the words is weak.
 */
export function featureVector(features: HitFeatures): number[] {
  const { score_ratio: ratio, margin, coverage } = features;
  return [ratio, margin, coverage, Math.log(Math.max(1, features.query_term_count)), margin * coverage, ratio * coverage];
}
