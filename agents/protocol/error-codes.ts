// The closed set of error codes a TaskResponse may carry, each with its retryable flag, written once.
import { z } from "zod";
import { DelegationCycleError, DelegationDepthError, ProtocolSchemaError } from "./errors.js";
import { textField } from "./fields.js";
import { MAX_MESSAGE_CHARS } from "./limits.js";
import { TASK_SCHEMA_NAME } from "./schema-names.js";
import { truncateText } from "./text.js";

export interface TaskErrorCodeInfo {
  /** True when sending the same task again, unchanged, to this or another replica may succeed. */
  readonly retryable: boolean;
  readonly meaning: string;
}

export const TASK_ERROR_CODES = Object.freeze({
  PGC_TIMEOUT: { retryable: true, meaning: "A PGC query did not finish in time." },
  PGC_QUERY_FAILED: { retryable: true, meaning: "A PGC query failed (index unreadable, query engine error); another replica may succeed." },
  OVERLAY_MISSING: { retryable: false, meaning: "A required overlay is not generated and no fallback could serve the task." },
  PROTOCOL_MISMATCH: { retryable: false, meaning: "The peer does not speak the required protocol (e.g. evidence required, none returned)." },
  SCOPE_VIOLATION: { retryable: false, meaning: "The task needs files outside the worker's scope, or a path escapes the scope." },
  EXECUTOR_FAILED: { retryable: false, meaning: "The worker's executor raised an unexpected error." },
  DEADLINE_EXCEEDED: { retryable: true, meaning: "The task's deadline passed before it finished." },
  INVALID_TASK: { retryable: false, meaning: "The DelegatedTask failed schema validation at the worker." },
  DELEGATION_DEPTH_EXCEEDED: { retryable: false, meaning: "Serving the task would delegate beyond MAX_DELEGATION_DEPTH." },
  DELEGATION_CYCLE: { retryable: false, meaning: "Serving the task would delegate back to an agent already in its chain." },
  GROUNDING_INSUFFICIENT: { retryable: false, meaning: "Evidence was required but the grounding is too weak or failed verification." },
  WORKER_OVERLOADED: { retryable: true, meaning: "The worker is at capacity; try later or another replica." },
  WORKER_STOPPING: { retryable: true, meaning: "The worker is draining before shutdown; try another replica." },
} as const satisfies Record<string, TaskErrorCodeInfo>);

export type TaskErrorCode = keyof typeof TASK_ERROR_CODES;

export const TASK_ERROR_CODE_LIST = Object.freeze(Object.keys(TASK_ERROR_CODES) as TaskErrorCode[]);

export const TaskErrorCodeSchema = z.enum(TASK_ERROR_CODE_LIST as [TaskErrorCode, ...TaskErrorCode[]]);

/** The `error` object of a TaskResponse; `retryable` must equal the table's flag for `code`. */
export const TaskErrorBodySchema = z
  .strictObject({
    code: TaskErrorCodeSchema,
    message: textField(MAX_MESSAGE_CHARS, 1),
    retryable: z.boolean(),
  })
  .superRefine((body, ctx) => {
    const expected = TASK_ERROR_CODES[body.code].retryable;
    if (body.retryable !== expected) {
      ctx.addIssue({ code: "custom", path: ["retryable"], message: `must be ${expected} for ${body.code}` });
    }
  });

export type TaskErrorBody = z.output<typeof TaskErrorBodySchema>;

/** A task failure with a wire code; rebuilt as the same class on the receiving side. */
export class TaskError extends Error {
  override readonly name = "TaskError";
  readonly retryable: boolean;

  constructor(
    readonly code: TaskErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.retryable = TASK_ERROR_CODES[code].retryable;
  }

  /** The `error` object for a TaskResponse; the message is cut to MAX_MESSAGE_CHARS. */
  toWire(): TaskErrorBody {
    return { code: this.code, message: truncateText(this.message || this.code, MAX_MESSAGE_CHARS), retryable: this.retryable };
  }

  static fromWire(body: TaskErrorBody): TaskError {
    return new TaskError(body.code, body.message);
  }
}

/** The one mapping from anything a worker may catch to the TaskError it reports. */
export function taskErrorFrom(error: unknown): TaskError {
  if (error instanceof TaskError) return error;
  // Only a bad incoming task is the sender's fault; a response that fails its schema is the worker's bug.
  if (error instanceof ProtocolSchemaError && error.schema === TASK_SCHEMA_NAME) {
    return new TaskError("INVALID_TASK", error.message, { cause: error });
  }
  if (error instanceof DelegationDepthError) return new TaskError("DELEGATION_DEPTH_EXCEEDED", error.message, { cause: error });
  if (error instanceof DelegationCycleError) return new TaskError("DELEGATION_CYCLE", error.message, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new TaskError("EXECUTOR_FAILED", message, { cause: error });
}
