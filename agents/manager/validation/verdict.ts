// The shape of a validation verdict and the closed set of rejection codes.
export type VerdictStatus = "accepted" | "accepted_with_warnings" | "rejected";

/** Why a response was rejected; each maps to what the manager does next (docs/VALIDATION.md). */
export const REJECTION_CODES = [
  "PROTOCOL_MISMATCH",
  "FABRICATED_CITATION",
  "CITATION_OUT_OF_SCOPE",
  "UNVERIFIABLE_CITATION",
  "LOW_CONFIDENCE_CRITICAL",
  "TASK_NOT_COMPLETED",
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

export interface CriterionResult {
  criterion: string;
  met: boolean;
  rule: "anchors" | "terms";
  evidence: string;
}

export interface Verdict {
  status: VerdictStatus;
  code?: RejectionCode;
  reasons: string[];
  warnings: string[];
  checks: Check[];
  citations_checked: number;
  citations_verified: number;
  criteria: CriterionResult[];
}

export interface ValidationPolicy {
  /** What a low-confidence answer to a critical task gets: "reject" (sent for review) or "warn". */
  lowConfidenceCritical: "reject" | "warn";
  /** Citations verified per non-critical response (critical responses: all). */
  sampleSize: number;
}

export const DEFAULT_VALIDATION_POLICY: ValidationPolicy = Object.freeze({ lowConfidenceCritical: "reject", sampleSize: 2 });
