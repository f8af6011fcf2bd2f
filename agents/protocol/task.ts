// DelegatedTask (seed 002 §2) plus `critical` and delegation depth/chain (seed 004), as one strict schema.
import { z } from "zod";
import { bytesField, idField, listField, textField, uniqueListField } from "./fields.js";
import {
  MAX_ANALYSIS_HINTS,
  MAX_CONTEXT_BYTES,
  MAX_DELEGATION_DEPTH,
  MAX_HINT_CHARS,
  MAX_HINT_OPTIONS_BYTES,
  MAX_ITEM_CHARS,
  MAX_LIST_ITEMS,
  MAX_TASK_BYTES,
} from "./limits.js";
import { OVERLAY_IDS, OverlayIdSchema } from "./overlays.js";
import { parseWith } from "./parse.js";
import { TASK_SCHEMA_NAME } from "./schema-names.js";
import { AnalysisHintTypeSchema, GroundingStrategySchema, STRATEGY_DESCRIPTIONS } from "./strategies.js";
import { utf8ByteLength } from "./text.js";

export const AnalysisHintSchema = z.strictObject({
  type: AnalysisHintTypeSchema,
  target: textField(MAX_HINT_CHARS, 1),
  /** Free-form options of the analysis; JSON values only, so every language can decode them. */
  options: z
    .record(z.string(), z.json())
    .superRefine((options, ctx) => {
      const bytes = utf8ByteLength(JSON.stringify(options));
      if (bytes > MAX_HINT_OPTIONS_BYTES) {
        ctx.addIssue({ code: "custom", message: `must be at most ${MAX_HINT_OPTIONS_BYTES} bytes as JSON, got ${bytes}` });
      }
    })
    .optional(),
});

export const GroundingSchema = z
  .strictObject({
    strategy: GroundingStrategySchema,
    analysis_hints: listField(AnalysisHintSchema, MAX_ANALYSIS_HINTS).optional(),
    algebra_expression: textField(MAX_HINT_CHARS, 1).optional(),
    overlay_hints: uniqueListField(OverlayIdSchema, OVERLAY_IDS.length).optional(),
    query_hints: listField(textField(MAX_ITEM_CHARS, 1), MAX_LIST_ITEMS).optional(),
    evidence_required: z.boolean().optional(),
  })
  .superRefine((grounding, ctx) => {
    if (grounding.strategy === "none" && grounding.evidence_required === true) {
      ctx.addIssue({ code: "custom", path: ["evidence_required"], message: "cannot be true with strategy none" });
    }
  });

/** The CDP v2 execution strategies a plan's steps run under (seed 000, "Execution Strategies"). */
export const EXECUTION_MODES = ["parallel", "sequential", "pipeline", "fan-out-fan-in"] as const;
export const MODEL_HINTS = ["haiku", "sonnet", "opus"] as const;

/** How the task's plan runs, as HANDOFF.md's "Execution Strategy" section states it; advisory for the agent. */
export const ExecutionSchema = z.strictObject({
  mode: z.enum(EXECUTION_MODES),
  complexity: z.number().min(0).max(1),
  model_hint: z.enum(MODEL_HINTS),
  /** The mode was chosen by the complexity and dependency count, not named by the plan. */
  auto_calculated: z.boolean(),
});

export const DelegatedTaskSchema = z
  .strictObject({
    id: idField,
    task: bytesField(MAX_TASK_BYTES, true),
    acceptance_criteria: listField(textField(MAX_ITEM_CHARS, 1), MAX_LIST_ITEMS),
    context: bytesField(MAX_CONTEXT_BYTES).optional(),
    grounding: GroundingSchema.optional(),
    /** Low grounding confidence makes the manager reject a critical task instead of accepting with a warning. */
    critical: z.boolean().optional(),
    /** Depth of the receiving agent, 0-based: 0 is the primary agent; absent means 0. */
    delegation_depth: z.number().int().min(0).max(MAX_DELEGATION_DEPTH).optional(),
    /** Ids of the agents that delegated this task, origin first, receiver excluded. */
    delegation_chain: uniqueListField(idField, MAX_DELEGATION_DEPTH).optional(),
    /** The task is a step of a delegation plan: how the plan runs. */
    execution: ExecutionSchema.optional(),
  })
  .superRefine((task, ctx) => {
    const depth = task.delegation_depth ?? 0;
    if (task.delegation_chain !== undefined && task.delegation_chain.length !== depth) {
      ctx.addIssue({
        code: "custom",
        path: ["delegation_chain"],
        message: `must list exactly delegation_depth (${depth}) agent ids, got ${task.delegation_chain.length}`,
      });
    }
  });

export type AnalysisHint = z.output<typeof AnalysisHintSchema>;
export type Grounding = z.output<typeof GroundingSchema>;
export type DelegatedTask = z.output<typeof DelegatedTaskSchema>;
export type Execution = z.output<typeof ExecutionSchema>;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];
export type ModelHint = (typeof MODEL_HINTS)[number];

/** Validates a received task (after msgpack or JSON decoding); throws ProtocolSchemaError. */
export function parseDelegatedTask(value: unknown): DelegatedTask {
  return parseWith(DelegatedTaskSchema, TASK_SCHEMA_NAME, value);
}

/** Validates a task before sending and returns the wire-ready copy (no undefined-valued keys). */
export function encodeDelegatedTask(task: DelegatedTask): DelegatedTask {
  return parseWith(DelegatedTaskSchema, TASK_SCHEMA_NAME, task);
}

export const PROTOCOL_VERSIONS = Object.freeze(["2.0", "1.0-legacy"] as const);
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];
export const ProtocolVersionSchema = z.enum(PROTOCOL_VERSIONS);

/** "2.0" when the task carries a `grounding` object (even strategy none), else "1.0-legacy" (seed 002 §5.1). */
export function protocolVersionFor(task: Pick<DelegatedTask, "grounding">): ProtocolVersion {
  return task.grounding !== undefined ? "2.0" : "1.0-legacy";
}

/** True when the response must carry grounding_evidence with citations. */
export function requiresEvidence(task: Pick<DelegatedTask, "grounding">): boolean {
  const grounding = task.grounding;
  if (grounding === undefined) return false;
  return grounding.evidence_required === true || STRATEGY_DESCRIPTIONS[grounding.strategy].citationsRequired;
}
