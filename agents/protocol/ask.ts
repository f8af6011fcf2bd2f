// The `ask --json` result (seed 002 §3): workers' ask op and external ask adapters share this shape.
// Unknown keys are stripped, not rejected, because external tools add their own.
import { z } from "zod";
import { SimilarityKindSchema } from "./citation.js";
import { bytesField, lineNumberField, listField, relativePathField, sha256Field, textField } from "./fields.js";
import { MAX_ASK_SOURCES, MAX_ASK_TEXT_BYTES, MAX_ITEM_CHARS, MAX_LIST_ITEMS } from "./limits.js";
import { parseWith } from "./parse.js";
import { ASK_RESULT_SCHEMA_NAME } from "./schema-names.js";

export const QueryIntentSchema = z.object({
  intent: textField(MAX_ITEM_CHARS),
  entities: listField(textField(MAX_ITEM_CHARS), MAX_LIST_ITEMS),
  scope: textField(MAX_ITEM_CHARS),
  refined_query: textField(MAX_ITEM_CHARS),
});

export const AskSourceSchema = z
  .object({
    /** A string, not O1..O7: external tools name their own overlays. */
    overlay: textField(MAX_ITEM_CHARS, 1),
    section: textField(MAX_ITEM_CHARS),
    text: bytesField(MAX_ASK_TEXT_BYTES),
    /** In [0, 1] when similarity_kind is given; an external tool's raw score otherwise. */
    similarity: z.number(),
    weight: z.number(),
    file_path: relativePathField.optional(),
    line_start: lineNumberField.optional(),
    line_end: lineNumberField.optional(),
    sha256: sha256Field.optional(),
    similarity_kind: SimilarityKindSchema.optional(),
  })
  .superRefine((source, ctx) => {
    if (source.similarity_kind !== undefined && (source.similarity < 0 || source.similarity > 1)) {
      ctx.addIssue({ code: "custom", path: ["similarity"], message: "must be in [0, 1] when similarity_kind is given" });
    }
    if ((source.line_start === undefined) !== (source.line_end === undefined)) {
      ctx.addIssue({ code: "custom", path: ["line_end"], message: "line_start and line_end come together" });
    }
    if (source.line_start !== undefined && source.line_end !== undefined && source.line_end < source.line_start) {
      ctx.addIssue({ code: "custom", path: ["line_end"], message: `must be >= line_start (${source.line_start})` });
    }
    const checkable = source.file_path !== undefined && source.line_start !== undefined;
    if ((source.line_start !== undefined || source.sha256 !== undefined) && !checkable) {
      ctx.addIssue({ code: "custom", path: ["file_path"], message: "a line range or sha256 needs file_path and a line range" });
    }
  });

export const AskMetadataSchema = z.object({
  /** Our workers send citationHash(question); external tools their own digest. */
  question_hash: textField(MAX_ITEM_CHARS),
  top_k: z.number().int().min(0),
  elapsed_ms: z.number().min(0),
});

export const AskResultSchema = z.object({
  question: bytesField(MAX_ASK_TEXT_BYTES, true),
  answer: bytesField(MAX_ASK_TEXT_BYTES),
  query_intent: QueryIntentSchema,
  sources: listField(AskSourceSchema, MAX_ASK_SOURCES),
  metadata: AskMetadataSchema,
});

export type QueryIntent = z.output<typeof QueryIntentSchema>;
export type AskSource = z.output<typeof AskSourceSchema>;
export type AskMetadata = z.output<typeof AskMetadataSchema>;
export type AskResult = z.output<typeof AskResultSchema>;

/** Validates an ask result from a worker or an external tool, dropping unknown keys; throws ProtocolSchemaError. */
export function parseAskResult(value: unknown): AskResult {
  return parseWith(AskResultSchema, ASK_RESULT_SCHEMA_NAME, value);
}

/** Validates an ask result before a worker sends it; returns the wire copy without unknown keys. */
export function encodeAskResult(result: AskResult): AskResult {
  return parseWith(AskResultSchema, ASK_RESULT_SCHEMA_NAME, result);
}
