// The manager's checklist end to end on real files: status, evidence, overlays, confidence, policy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_VALIDATION_POLICY, REJECTION_CODES, REJECTION_PRECEDENCE, resolvePolicy, validateResponse, ValidationPolicyError } from "../../../agents/manager/validation/index.js";
import type { Citation, TaskResponse } from "../../../agents/protocol/index.js";
import { answer, evidenceOf, groundedTask, inputFor, SourceTree, withoutEvidence } from "./validation-fixture.js";

let tree: SourceTree;
let good: Citation;
beforeAll(() => {
  tree = new SourceTree();
  good = tree.cite("kernel/dma/mapping.c", 2, 5);
});
afterAll(() => tree.remove());

const lowConfidence = (response: TaskResponse, citations: Citation[]): TaskResponse => ({
  ...response,
  grounding_evidence: evidenceOf(citations.map((c) => ({ ...c, similarity: 0.4, similarity_kind: "calibrated_lexical" })), { grounding_confidence: "low" }),
});

describe("validateResponse: a good answer", () => {
  it("accepts an answer whose citations hash to the files, with every check recorded", async () => {
    const verdict = await validateResponse(inputFor(tree, groundedTask(), answer([good])));
    expect(verdict).toMatchObject({ status: "accepted", reasons: [], warnings: [], citations_checked: 1, citations_verified: 1, needs_followup: [] });
    expect(verdict.code).toBeUndefined();
    expect(verdict.citations).toEqual([expect.objectContaining({ file_path: "kernel/dma/mapping.c", outcome: "verified" })]);
    expect(verdict.checks.every((check) => check.passed)).toBe(true);
    expect(verdict.checks.map((check) => check.name)).toEqual(expect.arrayContaining(["task_id", "status", "evidence_present", "confidence", "citations_in_scope", "citations_verified"]));
  });

  it("accepts medium confidence without a warning (seed 002 §5.5)", async () => {
    const lexical: Citation = { ...good, similarity: 0.8, similarity_kind: "calibrated_lexical" };
    const response = { ...answer([good]), grounding_evidence: evidenceOf([lexical], { grounding_confidence: "medium" }) };
    expect((await validateResponse(inputFor(tree, groundedTask({ critical: true }), response))).status).toBe("accepted");
  });
});

describe("validateResponse: status sanity", () => {
  it("rejects failed and blocked answers with the worker's error copied for routing", async () => {
    const failed = answer([], { status: "failed", result: "", error: { code: "EXECUTOR_FAILED", message: "boom", retryable: false } });
    const verdict = await validateResponse(inputFor(tree, groundedTask(), withoutEvidence(failed)));
    expect(verdict).toMatchObject({ status: "rejected", code: "TASK_FAILED", worker_error: { code: "EXECUTOR_FAILED", retryable: false } });
    expect(verdict.reasons[0]).toMatch(/EXECUTOR_FAILED: boom.*not retryable/);
    const blocked = answer([], { status: "blocked", result: "", error: { code: "PGC_TIMEOUT", message: "ask timed out", retryable: true } });
    const blockedVerdict = await validateResponse(inputFor(tree, groundedTask(), blocked));
    expect(blockedVerdict).toMatchObject({ status: "rejected", code: "TASK_BLOCKED", worker_error: { retryable: true } });
    expect(blockedVerdict.reasons[0]).toMatch(/retryable on another replica/);
  });

  it("turns needs_clarification into CLARIFICATION_NEEDED with the question to answer", async () => {
    const asking = withoutEvidence(answer([], { status: "needs_clarification", result: "", clarification_request: { question: "Which driver?", options: ["e1000", "e1000e"] } }));
    const verdict = await validateResponse(inputFor(tree, groundedTask(), asking));
    expect(verdict).toMatchObject({ status: "rejected", code: "CLARIFICATION_NEEDED" });
    expect(verdict.needs_followup[0]).toMatch(/Which driver\? \(options: e1000 \| e1000e\)/);
    expect(verdict.reasons.join(" ")).not.toMatch(/PROTOCOL_MISMATCH|evidence/);
  });

  it("accepts a partial answer with warnings and lists what remains", async () => {
    const task = groundedTask({ acceptance_criteria: ["names dma_alloc_coherent", "names dma_pool_grow"] });
    const partial = answer([good], { status: "partial", error: { code: "DEADLINE_EXCEEDED", message: "ran out of time", retryable: true } });
    const verdict = await validateResponse(inputFor(tree, task, partial));
    expect(verdict.status).toBe("accepted_with_warnings");
    expect(verdict.needs_followup).toEqual(['the worker stopped short: DEADLINE_EXCEEDED: ran out of time', 'meet the criterion "names dma_pool_grow"']);
  });

  it("rejects an answer to another task as INVALID_RESPONSE", async () => {
    const verdict = await validateResponse(inputFor(tree, groundedTask(), answer([good], { task_id: "T-other" })));
    expect(verdict).toMatchObject({ status: "rejected", code: "INVALID_RESPONSE", citations_checked: 0 });
  });

  it("rejects a confidence claimed above what the citations' similarities support", async () => {
    const inflated = { ...answer([good]), grounding_evidence: evidenceOf([{ ...good, similarity: 0.5, similarity_kind: "calibrated_lexical" }], { grounding_confidence: "high" }) };
    const verdict = await validateResponse(inputFor(tree, groundedTask(), inflated));
    expect(verdict).toMatchObject({ status: "rejected", code: "INVALID_RESPONSE" });
    expect(verdict.reasons[0]).toMatch(/"high" is above the "low"/);
  });
});

describe("validateResponse: evidence required (seed 002 §5.1)", () => {
  it("rejects a legacy answer without evidence as PROTOCOL_MISMATCH, asking for a 2.0 worker", async () => {
    const legacy = { ...withoutEvidence(answer([])), protocol_version: "1.0-legacy" as const };
    const verdict = await validateResponse(inputFor(tree, groundedTask(), legacy));
    expect(verdict).toMatchObject({ status: "rejected", code: "PROTOCOL_MISMATCH", citations_checked: 0 });
    expect(verdict.reasons[0]).toMatch(/legacy mode.*re-assign the task to a worker whose protocol_version is "2\.0"/);
  });

  it("rejects a 2.0 answer whose evidence cites nothing, and one with no evidence at all", async () => {
    const empty = await validateResponse(inputFor(tree, groundedTask(), answer([], { grounding_evidence: evidenceOf([], { grounding_confidence: "low" }) })));
    expect(empty).toMatchObject({ code: "PROTOCOL_MISMATCH" });
    expect(empty.reasons[0]).toMatch(/cites nothing/);
    const none = await validateResponse(inputFor(tree, groundedTask(), withoutEvidence(answer([]))));
    expect(none.reasons[0]).toMatch(/no grounding_evidence/);
  });

  it("lets a task that does not require evidence pass without it, warning about a legacy answer", async () => {
    const optional = groundedTask({ grounding: { strategy: "pgc_first" } });
    expect((await validateResponse(inputFor(tree, optional, withoutEvidence(answer([]))))).status).toBe("accepted");
    const legacy = { ...withoutEvidence(answer([])), protocol_version: "1.0-legacy" as const };
    const verdict = await validateResponse(inputFor(tree, optional, legacy));
    expect(verdict.status).toBe("accepted_with_warnings");
    expect(verdict.warnings[0]).toMatch(/legacy mode/);
    const untouched = groundedTask({ grounding: undefined });
    expect((await validateResponse(inputFor(tree, untouched, legacy))).status).toBe("accepted");
  });
});

describe("validateResponse: confidence policy (seed 002 §5.5)", () => {
  it("rejects low confidence on a critical task and warns on a non-critical one", async () => {
    const response = lowConfidence(answer([good]), [good]);
    expect(await validateResponse(inputFor(tree, groundedTask({ critical: true }), response))).toMatchObject({ status: "rejected", code: "LOW_CONFIDENCE_CRITICAL" });
    const ordinary = await validateResponse(inputFor(tree, groundedTask(), response));
    expect(ordinary.status).toBe("accepted_with_warnings");
    expect(ordinary.warnings).toEqual([expect.stringMatching(/low grounding confidence/)]);
  });

  it("warns instead under the policy lowConfidenceCritical: warn", async () => {
    const response = lowConfidence(answer([good]), [good]);
    const verdict = await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), response), policy: { lowConfidenceCritical: "warn" } });
    expect(verdict.status).toBe("accepted_with_warnings");
  });

  it("refuses a policy it does not understand, with a named error", async () => {
    const input = inputFor(tree, groundedTask(), answer([good]));
    await expect(validateResponse({ ...input, policy: { sampleSize: 0 } })).rejects.toBeInstanceOf(ValidationPolicyError);
    await expect(validateResponse({ ...input, policy: { lowConfidenceCritical: "maybe" as "warn" } })).rejects.toThrow(/lowConfidenceCritical/);
    await expect(validateResponse({ ...input, policy: { sample: 3 } as object })).rejects.toThrow(/sample/);
    expect((await validateResponse({ ...input, policy: { sampleSize: undefined } })).status).toBe("accepted");
  });

  it("resolves a policy once: a resolved policy comes back as it is, frozen, and the defaults fill what is left out", () => {
    const policy = resolvePolicy({ sampleSize: 3 });
    expect(policy).toEqual({ lowConfidenceCritical: "reject", sampleSize: 3 });
    expect(Object.isFrozen(policy)).toBe(true);
    expect(resolvePolicy(policy)).toBe(policy);
    expect(resolvePolicy(undefined)).toBe(DEFAULT_VALIDATION_POLICY);
    // An object that merely looks resolved is still checked.
    expect(() => resolvePolicy(Object.freeze({ lowConfidenceCritical: "reject", sampleSize: 0 }) as never)).toThrow(ValidationPolicyError);
  });
});

describe("validateResponse: overlay hints", () => {
  const hinted = (critical: boolean) => groundedTask({ critical, grounding: { strategy: "pgc_cite", evidence_required: true, overlay_hints: ["O3"] } });

  it("passes when a hinted overlay was consulted", async () => {
    const response = { ...answer([good]), grounding_evidence: evidenceOf([good], { overlays_consulted: ["O1", "O3"] }) };
    expect((await validateResponse(inputFor(tree, hinted(true), response))).status).toBe("accepted");
  });

  it("warns when hints were ignored silently, and rejects that on a critical task", async () => {
    const verdict = await validateResponse(inputFor(tree, hinted(false), answer([good])));
    expect(verdict.status).toBe("accepted_with_warnings");
    expect(verdict.warnings[0]).toMatch(/O3.*no overlay_warnings say why/);
    expect(await validateResponse(inputFor(tree, hinted(true), answer([good])))).toMatchObject({ status: "rejected", code: "OVERLAY_HINTS_IGNORED" });
  });

  it("treats a declared O1 fallback as a warning, even on a critical task (seed 002 §5.3)", async () => {
    const fallback = answer([good], { overlay_warnings: ["O3 not available - used O1 fallback"] });
    const verdict = await validateResponse(inputFor(tree, hinted(true), fallback));
    expect(verdict.status).toBe("accepted_with_warnings");
    expect(verdict.warnings[0]).toMatch(/the worker says: O3 not available/);
  });
});

describe("rejection codes", () => {
  it("are listed most decisive first, each with what the manager does next", () => {
    expect(REJECTION_PRECEDENCE[0]).toBe("INVALID_RESPONSE");
    expect(REJECTION_PRECEDENCE.indexOf("PROTOCOL_MISMATCH")).toBeLessThan(REJECTION_PRECEDENCE.indexOf("FABRICATED_CITATION"));
    for (const code of REJECTION_PRECEDENCE) expect(REJECTION_CODES[code].length).toBeGreaterThan(20);
  });

  it("report the most decisive code first when several apply", async () => {
    const fabricated = { ...good, sha256: "a".repeat(64) };
    const response = lowConfidence(answer([fabricated]), [fabricated]);
    const verdict = await validateResponse(inputFor(tree, groundedTask({ critical: true }), response));
    expect(verdict.code).toBe("FABRICATED_CITATION");
    expect(verdict.reasons).toHaveLength(2);
    expect(verdict.reasons[0]).toMatch(/stale or fabricated/);
    expect(verdict.reasons[1]).toMatch(/low grounding confidence/);
  });
});
