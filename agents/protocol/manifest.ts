// MANIFEST.jsonl entries (seed 001 §5.1): one line per finished task, key findings for handoffs (seed 003).
import { z } from "zod";
import { ProtocolSchemaError } from "./errors.js";
import { idField, listField, relativePathField, textField } from "./fields.js";
import { MAX_ITEM_CHARS, MAX_KEY_FINDING_CHARS, MAX_KEY_FINDINGS, MAX_LIST_ITEMS } from "./limits.js";
import { parseWith } from "./parse.js";
import type { TaskStatus } from "./response.js";
import { MANIFEST_ENTRY_SCHEMA_NAME } from "./schema-names.js";

export const MANIFEST_STATUSES = Object.freeze(["complete", "partial", "blocked"] as const);
export type ManifestStatus = (typeof MANIFEST_STATUSES)[number];
export const ManifestStatusSchema = z.enum(MANIFEST_STATUSES);

// Unknown keys are stripped: manifests are files other tools write too.
export const ManifestEntrySchema = z
  .object({
    /** "<task-id>-<slug>", e.g. "T2398-protocol-analysis". */
    id: idField,
    /** Relative to the manifest's directory. */
    file: relativePathField,
    title: textField(MAX_ITEM_CHARS, 1),
    date: z.iso.date(),
    status: ManifestStatusSchema,
    /** A category such as research, specification, implementation. */
    agent_type: textField(MAX_ITEM_CHARS, 1),
    topics: listField(textField(MAX_ITEM_CHARS, 1), MAX_LIST_ITEMS).default([]),
    key_findings: listField(textField(MAX_KEY_FINDING_CHARS, 1), MAX_KEY_FINDINGS).default([]),
    actionable: z.boolean().default(true),
    needs_followup: listField(textField(MAX_ITEM_CHARS, 1), MAX_LIST_ITEMS).default([]),
    linked_tasks: listField(idField, MAX_LIST_ITEMS).default([]),
  })
  .superRefine((entry, ctx) => {
    // Seed 001 §6.2: a partial result MUST say what is left.
    if (entry.status === "partial" && entry.needs_followup.length === 0) {
      ctx.addIssue({ code: "custom", path: ["needs_followup"], message: "must list the remaining work when status is partial" });
    }
  });

/** A parsed entry: optional fields filled with their defaults. */
export type ManifestEntry = z.output<typeof ManifestEntrySchema>;
/** An entry as written: optional fields may be omitted. */
export type ManifestEntryInput = z.input<typeof ManifestEntrySchema>;

export function parseManifestEntry(value: unknown): ManifestEntry {
  return parseWith(ManifestEntrySchema, MANIFEST_ENTRY_SCHEMA_NAME, value);
}

/** Parses one MANIFEST.jsonl line; bad JSON is a ProtocolSchemaError like any other bad entry. */
export function parseManifestLine(line: string): ManifestEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProtocolSchemaError(MANIFEST_ENTRY_SCHEMA_NAME, [{ path: "(root)", message: `not valid JSON: ${reason}` }], { cause: error });
  }
  return parseManifestEntry(value);
}

/** One MANIFEST.jsonl line for `entry`, validated, without the trailing newline. */
export function formatManifestLine(entry: ManifestEntryInput): string {
  return JSON.stringify(parseManifestEntry(entry));
}

/** The manifest status recording a TaskResponse status (seed 001 has no failed or clarification state). */
export function manifestStatusFor(status: TaskStatus): ManifestStatus {
  switch (status) {
    case "completed":
      return "complete";
    case "partial":
      return "partial";
    case "blocked":
    case "failed":
    case "needs_clarification":
      return "blocked";
    default: {
      const unknown: never = status;
      throw new Error(`unknown task status ${String(unknown)}`);
    }
  }
}
