// The seed's efficiency metrics, counted from real verdicts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateResponse, ValidationMetrics } from "../../../agents/manager/validation/index.js";
import { utf8ByteLength, type DelegatedTask, type TaskResponse } from "../../../agents/protocol/index.js";
import { answer, evidenceOf, groundedTask, inputFor, SourceTree, withoutEvidence } from "./validation-fixture.js";

let tree: SourceTree;
beforeAll(() => (tree = new SourceTree()));
afterAll(() => tree.remove());

async function recordAll(metrics: ValidationMetrics, cases: Array<[DelegatedTask, TaskResponse]>): Promise<void> {
  for (const [task, response] of cases) metrics.record(await validateResponse({ ...inputFor(tree, task, response), policy: { sampleSize: 5 } }), response, task);
}

describe("ValidationMetrics", () => {
  it("starts at zero", () => {
    expect(new ValidationMetrics().snapshot()).toMatchObject({ responses: 0, grounding_overhead: 0, by_confidence: {}, overlays_cited: {}, citations: { checked: 0, verified: 0 } });
  });

  it("reports overhead, rejection rate by confidence, overlays cited and citation outcomes", async () => {
    const good = tree.cite("kernel/dma/mapping.c", 2, 5);
    const lineage = tree.cite("kernel/dma/pool.c", 2, 2, { overlay: "O3" });
    const fake = { ...tree.cite("kernel/dma/pool.c", 4, 4), sha256: "c".repeat(64) };
    const foreign = tree.cite("mm/page_alloc.c", 2, 2);
    const low = (c: typeof good) => ({ ...c, similarity: 0.3, similarity_kind: "calibrated_lexical" as const });
    const accepted = answer([good, lineage]);
    const fabricated = answer([good, fake]);
    const outside = answer([foreign]);
    const lowOk = { ...answer([good]), grounding_evidence: evidenceOf([low(good)], { grounding_confidence: "low" }) };
    const noEvidence = withoutEvidence(answer([]));
    const blocked = answer([], { status: "blocked", result: "", error: { code: "PGC_TIMEOUT", message: "slow", retryable: true } });
    const metrics = new ValidationMetrics();
    const pgcFirst = groundedTask({ grounding: { strategy: "pgc_first" } });
    await recordAll(metrics, [[groundedTask(), accepted], [groundedTask(), fabricated], [pgcFirst, outside], [groundedTask(), lowOk], [groundedTask(), noEvidence], [groundedTask(), blocked]]);
    const snapshot = metrics.snapshot();

    expect(snapshot).toMatchObject({
      responses: 6,
      by_status: { accepted: 1, accepted_with_warnings: 1, rejected: 4 },
      rejections_by_code: { CITATION_OUT_OF_SCOPE: 1, FABRICATED_CITATION: 1, PROTOCOL_MISMATCH: 1, TASK_BLOCKED: 1 },
      answers: 5,
      answers_without_evidence: 1,
      by_confidence: {
        high: { responses: 3, rejected: 2, rejection_rate: 2 / 3 },
        low: { responses: 1, rejected: 0, rejection_rate: 0 },
        none: { responses: 1, rejected: 1, rejection_rate: 1 },
      },
      overlays_cited: { O1: 5, O3: 1 },
      overlays_verified: { O1: 3, O3: 1 },
      overlays_cited_by_strategy: { pgc_cite: { O1: 4, O3: 1 }, pgc_first: { O1: 1 } },
      citations: { cited: 6, checked: 5, verified: 4, fabricated: 1, out_of_scope: 1, unverifiable: 0, rejected_responses: 4 },
    });
    const responses = [accepted, fabricated, outside, lowOk, blocked];
    const shares = responses.map((r) => utf8ByteLength(JSON.stringify(r.grounding_evidence)) / utf8ByteLength(JSON.stringify(r)));
    expect(snapshot.grounding_overhead).toBeCloseTo(shares.reduce((a, b) => a + b, 0) / shares.length, 12);
  });

  it("hands out copies that later records do not change", async () => {
    const metrics = new ValidationMetrics();
    const good = tree.cite("kernel/dma/mapping.c", 2, 5);
    await recordAll(metrics, [[groundedTask(), answer([good])]]);
    const first = metrics.snapshot();
    await recordAll(metrics, [[groundedTask(), answer([good])]]);
    expect(first.responses).toBe(1);
    expect(first.overlays_cited).toEqual({ O1: 1 });
    expect(metrics.snapshot().overlays_cited).toEqual({ O1: 2 });
  });
});
