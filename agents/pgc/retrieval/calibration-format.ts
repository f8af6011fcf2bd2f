// The serialized calibration: the fitted map, its measured quality, and how to read a stored one back.
import { z } from "zod";
import { CalibrationFormatError } from "./errors.js";
import { HIT_FEATURE_NAMES } from "./hit-features.js";
import type { IsotonicMap } from "./isotonic.js";
import type { LogisticModel } from "./logistic.js";
import type { ReliabilityBin } from "./reliability.js";

export const CALIBRATION_FORMAT = "lattice-pgc-calibration";
export const CALIBRATION_FORMAT_VERSION = 1;

/**
 * How a similarity was obtained. "exact": a named symbol or edge, a fact (1.0). "calibrated_lexical": an estimated
 * probability that the hit is the document the query describes. "coverage": an idf-weighted share of query terms
 * matched, capped below "high", used when the scope had too few doc comments to fit a calibration.
 */
export type SimilarityKind = "exact" | "calibrated_lexical" | "coverage";

/** Similarities given to queries that have no right answer: they should be low. */
export interface RandomQueryReport {
  /** Queries that returned at least one hit. */
  queries_with_hits: number;
  max_similarity: number | null;
  mean_top1_similarity: number | null;
  /** Share of those queries whose top hit reached HIGH_SIMILARITY. */
  share_top1_high: number | null;
}

/** What "high" means in the reports: at or above this, a worker may present a hit as likely right. */
export const HIGH_SIMILARITY = 0.7;

export interface HeldoutReport {
  /** Share of held-out doc-summary queries whose top hit is their own document. */
  accuracy_at_1: number | null;
  /** ECE over the top hit of every held-out query (doc-summary and random). */
  ece_top1: number | null;
  reliability_top1: ReliabilityBin[];
  /** ECE over every returned hit (all ranks) of every held-out query. */
  ece_all_hits: number | null;
  reliability_all_hits: ReliabilityBin[];
  /** How held-out random English-word queries (no right answer) were scored. */
  random_words: RandomQueryReport;
  /** The same for random corpus words (drawn by document frequency, whole identifiers excluded). */
  corpus_words: RandomQueryReport;
}

export interface CalibrationReport {
  seed: number;
  hits_per_query: number;
  queries: { summary_train: number; summary_heldout: number; random_train: number; random_heldout: number };
  samples: { train: number; heldout: number };
  heldout: HeldoutReport;
  /** Why the calibration fell back to coverage, when it did. */
  fallback_reason?: string;
}

/** Cheap identity of an index: enough to catch a calibration stored beside a rebuilt index. */
export interface IndexSignature {
  doc_count: number;
  term_count: number;
  posting_count: number;
}

export interface Calibration {
  format: typeof CALIBRATION_FORMAT;
  version: typeof CALIBRATION_FORMAT_VERSION;
  kind: Exclude<SimilarityKind, "exact">;
  /** Combines hit features into one log-odds score; null for the coverage fall-back. */
  model: LogisticModel | null;
  /** Maps the log-odds score to P(correct); null for the coverage fall-back. */
  isotonic: IsotonicMap | null;
  /** Coverage similarities are scaled into [0, coverage_ceiling]. */
  coverage_ceiling: number;
  /** The index the map was fitted on; a map read with another index would mean nothing. */
  index_signature: IndexSignature;
  report: CalibrationReport;
}

const bin = z.object({
  lower: z.number(),
  upper: z.number(),
  count: z.number(),
  mean_predicted: z.number(),
  observed_accuracy: z.number(),
});

const randomReport = z.object({
  queries_with_hits: z.number(),
  max_similarity: z.number().nullable(),
  mean_top1_similarity: z.number().nullable(),
  share_top1_high: z.number().nullable(),
});

const calibrationSchema = z.object({
  format: z.literal(CALIBRATION_FORMAT),
  version: z.literal(CALIBRATION_FORMAT_VERSION),
  kind: z.enum(["calibrated_lexical", "coverage"]),
  model: z
    .object({ means: z.array(z.number()), scales: z.array(z.number()), weights: z.array(z.number()), bias: z.number() })
    .nullable(),
  isotonic: z.object({ boundaries: z.array(z.number()), values: z.array(z.number().min(0).max(1)) }).nullable(),
  coverage_ceiling: z.number().min(0).max(1),
  index_signature: z.object({ doc_count: z.number(), term_count: z.number(), posting_count: z.number() }),
  report: z.object({
    seed: z.number(),
    hits_per_query: z.number(),
    queries: z.object({
      summary_train: z.number(),
      summary_heldout: z.number(),
      random_train: z.number(),
      random_heldout: z.number(),
    }),
    samples: z.object({ train: z.number(), heldout: z.number() }),
    heldout: z.object({
      accuracy_at_1: z.number().nullable(),
      ece_top1: z.number().nullable(),
      reliability_top1: z.array(bin),
      ece_all_hits: z.number().nullable(),
      reliability_all_hits: z.array(bin),
      random_words: randomReport,
      corpus_words: randomReport,
    }),
    fallback_reason: z.string().optional(),
  }),
});

/** Reads a stored calibration; throws CalibrationFormatError on anything malformed or inconsistent. */
export function calibrationFromJSON(json: unknown): Calibration {
  const parsed = calibrationSchema.safeParse(json);
  if (!parsed.success) {
    throw new CalibrationFormatError(`not a ${CALIBRATION_FORMAT} v${CALIBRATION_FORMAT_VERSION}`, { cause: parsed.error });
  }
  const calibration = parsed.data as Calibration;
  if (calibration.kind === "calibrated_lexical") {
    const { model, isotonic } = calibration;
    if (model === null || isotonic === null) throw new CalibrationFormatError("a calibrated_lexical calibration needs a model and a map");
    if (isotonic.values.length !== isotonic.boundaries.length + 1) throw new CalibrationFormatError("map values do not match its boundaries");
    const width = HIT_FEATURE_NAMES.length;
    if ([model.means, model.scales, model.weights].some((list) => list.length !== width)) {
      throw new CalibrationFormatError(`the model must have ${width} features (${HIT_FEATURE_NAMES.join(", ")})`);
    }
  }
  return Object.freeze(calibration);
}
