// Public face of the manager's validation checklist: evidence is checked, not trusted (docs/VALIDATION.md).
export { validateResponse, type ValidationInput } from "./validate.js";
export { DEFAULT_SAMPLE_SIZE, DEFAULT_VALIDATION_POLICY, resolvePolicy, ValidationPolicyError, type ValidationPolicy } from "./policy.js";
export {
  REJECTION_CODES,
  REJECTION_PRECEDENCE,
  type Check,
  type CitationOutcome,
  type CitationResult,
  type CriterionResult,
  type RejectionCode,
  type Verdict,
  type VerdictStatus,
} from "./verdict.js";
export { ValidationMetrics, NO_EVIDENCE, NO_STRATEGY, type ConfidenceRate, type MetricsSnapshot } from "./metrics.js";
export { checkCriterion, TERM_COVERAGE_TO_MEET, type CriterionEvidence } from "./criteria.js";
export { anchorsOf, type Anchors } from "./anchors.js";
export { insideScope, outOfScopeProblem } from "./scope.js";
export { sampleIndices } from "./sample.js";
export { bindsCallee, checkChain, namesCallee, renames, type ChainCheck, type CheckableStep } from "./chain-check.js";
