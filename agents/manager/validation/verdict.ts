// The shape of a validation verdict and the closed set of rejection codes (docs/VALIDATION.md).
import type { TaskErrorBody } from "../../protocol/index.js";

export type VerdictStatus = "accepted" | "accepted_with_warnings" | "rejected";

/**
 * Why a response was rejected, with what the manager does next. Listed in precedence order: when
 * several apply, the verdict's `code` is the first of them and `reasons[0]` explains it.
 */
export const REJECTION_CODES = Object.freeze({
  INVALID_RESPONSE: "The response is not an answer to this task (task_id differs) or breaks the protocol's own rules (confidence above what its citations support). Re-assign.",
  TASK_FAILED: "The worker answered `failed`. Retry on another replica when `worker_error.retryable`, else report the failure.",
  TASK_BLOCKED: "The worker answered `blocked` and changed nothing. Retry on another replica when `worker_error.retryable`, else relax grounding or rebuild the PGC.",
  CLARIFICATION_NEEDED: "The worker asks a question before it can answer. Answer it and send the task again with the answer in `context`.",
  PROTOCOL_MISMATCH: "Evidence was required and none came (seed 002 §5.1). Re-assign to a worker whose protocol_version is \"2.0\".",
  CITATION_OUT_OF_SCOPE: "A citation names a file outside the worker's scope, or a path that escapes the root. Re-assign; check the scope map.",
  FABRICATED_CITATION: "A checked citation's lines do not exist or do not hash to its sha256 (stale or fabricated). Re-assign to another replica; suspect the worker's index.",
  UNVERIFIABLE_CITATION: "Critical task: neither the manager nor another replica could check a citation. Validate again when a replica is reachable, or review by hand.",
  LOW_CONFIDENCE_CRITICAL: "Critical task answered with low grounding confidence (seed 002 §5.5). Send for review.",
  OVERLAY_HINTS_IGNORED: "Critical task: none of the hinted overlays was consulted and the worker did not say why. Send again, or to a replica that has the overlays.",
  CRITERIA_UNMET: "A `completed` answer never shows something an acceptance criterion names (an identifier, a quoted string or a path). Follow up on the unmet criteria.",
} as const);
export type RejectionCode = keyof typeof REJECTION_CODES;
/** Rejection codes, most decisive first. */
export const REJECTION_PRECEDENCE = Object.freeze(Object.keys(REJECTION_CODES) as RejectionCode[]);

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

/** How one acceptance criterion was judged: which rule applied and what was (not) found. */
export interface CriterionResult {
  criterion: string;
  met: boolean;
  rule: "anchors" | "citation" | "terms" | "unchecked";
  evidence: string;
}

export type CitationOutcome = "verified" | "fabricated" | "out_of_scope" | "unverifiable" | "not_sampled";

/** What became of one citation of the response, in the response's order. */
export interface CitationResult {
  file_path: string;
  line_start: number;
  line_end: number;
  overlay: string;
  outcome: CitationOutcome;
  detail: string;
}

export interface Verdict {
  status: VerdictStatus;
  /** Set when rejected: the most decisive of the rejection codes that apply. */
  code?: RejectionCode;
  reasons: string[];
  warnings: string[];
  checks: Check[];
  citations_checked: number;
  citations_verified: number;
  citations: CitationResult[];
  criteria: CriterionResult[];
  /** What remains to be done: a partial answer's gaps, unmet criteria, a question to answer, rejection reasons. */
  needs_followup: string[];
  /** The worker's own error, copied so the caller can route on `retryable`. */
  worker_error?: TaskErrorBody;
}
