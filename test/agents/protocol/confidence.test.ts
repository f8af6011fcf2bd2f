import { describe, expect, it } from "vitest";
import {
  buildGroundingEvidence,
  confidenceFromSimilarities,
  GroundingEvidenceSchema,
  HIGH_CONFIDENCE_ABOVE,
  LOW_CONFIDENCE_BELOW,
} from "../../../agents/protocol/index.js";
import { repeat, validCitation } from "./fixtures.js";

describe("confidenceFromSimilarities", () => {
  it("is low for no similarities", () => {
    expect(confidenceFromSimilarities([])).toBe("low");
  });

  it("applies the seed's thresholds: high > 0.85 >= medium >= 0.7 > low", () => {
    expect(HIGH_CONFIDENCE_ABOVE).toBe(0.85);
    expect(LOW_CONFIDENCE_BELOW).toBe(0.7);
    expect(confidenceFromSimilarities([0.86])).toBe("high");
    expect(confidenceFromSimilarities([0.85])).toBe("medium");
    expect(confidenceFromSimilarities([0.7])).toBe("medium");
    expect(confidenceFromSimilarities([0.69])).toBe("low");
    expect(confidenceFromSimilarities([1, 0.2])).toBe("low");
    expect(confidenceFromSimilarities([1, 1, 0.2])).toBe("medium");
    expect(confidenceFromSimilarities([1, 0.8])).toBe("high");
  });

  it("does not let float noise cross a threshold", () => {
    // (0.8 + 0.9) / 2 is 0.8500000000000001 in IEEE doubles; the rule says medium.
    expect((0.8 + 0.9) / 2).toBeGreaterThan(0.85);
    expect(confidenceFromSimilarities([0.8, 0.9])).toBe("medium");
    expect(confidenceFromSimilarities([0.6, 0.8])).toBe("medium");
  });

  it("rejects similarities outside [0, 1]", () => {
    expect(() => confidenceFromSimilarities([1.1])).toThrow(RangeError);
    expect(() => confidenceFromSimilarities([Number.NaN])).toThrow(RangeError);
    expect(() => confidenceFromSimilarities([-0.1])).toThrow(RangeError);
  });
});

describe("buildGroundingEvidence", () => {
  const lexical = (similarity: number) => validCitation({ similarity, similarity_kind: "calibrated_lexical", overlay: "O3" });

  it("clamps citations, lists cited overlays and computes confidence from what is sent", () => {
    const citations = [...Array.from({ length: 10 }, () => lexical(0.9)), ...Array.from({ length: 5 }, () => lexical(0.1))];
    const evidence = buildGroundingEvidence({ queries_executed: ["q"], overlays_consulted: ["O1"], citations });
    expect(evidence.citations).toHaveLength(10);
    expect(evidence.overlays_consulted).toEqual(["O1", "O3"]);
    expect(evidence.grounding_confidence).toBe("high");
    expect(GroundingEvidenceSchema.safeParse(evidence).success).toBe(true);
  });

  it("honours a lower cap but never raises confidence", () => {
    const citations = [lexical(0.9), lexical(0.95)];
    expect(buildGroundingEvidence({ queries_executed: [], citations, max_confidence: "low" }).grounding_confidence).toBe("low");
    const weak = [lexical(0.2)];
    expect(buildGroundingEvidence({ queries_executed: [], citations: weak, max_confidence: "high" }).grounding_confidence).toBe("low");
  });

  it("produces valid evidence from over-long content", () => {
    const evidence = buildGroundingEvidence({ queries_executed: [], citations: [validCitation({ content: repeat("c", 5_000) })] });
    expect(GroundingEvidenceSchema.safeParse(evidence).success).toBe(true);
  });
});
