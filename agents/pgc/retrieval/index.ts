// Public face of agents/pgc/retrieval: lexical search with calibrated similarity, exact look-ups, and retrieve().
export { moduleNames, retrieve, EXACT_SIMILARITY, MAX_EXACT_MATCHES } from "./retrieve.js";
export type { DocLookup, RetrievalPgc, RetrieveOptions, RetrievedHit, RetrieveResult } from "./retrieve.js";
export { LexicalIndex, MAX_QUERY_TERMS } from "./lexical-index.js";
export { DEFAULT_TOP_K, MAX_TOP_K, type SearchOptions } from "./search-options.js";
export type { HitFeatures, LexicalHit, SearchResult } from "./lexical-index.js";
export type { LexicalIndexJSON, StoredLexicalIndex } from "./index-codec.js";
export { tokenizeDocs, type TokenizedDocs } from "./doc-terms.js";
export type { TokenizedBatch } from "./index-builder.js";
export type { EdgeMap, ExactMatch } from "./symbol-table.js";
export {
  fitCalibration,
  scoreHits,
  similarityOf,
  assertCalibrationFits,
  indexSignature,
  COVERAGE_CEILING,
  MIN_CALIBRATION_PAIRS,
  DEFAULT_CALIBRATION_SEED,
} from "./calibration.js";
export type { FitCalibrationOptions, ScoredHit } from "./calibration.js";
export { isSummaryCandidate } from "./calibration-queries.js";
export { calibrationFromJSON, HIGH_SIMILARITY } from "./calibration-format.js";
export type {
  Calibration,
  CalibrationReport,
  HeldoutReport,
  IndexSignature,
  RandomQueryReport,
  SimilarityKind,
} from "./calibration-format.js";
export type { ReliabilityBin } from "./reliability.js";
export { tokenize, splitIdentifier } from "./tokenizer.js";
export { termForms } from "./abbreviations.js";
export { porterStem } from "./stemmer.js";
export { identifiersInQuery } from "./query-identifiers.js";
export { STOPWORDS } from "./stopwords.js";
export { FIELD_BOOSTS, FIELDS, BM25_K1 } from "./fields.js";
export {
  RetrievalError,
  IndexFormatError,
  CalibrationFormatError,
  InvalidRetrievalOptionsError,
  IndexMismatchError,
} from "./errors.js";
export type { RetrievalErrorCode } from "./errors.js";
