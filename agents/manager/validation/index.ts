// Public face of the manager's validation checklist.
export { validateResponse, type ValidationInput } from "./validate.js";
export { ValidationMetrics, type MetricsSnapshot } from "./metrics.js";
export { checkCriterion, anchorsOf, TERM_COVERAGE_TO_MEET } from "./criteria.js";
export { insideScope, checkCitations, type CitationOutcome } from "./citations.js";
export { DEFAULT_VALIDATION_POLICY, REJECTION_CODES, type Check, type CriterionResult, type RejectionCode, type ValidationPolicy, type Verdict, type VerdictStatus } from "./verdict.js";
