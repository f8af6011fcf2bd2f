// The closed set of errors retrieval throws; none is retryable, since retrying the same input fails the same way.

export type RetrievalErrorCode =
  | "PGC_INDEX_FORMAT"
  | "PGC_CALIBRATION_FORMAT"
  | "PGC_RETRIEVAL_OPTIONS"
  | "PGC_INDEX_MISMATCH";

/** Base of every retrieval error: a stable `code` for the wire, and the underlying `cause` when there is one. */
export class RetrievalError extends Error {
  override readonly name: string = "RetrievalError";
  readonly retryable = false;
  constructor(
    readonly code: RetrievalErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A serialized lexical index that is not in the format (or version) this build reads. */
export class IndexFormatError extends RetrievalError {
  override readonly name = "IndexFormatError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("PGC_INDEX_FORMAT", message, options);
  }
}

/** A serialized calibration that is not in the format (or version) this build reads. */
export class CalibrationFormatError extends RetrievalError {
  override readonly name = "CalibrationFormatError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("PGC_CALIBRATION_FORMAT", message, options);
  }
}

/** Options that fail validation (topK out of range, unknown overlay, bad seed). */
export class InvalidRetrievalOptionsError extends RetrievalError {
  override readonly name = "InvalidRetrievalOptionsError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("PGC_RETRIEVAL_OPTIONS", message, options);
  }
}

/** The index names a document the document store does not hold: the two were built from different corpora. */
export class IndexMismatchError extends RetrievalError {
  override readonly name = "IndexMismatchError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("PGC_INDEX_MISMATCH", message, options);
  }
}
