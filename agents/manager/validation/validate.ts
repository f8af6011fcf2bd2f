// The manager's checklist for one TaskResponse (seed 002 §7, made concrete; see docs/VALIDATION.md).
import type { Citation, DelegatedTask, TaskResponse } from "../../protocol/index.js";
import { checkCitations, type VerifiedCitation } from "./citations.js";
import { checkCriterion, type CriterionEvidence } from "./criteria.js";
import { checkConfidence, checkConfidenceCeiling, checkEvidencePresent, checkOverlayHints } from "./evidence-checks.js";
import { resolvePolicy, type ValidationPolicy } from "./policy.js";
import { checkIdentity, checkStatus } from "./status-checks.js";
import type { Verdict } from "./verdict.js";
import { VerdictBuilder } from "./verdict-builder.js";

export interface ValidationInput {
  task: DelegatedTask;
  response: TaskResponse;
  /** The answering worker's scope: name and the path prefixes it owns ("dir/" a directory, else a file; [] or [""] the whole root). */
  scope: { name: string; paths: readonly string[] };
  /** Read a root-relative file as the manager sees it (null: no such file); null when the manager cannot read the root. */
  readFile: ((path: string) => Promise<string | null>) | null;
  /** Ask another replica of the scope to re-hash the cited lines; one boolean per citation (true = matches). */
  verifyRemote?: (citations: readonly Citation[]) => Promise<boolean[]>;
  policy?: Partial<ValidationPolicy>;
  /** Deterministic sampling in tests: returns a number in [0, 1). */
  random?: () => number;
}

function criterionEvidence(response: TaskResponse, verified: readonly VerifiedCitation[]): CriterionEvidence {
  return {
    answer: [response.result, ...(response.key_findings ?? [])].join("\n"),
    cited: verified.map(({ citation, text }) => `${citation.content}\n${text ?? ""}`).join("\n"),
    citedPaths: verified.map(({ citation }) => citation.file_path),
  };
}

/** Unmet criteria: a `completed` answer missing a named anchor is rejected; anything else is a warning. */
function checkCriteria(response: TaskResponse, task: DelegatedTask, verified: readonly VerifiedCitation[], v: VerdictBuilder): void {
  const evidence = criterionEvidence(response, verified);
  v.criteria = task.acceptance_criteria.map((criterion) => checkCriterion(criterion, evidence));
  const unmet = v.criteria.filter((result) => !result.met);
  v.check("acceptance_criteria", unmet.length === 0, `${v.criteria.length - unmet.length}/${v.criteria.length} criteria met`);
  for (const result of unmet) {
    const text = `criterion not shown to be met: "${result.criterion}" (${result.rule}: ${result.evidence})`;
    v.followUp(`meet the criterion "${result.criterion}"`);
    const exact = result.rule === "anchors" || result.rule === "citation";
    if (response.status === "completed" && exact) v.reject("CRITERIA_UNMET", `${text}; yet the worker reported completed`);
    else v.warn(text);
  }
  if (response.status === "partial" && unmet.length === 0 && !response.error) v.followUp("finish the task: the worker reported it partial (its result says what remains)");
}

/** Checks one response against its task; never trusts a citation it has not re-hashed. Throws only ValidationPolicyError. */
export async function validateResponse(input: ValidationInput): Promise<Verdict> {
  const policy = resolvePolicy(input.policy);
  const { task, response } = input;
  const v = new VerdictBuilder();
  if (!checkIdentity(task, response, v) || !checkStatus(response, v)) return v.build();
  const evidence = checkEvidencePresent(task, response, v);
  if (!v.isRejectedWith("PROTOCOL_MISMATCH")) checkOverlayHints(task, response, v);
  let verified: VerifiedCitation[] = [];
  if (evidence) {
    checkConfidenceCeiling(evidence, v);
    checkConfidence(task, evidence, policy, v);
    verified = await checkCitations(
      {
        citations: evidence.citations,
        scope: input.scope,
        critical: task.critical === true,
        sampleSize: policy.sampleSize,
        random: input.random ?? Math.random,
        sources: { readFile: input.readFile, verifyRemote: input.verifyRemote },
      },
      v,
    );
  }
  checkCriteria(response, task, verified, v);
  return v.build();
}
