// Public face of the delegation protocol: the `task` op body format shared by manager and workers.
export {
  MAX_ANALYSIS_HINTS,
  MAX_ASK_SOURCES,
  MAX_ASK_TEXT_BYTES,
  MAX_CITATION_CHARS,
  MAX_CITATIONS,
  MAX_CLARIFICATION_OPTIONS,
  MAX_CONTEXT_BYTES,
  MAX_DELEGATION_DEPTH,
  MAX_HINT_CHARS,
  MAX_HINT_OPTIONS_BYTES,
  MAX_ID_CHARS,
  MAX_ITEM_CHARS,
  MAX_KEY_FINDING_CHARS,
  MAX_KEY_FINDINGS,
  MAX_LIST_ITEMS,
  MAX_MESSAGE_CHARS,
  MAX_METRICS,
  MAX_PATH_CHARS,
  MAX_RELEVANCE_CHARS,
  MAX_RESULT_BYTES,
  MAX_TASK_BYTES,
  TASK_REPLY_RETENTION_MS,
  TRUNCATION_MARKER,
} from "./limits.js";
export { codePointLength, truncateText, utf8ByteLength } from "./text.js";
export {
  CitationRangeError,
  DelegationCycleError,
  DelegationDepthError,
  MAX_KEPT_ISSUES,
  ProtocolSchemaError,
  type SchemaIssue,
} from "./errors.js";
export {
  TASK_ERROR_CODE_LIST,
  TASK_ERROR_CODES,
  TaskError,
  type TaskErrorBody,
  TaskErrorBodySchema,
  type TaskErrorCode,
  type TaskErrorCodeInfo,
  TaskErrorCodeSchema,
  taskErrorFrom,
} from "./error-codes.js";
export { FALLBACK_OVERLAY, OVERLAY_DESCRIPTIONS, OVERLAY_IDS, type OverlayId, OverlayIdSchema } from "./overlays.js";
export {
  ANALYSIS_HINT_DESCRIPTIONS,
  ANALYSIS_HINT_TYPES,
  type AnalysisHintType,
  GROUNDING_STRATEGIES,
  type GroundingStrategy,
  GroundingStrategySchema,
  type QueryTiming,
  STRATEGY_DESCRIPTIONS,
  type StrategyDescription,
} from "./strategies.js";
export {
  CONFIDENCE_EPSILON,
  confidenceFromSimilarities,
  confidenceRank,
  GROUNDING_CONFIDENCE_LEVELS,
  type GroundingConfidence,
  GroundingConfidenceSchema,
  HIGH_CONFIDENCE_ABOVE,
  LOW_CONFIDENCE_BELOW,
} from "./confidence.js";
export { citationHash, citationMatches, countLines, sliceLines } from "./citation-hash.js";
export {
  type Citation,
  CitationSchema,
  clampCitations,
  SIMILARITY_KINDS,
  type SimilarityKind,
  SimilarityKindSchema,
} from "./citation.js";
export {
  buildGroundingEvidence,
  type GroundingEvidence,
  type GroundingEvidenceInput,
  GroundingEvidenceSchema,
} from "./evidence.js";
export {
  type AnalysisHint,
  AnalysisHintSchema,
  type DelegatedTask,
  DelegatedTaskSchema,
  encodeDelegatedTask,
  type Execution,
  EXECUTION_MODES,
  type ExecutionMode,
  ExecutionSchema,
  MODEL_HINTS,
  type ModelHint,
  type Grounding,
  GroundingSchema,
  parseDelegatedTask,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  ProtocolVersionSchema,
  protocolVersionFor,
  requiresEvidence,
} from "./task.js";
export { canDelegate, delegationDepthOf, delegationPreamble, nextDelegation } from "./delegation.js";
export {
  type ClarificationRequest,
  ClarificationRequestSchema,
  encodeTaskResponse,
  type Metrics,
  MetricsSchema,
  parseTaskResponse,
  STATUS_DESCRIPTIONS,
  TASK_STATUSES,
  type TaskResponse,
  TaskResponseSchema,
  type TaskStatus,
  TaskStatusSchema,
} from "./response.js";
export {
  type AskMetadata,
  AskMetadataSchema,
  type AskResult,
  AskResultSchema,
  type AskSource,
  AskSourceSchema,
  encodeAskResult,
  parseAskResult,
  type QueryIntent,
  QueryIntentSchema,
} from "./ask.js";
export {
  formatManifestLine,
  MANIFEST_STATUSES,
  type ManifestEntry,
  type ManifestEntryInput,
  ManifestEntrySchema,
  manifestStatusFor,
  type ManifestStatus,
  ManifestStatusSchema,
  parseManifestEntry,
  parseManifestLine,
} from "./manifest.js";
export * from "./search.js";
