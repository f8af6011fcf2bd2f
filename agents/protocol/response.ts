// TaskResponse (seed 002 §2) with status rules, protocol version, errors, warnings, findings and metrics.
import { z } from "zod";
import { TaskErrorBodySchema } from "./error-codes.js";
import { GroundingEvidenceSchema } from "./evidence.js";
import { bytesField, idField, listField, textField } from "./fields.js";
import {
  MAX_CLARIFICATION_OPTIONS,
  MAX_ITEM_CHARS,
  MAX_KEY_FINDING_CHARS,
  MAX_KEY_FINDINGS,
  MAX_LIST_ITEMS,
  MAX_MESSAGE_CHARS,
  MAX_METRICS,
  MAX_RESULT_BYTES,
} from "./limits.js";
import { parseWith } from "./parse.js";
import { isPlainTaskResponse } from "./response-shape.js";
import { RESPONSE_SCHEMA_NAME } from "./schema-names.js";
import { ProtocolVersionSchema } from "./task.js";

export const TASK_STATUSES = Object.freeze(["completed", "failed", "blocked", "partial", "needs_clarification"] as const);
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TaskStatusSchema = z.enum(TASK_STATUSES);

/** When each status is used, and what it requires (docs/DELEGATION.md mirrors this). */
export const STATUS_DESCRIPTIONS: Readonly<Record<TaskStatus, string>> = Object.freeze({
  completed: "Every acceptance criterion is met. No error, no clarification_request.",
  failed: "The task failed. `error` is required.",
  blocked: "The worker cannot proceed and changed nothing (e.g. PGC query failed). `error` is required.",
  partial: "Some criteria are met; `result` says what is done and what remains. An error is optional.",
  needs_clarification: "The worker needs an answer from the manager first. `clarification_request` is required, no error.",
});

export const ClarificationRequestSchema = z.strictObject({
  question: textField(MAX_MESSAGE_CHARS, 1),
  options: listField(textField(MAX_ITEM_CHARS, 1), MAX_CLARIFICATION_OPTIONS).optional(),
});

/** Counters of the work; elapsed_ms and pgc_queries always, other non-negative numbers by name. */
export const MetricsSchema = z
  .strictObject({ elapsed_ms: z.number().min(0), pgc_queries: z.number().int().min(0) })
  .catchall(z.number().min(0))
  .superRefine((metrics, ctx) => {
    const count = Object.keys(metrics).length;
    if (count > MAX_METRICS) ctx.addIssue({ code: "custom", message: `must have at most ${MAX_METRICS} entries, got ${count}` });
  });

export const TaskResponseSchema = z
  .strictObject({
    task_id: idField,
    status: TaskStatusSchema,
    result: bytesField(MAX_RESULT_BYTES),
    protocol_version: ProtocolVersionSchema,
    clarification_request: ClarificationRequestSchema.optional(),
    error: TaskErrorBodySchema.optional(),
    overlay_warnings: listField(textField(MAX_ITEM_CHARS, 1), MAX_LIST_ITEMS).optional(),
    grounding_evidence: GroundingEvidenceSchema.optional(),
    key_findings: listField(textField(MAX_KEY_FINDING_CHARS, 1), MAX_KEY_FINDINGS).optional(),
    metrics: MetricsSchema.optional(),
  })
  .superRefine((response, ctx) => {
    const { status } = response;
    if (status === "needs_clarification" && response.clarification_request === undefined) {
      ctx.addIssue({ code: "custom", path: ["clarification_request"], message: "is required when status is needs_clarification" });
    }
    if (status !== "needs_clarification" && response.clarification_request !== undefined) {
      ctx.addIssue({ code: "custom", path: ["clarification_request"], message: "is allowed only when status is needs_clarification" });
    }
    if ((status === "failed" || status === "blocked") && response.error === undefined) {
      ctx.addIssue({ code: "custom", path: ["error"], message: `is required when status is ${status}` });
    }
    if ((status === "completed" || status === "needs_clarification") && response.error !== undefined) {
      ctx.addIssue({ code: "custom", path: ["error"], message: `is not allowed when status is ${status}` });
    }
  });

export type ClarificationRequest = z.output<typeof ClarificationRequestSchema>;
export type Metrics = z.output<typeof MetricsSchema>;
export type TaskResponse = z.output<typeof TaskResponseSchema>;

/** Validates a received response; throws ProtocolSchemaError. A response the hand-written check passes is what zod would return (response-shape.ts). */
export function parseTaskResponse(value: unknown): TaskResponse {
  return isPlainTaskResponse(value) ? (value as TaskResponse) : parseWith(TaskResponseSchema, RESPONSE_SCHEMA_NAME, value);
}

/** Validates a response before sending, so a worker cannot emit one over the limits; returns the wire copy. */
export function encodeTaskResponse(response: TaskResponse): TaskResponse {
  return isPlainTaskResponse(response) ? response : parseWith(TaskResponseSchema, RESPONSE_SCHEMA_NAME, response);
}
