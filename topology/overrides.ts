// Override files: the human correction layer on top of the derived graph (add missed edges, remove noisy ones).
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { OverrideFileError, formatZodIssues, summarise } from "./errors.js";
import { EDGE_KINDS, type EdgeKind, type ScopeGraph } from "./scope-graph.js";
import { ScopeGraphBuilder } from "./scope-graph-builder.js";

/** Source name used in errors when overrides are parsed from a string rather than read from a file. */
export const INLINE_OVERRIDES_SOURCE = "<inline>";

const scopeName = z.string().trim().min(1, "scope name must not be empty");

const addSchema = z
  .strictObject({
    from: scopeName,
    to: scopeName,
    kind: z.enum(EDGE_KINDS).default("manual"),
    count: z.number().int().positive().default(1),
    reason: z.string().optional(),
  })
  .refine((entry) => entry.from !== entry.to, { message: "from and to must be different scopes" });

const removeSchema = z.strictObject({ from: scopeName, to: scopeName, reason: z.string().optional() });

// Strict objects, so a typo such as "remvoe" is reported instead of silently ignored.
const overridesSchema = z.strictObject({
  $schema: z.string().optional(),
  add: z.array(addSchema).default([]),
  remove: z.array(removeSchema).default([]),
});

export interface OverrideAdd {
  from: string;
  to: string;
  kind: EdgeKind;
  count: number;
  reason?: string;
}

export interface OverrideRemove {
  from: string;
  to: string;
  reason?: string;
}

export interface Overrides {
  /** The file the overrides came from, or INLINE_OVERRIDES_SOURCE. */
  source: string;
  add: readonly OverrideAdd[];
  remove: readonly OverrideRemove[];
}

export interface OverrideReport {
  added: readonly OverrideAdd[];
  removed: readonly OverrideRemove[];
  /** Removals whose edge the graph did not have: harmless (the edge is absent either way) but worth a look. */
  notFound: readonly OverrideRemove[];
}

/** Parses override JSON text; throws OverrideFileError naming the source and every problem found. */
export function parseOverrides(text: string, source: string = INLINE_OVERRIDES_SOURCE): Overrides {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new OverrideFileError(`${source}: not valid JSON (${why})`, source, { issues: [why], cause: error });
  }
  return parseOverridesValue(value, source);
}

/** Validates an already-parsed JSON value against the override schema. */
export function parseOverridesValue(value: unknown, source: string = INLINE_OVERRIDES_SOURCE): Overrides {
  const parsed = overridesSchema.safeParse(value);
  if (!parsed.success) {
    const issues = formatZodIssues(parsed.error);
    throw new OverrideFileError(`${source}: invalid overrides: ${summarise(issues)}`, source, {
      issues,
      cause: parsed.error,
    });
  }
  return Object.freeze({ source, add: Object.freeze(parsed.data.add), remove: Object.freeze(parsed.data.remove) });
}

/** Reads and parses an override file; a missing or unreadable file is an OverrideFileError too. */
export async function readOverridesFile(path: string): Promise<Overrides> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new OverrideFileError(`cannot read override file ${path}: ${why}`, path, { issues: [why], cause: error });
  }
  return parseOverrides(text, path);
}

/**
 * Returns a new graph with the overrides applied: every removal first, then every addition, so listing a
 * pair in both replaces its derived edge. Scopes the graph lacks are an error (most likely a typo or a
 * renamed scope); the input graph is never changed.
 */
export function applyOverrides(graph: ScopeGraph, overrides: Overrides): { graph: ScopeGraph; report: OverrideReport } {
  checkScopesExist(graph, overrides);
  const builder = ScopeGraphBuilder.from(graph);
  const removed: OverrideRemove[] = [];
  const notFound: OverrideRemove[] = [];
  for (const entry of overrides.remove) {
    (builder.removeEdge(entry.from, entry.to) ? removed : notFound).push(entry);
  }
  for (const entry of overrides.add) {
    builder.addReference({ from: entry.from, to: entry.to, kind: entry.kind, count: entry.count });
  }
  return { graph: builder.build(), report: { added: overrides.add, removed, notFound } };
}

function checkScopesExist(graph: ScopeGraph, overrides: Overrides): void {
  const issues: string[] = [];
  const check = (section: "add" | "remove", index: number, field: "from" | "to", scope: string): void => {
    if (!graph.hasNode(scope)) issues.push(`${section}[${index}].${field}: unknown scope "${scope}"`);
  };
  overrides.add.forEach((entry, index) => {
    check("add", index, "from", entry.from);
    check("add", index, "to", entry.to);
  });
  overrides.remove.forEach((entry, index) => {
    check("remove", index, "from", entry.from);
    check("remove", index, "to", entry.to);
  });
  if (issues.length > 0) {
    const message = `${overrides.source}: ${summarise(issues)} (known scopes: ${knownScopes(graph)})`;
    throw new OverrideFileError(message, overrides.source, { issues, code: "TOPOLOGY_OVERRIDE_UNKNOWN_SCOPE" });
  }
}

/** A short list of real scope names, so the error shows what the user could have meant. */
function knownScopes(graph: ScopeGraph): string {
  const names = graph.nodes().map((node) => node.name);
  const shown = names.slice(0, 10).join(", ");
  return names.length > 10 ? `${shown}, … ${names.length - 10} more` : shown || "none";
}
