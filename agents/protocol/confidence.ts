// Grounding confidence from citation similarities, with the seed's thresholds (seed 002 §2, §5.5).
import { z } from "zod";

/** Ordered from weakest to strongest. */
export const GROUNDING_CONFIDENCE_LEVELS = Object.freeze(["low", "medium", "high"] as const);
export type GroundingConfidence = (typeof GROUNDING_CONFIDENCE_LEVELS)[number];
export const GroundingConfidenceSchema = z.enum(GROUNDING_CONFIDENCE_LEVELS);

/** "high" needs a mean strictly above this. */
export const HIGH_CONFIDENCE_ABOVE = 0.85;
/** "low" is a mean strictly below this; 0.7 itself is "medium" (the seed accepts 0.7-0.85). */
export const LOW_CONFIDENCE_BELOW = 0.7;
/** Means within this of a threshold count as the threshold, so float noise (0.8 + 0.9) / 2 stays "medium". */
export const CONFIDENCE_EPSILON = 1e-9;

/**
 * high: mean > 0.85; medium: 0.7 <= mean <= 0.85; low: mean < 0.7 or no similarities.
 * The mean is the arithmetic mean; comparisons allow CONFIDENCE_EPSILON of float noise.
 */
export function confidenceFromSimilarities(similarities: readonly number[]): GroundingConfidence {
  if (similarities.length === 0) return "low";
  let sum = 0;
  for (const similarity of similarities) {
    if (!Number.isFinite(similarity) || similarity < 0 || similarity > 1) {
      throw new RangeError(`similarity must be a number in [0, 1], got ${similarity}`);
    }
    sum += similarity;
  }
  const mean = sum / similarities.length;
  if (mean > HIGH_CONFIDENCE_ABOVE + CONFIDENCE_EPSILON) return "high";
  if (mean < LOW_CONFIDENCE_BELOW - CONFIDENCE_EPSILON) return "low";
  return "medium";
}

/** 0 for low, 1 for medium, 2 for high. */
export function confidenceRank(confidence: GroundingConfidence): number {
  return GROUNDING_CONFIDENCE_LEVELS.indexOf(confidence);
}
