// The failure of an external `ask --json` command, with the protocol code the worker reports for it
// (seed 002 §5.2: the task is then blocked, with low confidence).
import { TASK_ERROR_CODES, TaskError } from "../../protocol/index.js";

export type ExternalAskErrorCode = "PGC_TIMEOUT" | "PGC_QUERY_FAILED";

/** What went wrong, for logs and tests; `code` is what crosses the wire. */
export type ExternalAskFailure = "timeout" | "not_started" | "exit_status" | "not_json" | "schema" | "too_large" | "cancelled";

export class ExternalAskError extends Error {
  override readonly name = "ExternalAskError";
  /** The protocol's flag for `code`: another replica (or a later try) may answer. */
  readonly retryable: boolean;

  constructor(
    readonly code: ExternalAskErrorCode,
    readonly failure: ExternalAskFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.retryable = TASK_ERROR_CODES[code].retryable;
  }

  /** The same failure as the TaskError a worker reports, so its code survives handle-task. */
  toTaskError(): TaskError {
    return new TaskError(this.code, this.message, { cause: this });
  }
}
