// Per-scope similarity calibration: fit P(hit is the right document) from the corpus itself, measure it on a
// held-out split, and turn raw BM25F hits into similarities that mean what they say.
import { z } from "zod";
import type { IndexDoc } from "../types.js";
import {
  CALIBRATION_FORMAT,
  CALIBRATION_FORMAT_VERSION,
  type Calibration,
  HIGH_SIMILARITY,
  type CalibrationReport,
  type IndexSignature,
  type RandomQueryReport,
  type SimilarityKind,
} from "./calibration-format.js";
import { buildCalibrationQueries, type CalibrationQuery, type CalibrationQueryKind } from "./calibration-queries.js";
import { IndexMismatchError, InvalidRetrievalOptionsError } from "./errors.js";
import { featureVector } from "./hit-features.js";
import { applyIsotonic, fitIsotonic } from "./isotonic.js";
import type { HitFeatures, LexicalHit, LexicalIndex } from "./lexical-index.js";
import { fitLogistic, logOdds } from "./logistic.js";
import { expectedCalibrationError, reliabilityTable } from "./reliability.js";

/** Below this many doc-summary queries a fitted map would be noise; similarity falls back to coverage. */
export const MIN_CALIBRATION_PAIRS = 30;
/** The coverage fall-back can never claim high confidence: full coverage maps to this. */
export const COVERAGE_CEILING = 0.8;
export const DEFAULT_CALIBRATION_SEED = 20_240_611;
export const DEFAULT_HELDOUT_PERCENT = 30;
/** Enough queries for a stable map (a few hundred per reliability bin) while keeping a fit to seconds. */
export const DEFAULT_MAX_SUMMARY_QUERIES = 3_000;
/** One random query for every two doc-summary queries: enough for the map to learn what a chance match looks like. */
export const DEFAULT_NEGATIVE_RATIO = 0.5;
/** Every hit a worker typically shows is calibrated, not only the first. */
export const DEFAULT_HITS_PER_QUERY = 10;
/** The isotonic map never rests a step on fewer samples than this. */
export const MIN_ISOTONIC_BIN_SAMPLES = 20;

const optionsSchema = z.object({
  seed: z.number().int().default(DEFAULT_CALIBRATION_SEED),
  heldoutPercent: z.number().int().min(1).max(99).default(DEFAULT_HELDOUT_PERCENT),
  maxSummaryQueries: z.number().int().positive().default(DEFAULT_MAX_SUMMARY_QUERIES),
  negativeRatio: z.number().min(0).max(10).default(DEFAULT_NEGATIVE_RATIO),
  hitsPerQuery: z.number().int().min(2).max(100).default(DEFAULT_HITS_PER_QUERY),
  minPairs: z.number().int().min(1).default(MIN_CALIBRATION_PAIRS),
});

export type FitCalibrationOptions = z.input<typeof optionsSchema>;
type FitOptions = z.output<typeof optionsSchema>;

export interface ScoredHit extends LexicalHit {
  similarity: number;
  similarity_kind: SimilarityKind;
}

interface Sample {
  features: HitFeatures;
  correct: number;
  top: boolean;
  heldout: boolean;
  kind: CalibrationQueryKind;
}

type CalibrationCore = Omit<Calibration, "report">;

/** The similarity a calibration gives one hit. */
export function similarityOf(calibration: CalibrationCore, features: HitFeatures): number {
  const { model, isotonic } = calibration;
  if (calibration.kind === "coverage" || model === null || isotonic === null) {
    return calibration.coverage_ceiling * Math.min(1, Math.max(0, features.coverage));
  }
  return applyIsotonic(isotonic, logOdds(model, featureVector(features)));
}

/** Attaches a similarity in [0, 1] and its kind to each hit; the hits themselves are not modified. */
export function scoreHits(calibration: Calibration, hits: readonly LexicalHit[]): ScoredHit[] {
  return hits.map((hit) => ({ ...hit, similarity: similarityOf(calibration, hit.features), similarity_kind: calibration.kind }));
}

function collectSamples(index: LexicalIndex, queries: readonly CalibrationQuery[], hitsPerQuery: number): Sample[] {
  const samples: Sample[] = [];
  for (const query of queries) {
    const { hits } = index.searchTerms(query.terms, { topK: hitsPerQuery });
    hits.forEach((hit, rank) => {
      const correct = hit.doc_id === query.target ? 1 : 0;
      samples.push({ features: hit.features, correct, top: rank === 0, heldout: query.heldout, kind: query.kind });
    });
  }
  return samples;
}

function accuracyAtOne(index: LexicalIndex, queries: readonly CalibrationQuery[]): number | null {
  const heldout = queries.filter((query) => query.heldout && query.target !== undefined);
  if (heldout.length === 0) return null;
  const right = heldout.filter((query) => index.searchTerms(query.terms, { topK: 1 }).hits[0]?.doc_id === query.target);
  return right.length / heldout.length;
}

export function indexSignature(index: LexicalIndex): IndexSignature {
  return { doc_count: index.docCount, term_count: index.termCount, posting_count: index.postingCount };
}

/** Throws IndexMismatchError when `calibration` was fitted on an index other than `index`. */
export function assertCalibrationFits(calibration: Calibration, index: LexicalIndex): void {
  const expected = calibration.index_signature;
  const actual = indexSignature(index);
  if (expected.doc_count !== actual.doc_count || expected.term_count !== actual.term_count || expected.posting_count !== actual.posting_count) {
    throw new IndexMismatchError(
      `the calibration was fitted on another index (${JSON.stringify(expected)}, this one is ${JSON.stringify(actual)}); refit it`,
    );
  }
}

function fitCore(index: LexicalIndex, train: readonly Sample[], summaryQueries: number, options: FitOptions): { core: CalibrationCore; fallback?: string } {
  const coverage: CalibrationCore = {
    format: CALIBRATION_FORMAT,
    version: CALIBRATION_FORMAT_VERSION,
    kind: "coverage",
    model: null,
    isotonic: null,
    coverage_ceiling: COVERAGE_CEILING,
    index_signature: indexSignature(index),
  };
  if (summaryQueries < options.minPairs) {
    return { core: coverage, fallback: `${summaryQueries} doc-summary queries, fewer than the ${options.minPairs} a fit needs` };
  }
  const labels = train.map((sample) => sample.correct);
  if (!labels.includes(1) || !labels.includes(0)) {
    return { core: coverage, fallback: "the training split holds only right or only wrong hits" };
  }
  const rows = train.map((sample) => featureVector(sample.features));
  const model = fitLogistic(rows, labels);
  const isotonic = fitIsotonic(rows.map((row) => logOdds(model, row)), labels, MIN_ISOTONIC_BIN_SAMPLES);
  return { core: { ...coverage, kind: "calibrated_lexical", model, isotonic } };
}

function countQueries(queries: readonly CalibrationQuery[]): CalibrationReport["queries"] {
  const count = (random: boolean, heldout: boolean): number =>
    queries.filter((query) => (query.target === undefined) === random && query.heldout === heldout).length;
  return { summary_train: count(false, false), summary_heldout: count(false, true), random_train: count(true, false), random_heldout: count(true, true) };
}

function randomQueryReport(heldout: readonly Sample[], predicted: readonly number[], kind: CalibrationQueryKind): RandomQueryReport {
  const all = predicted.filter((_, i) => heldout[i]!.kind === kind);
  const top1 = predicted.filter((_, i) => heldout[i]!.kind === kind && heldout[i]!.top);
  const mean = top1.reduce((sum, p) => sum + p, 0) / top1.length;
  return {
    queries_with_hits: top1.length,
    max_similarity: all.length === 0 ? null : Math.max(...all),
    mean_top1_similarity: top1.length === 0 ? null : mean,
    share_top1_high: top1.length === 0 ? null : top1.filter((p) => p >= HIGH_SIMILARITY).length / top1.length,
  };
}

function heldoutReport(core: CalibrationCore, heldout: readonly Sample[], accuracy: number | null): CalibrationReport["heldout"] {
  const predicted = heldout.map((sample) => similarityOf(core, sample.features));
  const correct = heldout.map((sample) => sample.correct);
  const top = heldout.map((sample, i) => ({ sample, p: predicted[i]! })).filter(({ sample }) => sample.top);
  const reliabilityTop1 = reliabilityTable(top.map(({ p }) => p), top.map(({ sample }) => sample.correct));
  const reliabilityAll = reliabilityTable(predicted, correct);
  return {
    accuracy_at_1: accuracy,
    ece_top1: expectedCalibrationError(reliabilityTop1),
    reliability_top1: reliabilityTop1,
    ece_all_hits: expectedCalibrationError(reliabilityAll),
    reliability_all_hits: reliabilityAll,
    random_words: randomQueryReport(heldout, predicted, "random_words"),
    corpus_words: randomQueryReport(heldout, predicted, "corpus_tokens"),
  };
}

function parseOptions(options: FitCalibrationOptions): FitOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new InvalidRetrievalOptionsError("invalid calibration options", { cause: parsed.error });
  return parsed.data;
}

/**
 * Fits a calibration for one scope. Queries are doc-comment summaries (target: their own document) plus random
 * queries (no target); the map is fitted on the training split and measured on the held-out one, and the
 * measured map is the one returned (not refitted on all data), so the report describes what is deployed.
 */
export function fitCalibration(index: LexicalIndex, docs: readonly IndexDoc[], options: FitCalibrationOptions = {}): Calibration {
  const opts = parseOptions(options);
  const queries = buildCalibrationQueries(index, docs, {
    seed: opts.seed,
    heldoutPercent: opts.heldoutPercent,
    maxSummaryQueries: opts.maxSummaryQueries,
    negativeRatio: opts.negativeRatio,
  });
  const samples = collectSamples(index, queries, opts.hitsPerQuery);
  const summaryQueries = queries.filter((query) => query.target !== undefined).length;
  const { core, fallback } = fitCore(index, samples.filter((sample) => !sample.heldout), summaryQueries, opts);
  const heldout = samples.filter((sample) => sample.heldout);
  const report: CalibrationReport = {
    seed: opts.seed,
    hits_per_query: opts.hitsPerQuery,
    queries: countQueries(queries),
    samples: { train: samples.length - heldout.length, heldout: heldout.length },
    heldout: heldoutReport(core, heldout, accuracyAtOne(index, queries)),
    ...(fallback === undefined ? {} : { fallback_reason: fallback }),
  };
  return Object.freeze({ ...core, report });
}
