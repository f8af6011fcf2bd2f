import { describe, expect, it } from "vitest";
import { applyIsotonic, fitIsotonic } from "../../../agents/pgc/retrieval/isotonic.js";
import { fitLogistic, logOdds, solveLinear } from "../../../agents/pgc/retrieval/logistic.js";
import { fnv1a32, mulberry32, shuffled } from "../../../agents/pgc/retrieval/prng.js";
import { expectedCalibrationError, reliabilityTable } from "../../../agents/pgc/retrieval/reliability.js";
import { firstSentence } from "../../../agents/pgc/retrieval/calibration-queries.js";

describe("seeded randomness", () => {
  it("repeats a sequence for a seed and differs across seeds", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, c)).not.toEqual(first);
    for (const x of first) expect(x >= 0 && x < 1).toBe(true);
  });

  it("shuffles a copy deterministically", () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(shuffled(items, mulberry32(1))).toEqual(shuffled(items, mulberry32(1)));
    expect([...shuffled(items, mulberry32(1))].sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("hashes with FNV-1a", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
  });
});

describe("isotonic regression", () => {
  it("is monotone, smoothed away from 0 and 1, and maps unseen scores to the nearest step", () => {
    const random = mulberry32(3);
    const scores = Array.from({ length: 2_000 }, () => random() * 10);
    const labels = scores.map((s) => (random() < s / 10 ? 1 : 0));
    const map = fitIsotonic(scores, labels, 20);
    expect(map.values.length).toBe(map.boundaries.length + 1);
    for (let i = 1; i < map.values.length; i++) expect(map.values[i]!).toBeGreaterThan(map.values[i - 1]!);
    for (let i = 1; i < map.boundaries.length; i++) expect(map.boundaries[i]!).toBeGreaterThan(map.boundaries[i - 1]!);
    expect(applyIsotonic(map, -100)).toBe(map.values[0]);
    expect(applyIsotonic(map, 100)).toBe(map.values[map.values.length - 1]);
    expect(applyIsotonic(map, 9.5)).toBeGreaterThan(0.8);
    expect(applyIsotonic(map, 0.5)).toBeLessThan(0.2);
    expect(map.values[0]!).toBeGreaterThan(0);
    expect(map.values[map.values.length - 1]!).toBeLessThan(1);
  });

  it("pools a violating pair into one step", () => {
    const map = fitIsotonic([1, 2, 3, 4], [1, 1, 0, 0], 1);
    expect(new Set(map.values).size).toBe(1);
    expect(map.values[0]).toBeCloseTo(3 / 6, 10);
  });
});

describe("logistic regression", () => {
  it("solves a linear system", () => {
    expect(solveLinear([[2, 1], [1, 3]], [3, 5]).map((x) => Number(x.toFixed(10)))).toEqual([0.8, 1.4]);
  });

  it("learns the sign and rough size of a known effect", () => {
    const random = mulberry32(9);
    const rows = Array.from({ length: 4_000 }, () => [random() * 4 - 2, random()]);
    const labels = rows.map(([x]) => (random() < 1 / (1 + Math.exp(-2 * x!)) ? 1 : 0));
    const model = fitLogistic(rows, labels);
    expect(logOdds(model, [1, 0.5])).toBeGreaterThan(1.5);
    expect(logOdds(model, [1, 0.5])).toBeLessThan(2.5);
    expect(logOdds(model, [-1, 0.5])).toBeLessThan(-1.5);
    expect(Math.abs(model.weights[1]!)).toBeLessThan(0.2);
  });
});

describe("reliability", () => {
  it("bins predictions and weighs the gaps by count", () => {
    const table = reliabilityTable([0.05, 0.05, 0.95, 0.95, 0.95, 0.95], [0, 0, 1, 1, 1, 0]);
    expect(table).toEqual([
      { lower: 0, upper: 0.1, count: 2, mean_predicted: 0.05, observed_accuracy: 0 },
      { lower: 0.9, upper: 1, count: 4, mean_predicted: 0.95, observed_accuracy: 0.75 },
    ]);
    expect(expectedCalibrationError(table)).toBeCloseTo((2 / 6) * 0.05 + (4 / 6) * 0.2, 10);
    expect(expectedCalibrationError([])).toBeNull();
  });

  it("puts a prediction of exactly 1 in the top bin", () => {
    expect(reliabilityTable([1], [1])[0]?.lower).toBe(0.9);
  });
});

describe("firstSentence", () => {
  it("takes the first sentence of the first paragraph, whitespace collapsed", () => {
    expect(firstSentence("Return the canonical path.\n\nMore detail.")).toBe("Return the canonical path.");
    expect(firstSentence("Split a\n   pathname into parts. Then more")).toBe("Split a pathname into parts.");
    expect(firstSentence("No full stop here\n\nsecond paragraph")).toBe("No full stop here");
    expect(firstSentence("Version 1.5 of x is here. Next")).toBe("Version 1.5 of x is here.");
  });
});
