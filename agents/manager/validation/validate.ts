// The manager's checklist for one TaskResponse (seed 002 §7, made concrete; see docs/VALIDATION.md).
import { requiresEvidence, type Citation, type DelegatedTask, type TaskResponse } from "../../protocol/index.js";
import { checkCitations, sample, type CitationOutcome } from "./citations.js";
import { checkCriterion } from "./criteria.js";
import { DEFAULT_VALIDATION_POLICY, type Check, type RejectionCode, type ValidationPolicy, type Verdict } from "./verdict.js";

export interface ValidationInput {
  task: DelegatedTask;
  response: TaskResponse;
  scope: { name: string; paths: readonly string[] };
  readFile: ((path: string) => Promise<string | null>) | null;
  verifyRemote?: (citations: readonly Citation[]) => Promise<boolean[]>;
  policy?: Partial<ValidationPolicy>;
  random?: () => number;
}

class VerdictBuilder {
  readonly checks: Check[] = [];
  readonly reasons: string[] = [];
  readonly warnings: string[] = [];
  code: RejectionCode | undefined;

  check(name: string, passed: boolean, detail: string): boolean {
    this.checks.push({ name, passed, detail });
    return passed;
  }

  reject(code: RejectionCode, reason: string): void {
    this.code ??= code;
    this.reasons.push(reason);
  }
}

function checkStatus(input: ValidationInput, v: VerdictBuilder): void {
  const { response } = input;
  if (response.status === "failed" || response.status === "blocked") {
    v.reject("TASK_NOT_COMPLETED", `the worker reported ${response.status}${response.error ? `: ${response.error.code} ${response.error.message}` : ""}`);
  } else if (response.status === "needs_clarification") {
    v.reject("TASK_NOT_COMPLETED", `the worker needs clarification: ${response.clarification_request?.question ?? "?"}`);
  } else if (response.status === "partial") {
    v.warnings.push(`partial result: ${response.error?.message ?? "not every criterion is met"}`);
  }
}

function checkEvidencePresent(input: ValidationInput, v: VerdictBuilder): boolean {
  const evidence = input.response.grounding_evidence;
  const present = evidence !== undefined && evidence.citations.length > 0;
  if (!requiresEvidence(input.task)) return v.check("evidence_present", true, present ? "evidence given" : "evidence not required");
  if (v.check("evidence_present", present, present ? `${evidence?.citations.length} citation(s)` : "evidence was required and none was given")) return true;
  const legacy = input.response.protocol_version === "1.0-legacy" ? " (the worker answered in legacy mode)" : "";
  v.reject("PROTOCOL_MISMATCH", `evidence was required but the response has no grounding evidence${legacy}; re-assign the task to a worker that speaks protocol 2.0`);
  return false;
}

function checkOverlays(input: ValidationInput, v: VerdictBuilder): void {
  const hints = input.task.grounding?.overlay_hints ?? [];
  const consulted = input.response.grounding_evidence?.overlays_consulted ?? [];
  if (hints.length === 0) return;
  const honoured = hints.some((h) => consulted.includes(h));
  if (!v.check("overlay_hints", honoured, honoured ? `consulted ${consulted.join(", ")}` : `none of ${hints.join(", ")} was consulted`)) {
    const explained = (input.response.overlay_warnings ?? []).length > 0 ? " (the worker explained the fallback)" : "";
    v.warnings.push(`hinted overlays ${hints.join(", ")} were not consulted${explained}`);
  }
}

function checkConfidence(input: ValidationInput, v: VerdictBuilder, policy: ValidationPolicy): void {
  const confidence = input.response.grounding_evidence?.grounding_confidence;
  if (!confidence || confidence !== "low") return;
  v.check("confidence", false, "grounding confidence is low");
  if (input.task.critical && policy.lowConfidenceCritical === "reject") v.reject("LOW_CONFIDENCE_CRITICAL", "low grounding confidence on a critical task: sent for review");
  else v.warnings.push("low grounding confidence");
}

async function checkCited(input: ValidationInput, v: VerdictBuilder, policy: ValidationPolicy): Promise<{ checked: number; verified: number; verifiedText: string }> {
  const citations = input.response.grounding_evidence?.citations ?? [];
  const chosen = sample(citations, input.task.critical ? citations.length : policy.sampleSize, input.random ?? Math.random);
  const outcomes = await checkCitations(chosen, { scopePaths: input.scope.paths, readFile: input.readFile, ...(input.verifyRemote ? { verifyRemote: input.verifyRemote } : {}) });
  const where = (c: Citation) => `${c.file_path}:${c.line_start}-${c.line_end}`;
  const byOutcome = (o: CitationOutcome) => chosen.filter((_, i) => outcomes[i] === o);
  for (const c of byOutcome("out_of_scope")) v.reject("CITATION_OUT_OF_SCOPE", `citation ${where(c)} lies outside scope ${input.scope.name}`);
  for (const c of byOutcome("mismatch")) v.reject("FABRICATED_CITATION", `citation ${where(c)} does not match the file (stale or fabricated)`);
  for (const c of byOutcome("unverifiable")) {
    if (input.task.critical) v.reject("UNVERIFIABLE_CITATION", `citation ${where(c)} could not be checked by the manager or another replica`);
    else v.warnings.push(`citation ${where(c)} could not be checked`);
  }
  const verified = byOutcome("verified");
  v.check("citations", verified.length === chosen.length, `${verified.length}/${chosen.length} sampled citation(s) verified`);
  return { checked: chosen.length, verified: verified.length, verifiedText: verified.map((c) => c.content).join("\n") };
}

export async function validateResponse(input: ValidationInput): Promise<Verdict> {
  const policy = { ...DEFAULT_VALIDATION_POLICY, ...input.policy };
  const v = new VerdictBuilder();
  checkStatus(input, v);
  checkEvidencePresent(input, v);
  checkOverlays(input, v);
  checkConfidence(input, v, policy);
  const cited = await checkCited(input, v, policy);
  const evidenceText = `${input.response.result}\n${(input.response.key_findings ?? []).join("\n")}\n${cited.verifiedText}`;
  const criteria = input.task.acceptance_criteria.map((c) => checkCriterion(c, evidenceText));
  for (const unmet of criteria.filter((c) => !c.met)) v.warnings.push(`criterion not shown to be met: "${unmet.criterion}" (${unmet.evidence})`);
  const status = v.code ? "rejected" : v.warnings.length > 0 ? "accepted_with_warnings" : "accepted";
  return {
    status,
    ...(v.code ? { code: v.code } : {}),
    reasons: v.reasons,
    warnings: v.warnings,
    checks: v.checks,
    citations_checked: cited.checked,
    citations_verified: cited.verified,
    criteria,
  };
}
