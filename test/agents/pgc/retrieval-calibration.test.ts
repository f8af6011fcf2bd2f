// Calibration measured on real text: IndexDocs extracted from the Python standard library on this machine.
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  calibrationFromJSON,
  CalibrationFormatError,
  COVERAGE_CEILING,
  fitCalibration,
  LexicalIndex,
  retrieve,
  scoreHits,
  type Calibration,
  type ReliabilityBin,
} from "../../../agents/pgc/retrieval/index.js";
import { mulberry32, randomInt } from "../../../agents/pgc/retrieval/prng.js";
import type { IndexDoc } from "../../../agents/pgc/types.js";
import { extractPythonCorpus, PYTHON_STDLIB_ROOT } from "../../../scripts/bench/pgc-retrieval-corpus.js";

/**
 * Held-out ECE bound. About 1,300 held-out top-1 samples in 10 bins leave a sampling error of roughly 0.02–0.03
 * on ECE, and the fitted map measures about 0.02; 0.1 leaves room for that noise while still failing a raw
 * score used as a probability (its ECE is checked below to be far worse).
 */
const MAX_HELDOUT_ECE = 0.1;
/** "High" as a worker would present it. */
const HIGH = 0.7;
/** Everyday words kept apart from the list calibration trains on, so this is not a test on training data. */
const TEST_WORDS = [
  "anchor", "badger", "bamboo", "basket", "beetle", "biscuit", "bonnet", "bramble", "buffalo", "cactus", "caravan",
  "carrot", "cedar", "chestnut", "cinnamon", "clover", "cobbler", "coral", "crocodile", "daisy", "dune", "falcon",
  "fern", "flamingo", "gravel", "hammock", "hazel", "heron", "iceberg", "ivy", "jasmine", "kangaroo", "kayak",
  "koala", "lagoon", "lavender", "lobster", "mango", "maple", "mosquito", "nutmeg", "oak", "octopus", "otter",
  "panda", "pebble", "pelican", "penguin", "plum", "quilt", "raccoon", "raisin", "saffron", "scarf", "seashell",
  "slipper", "spruce", "thistle", "toad", "trout", "vanilla", "walrus", "yogurt",
];
const RANDOM_QUERIES = 20;

const hasStdlib = existsSync(PYTHON_STDLIB_ROOT);

function pooled(table: readonly ReliabilityBin[], from: number): { count: number; predicted: number; observed: number } {
  const bins = table.filter((bin) => bin.lower >= from);
  const count = bins.reduce((sum, bin) => sum + bin.count, 0);
  const predicted = bins.reduce((sum, bin) => sum + bin.mean_predicted * bin.count, 0) / count;
  const observed = bins.reduce((sum, bin) => sum + bin.observed_accuracy * bin.count, 0) / count;
  return { count, predicted, observed };
}

describe.skipIf(!hasStdlib)(`calibration on ${PYTHON_STDLIB_ROOT}`, () => {
  let docs: IndexDoc[];
  let index: LexicalIndex;
  let calibration: Calibration;

  beforeAll(() => {
    docs = extractPythonCorpus(PYTHON_STDLIB_ROOT);
    index = LexicalIndex.build(docs);
    calibration = fitCalibration(index, docs);
  });

  it("fits a calibrated map from thousands of doc-summary queries", () => {
    expect(calibration.kind).toBe("calibrated_lexical");
    expect(calibration.report.fallback_reason).toBeUndefined();
    expect(calibration.report.queries.summary_heldout).toBeGreaterThan(500);
    expect(calibration.report.queries.random_heldout).toBeGreaterThan(200);
  });

  it("is calibrated on the held-out split", () => {
    const { heldout } = calibration.report;
    expect(heldout.ece_top1).not.toBeNull();
    expect(heldout.ece_top1!).toBeLessThan(MAX_HELDOUT_ECE);
    expect(heldout.ece_all_hits!).toBeLessThan(MAX_HELDOUT_ECE);
    expect(heldout.accuracy_at_1!).toBeGreaterThan(0.5);
  });

  it("is mostly right when it says high", () => {
    const high = pooled(calibration.report.heldout.reliability_top1, HIGH);
    expect(high.count).toBeGreaterThan(100);
    expect(high.observed).toBeGreaterThan(0.85);
    expect(Math.abs(high.observed - high.predicted)).toBeLessThan(0.05);
  });

  it("beats the uncalibrated coverage score on the same held-out split", () => {
    const coverage = fitCalibration(index, docs, { minPairs: Number.MAX_SAFE_INTEGER });
    expect(coverage.kind).toBe("coverage");
    expect(coverage.report.heldout.ece_top1!).toBeGreaterThan(MAX_HELDOUT_ECE);
    expect(coverage.report.heldout.ece_top1!).toBeGreaterThan(2 * calibration.report.heldout.ece_top1!);
  });

  it("scores every hit of 20 seeded random-word queries low", () => {
    const random = mulberry32(20_250_101);
    const pgc = { index, calibration, docs: new Map(docs.map((doc) => [doc.id, doc])) };
    const similarities: number[] = [];
    for (let q = 0; q < RANDOM_QUERIES; q++) {
      const words = Array.from({ length: 2 + randomInt(random, 4) }, () => TEST_WORDS[randomInt(random, TEST_WORDS.length)]);
      for (const hit of retrieve(pgc, words.join(" "), { topK: 10 }).hits) {
        expect(hit.similarity_kind).toBe("calibrated_lexical");
        similarities.push(hit.similarity);
      }
    }
    expect(similarities.length).toBeGreaterThan(0);
    expect(Math.max(...similarities)).toBeLessThan(HIGH);
    expect(calibration.report.heldout.random_words.share_top1_high).toBe(0);
  });

  it("scores a real doc summary high and names the similarity kind", () => {
    const result = index.search("canonical path of the specified filename, eliminating any symbolic links", { topK: 3 });
    const [top] = scoreHits(calibration, result.hits);
    expect(top?.doc_id).toMatch(/^O1:posixpath\.py:.*:realpath$/);
    expect(top?.similarity).toBeGreaterThanOrEqual(HIGH);
    expect(top?.similarity_kind).toBe("calibrated_lexical");
  });

  it("survives a JSON round trip unchanged", () => {
    const reloaded = calibrationFromJSON(JSON.parse(JSON.stringify(calibration)));
    expect(reloaded).toEqual(calibration);
    const hits = index.search("decode a base64 string", { topK: 5 }).hits;
    expect(scoreHits(reloaded, hits)).toEqual(scoreHits(calibration, hits));
  });

  it("rejects a malformed calibration with a named error", () => {
    const json = JSON.parse(JSON.stringify(calibration)) as Record<string, unknown>;
    expect(() => calibrationFromJSON({ ...json, version: 99 })).toThrow(CalibrationFormatError);
    expect(() => calibrationFromJSON({ ...json, isotonic: null })).toThrow(CalibrationFormatError);
    expect(() => calibrationFromJSON({ ...json, model: { means: [], scales: [], weights: [], bias: 0 } })).toThrow(CalibrationFormatError);
  });
});

describe.skipIf(!hasStdlib)("calibration on a small scope", () => {
  it("falls back to a capped coverage score when there are too few doc summaries", () => {
    const docs = extractPythonCorpus(PYTHON_STDLIB_ROOT, { only: ["json"] });
    const index = LexicalIndex.build(docs);
    const calibration = fitCalibration(index, docs);
    expect(calibration.kind).toBe("coverage");
    expect(calibration.report.fallback_reason).toMatch(/fewer than the 30/);
    // Even a query that is a document's own doc comment, word for word, cannot reach "high".
    for (const doc of docs.filter((d) => (d.fields.doc ?? "").length > 0)) {
      for (const hit of scoreHits(calibration, index.search(doc.fields.doc ?? "", { topK: 3 }).hits)) {
        expect(hit.similarity_kind).toBe("coverage");
        expect(hit.similarity).toBeLessThanOrEqual(COVERAGE_CEILING);
        expect(hit.similarity).toBeLessThan(0.85);
      }
    }
  });

  it("is deterministic: the same corpus and seed give the same calibration JSON", () => {
    const fit = (seed?: number): string => {
      const docs = extractPythonCorpus(PYTHON_STDLIB_ROOT, { only: ["json", "email"] });
      const calibration = fitCalibration(LexicalIndex.build(docs), docs, seed === undefined ? {} : { seed });
      return JSON.stringify(calibration);
    };
    const first = fit();
    expect(JSON.parse(first)).toHaveProperty("kind", "calibrated_lexical");
    expect(fit()).toBe(first);
    expect(fit(7)).not.toBe(first);
  });
});
