// The stable JSON form of a scope graph: written by renderJson, read back by parseGraphJson (e.g. from a cache).
import { z } from "zod";
import { formatZodIssues, inputError } from "./errors.js";
import { EDGE_KINDS, ScopeGraph, compareText, type KindCounts, type MetadataValue } from "./scope-graph.js";

/** Identifies the document, so a reader can reject some other JSON file passed by mistake. */
export const GRAPH_JSON_FORMAT = "lattice-mesh/scope-graph";
/** Bumped when a field changes meaning; readers refuse versions they do not know. */
export const GRAPH_JSON_VERSION = 1;

export interface GraphJson {
  format: typeof GRAPH_JSON_FORMAT;
  version: typeof GRAPH_JSON_VERSION;
  scopes: Array<{ name: string; metadata: Record<string, MetadataValue> }>;
  edges: Array<{ from: string; to: string; kind: string; weight: number; counts: KindCounts; examples: string[] }>;
  isolated: string[];
  /** Present only when a path was highlighted. */
  path?: string[];
}

/** Plain data with every list sorted and every key in a fixed order, so equal graphs give identical bytes. */
export function toGraphJson(graph: ScopeGraph, path?: readonly string[]): GraphJson {
  const json: GraphJson = {
    format: GRAPH_JSON_FORMAT,
    version: GRAPH_JSON_VERSION,
    scopes: graph.nodes().map((node) => ({ name: node.name, metadata: sortKeys(node.metadata) })),
    edges: graph.edges().map((edge) => ({
      from: edge.from,
      to: edge.to,
      kind: edge.kind,
      weight: edge.weight,
      counts: Object.fromEntries(EDGE_KINDS.map((kind) => [kind, edge.counts[kind]])) as KindCounts,
      examples: [...edge.examples],
    })),
    isolated: [...graph.isolated()],
  };
  if (path !== undefined) json.path = [...path];
  return json;
}

const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
const count = z.number().int().nonnegative();

const graphJsonSchema = z.object({
  format: z.literal(GRAPH_JSON_FORMAT),
  version: z.literal(GRAPH_JSON_VERSION),
  scopes: z.array(z.object({ name: z.string(), metadata: z.record(z.string(), metadataValue).default({}) })),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      counts: z.object({ call: count, include: count, import: count, manual: count }),
      examples: z.array(z.string()).default([]),
    }),
  ),
});

/** Reads a graph written by renderJson; `kind`, `weight` and `isolated` are recomputed, not trusted. */
export function parseGraphJson(value: unknown): ScopeGraph {
  const parsed = graphJsonSchema.safeParse(typeof value === "string" ? parseText(value) : value);
  if (!parsed.success) throw inputError("invalid scope graph JSON", formatZodIssues(parsed.error), parsed.error);
  const nodes = parsed.data.scopes.map((scope) => ({ name: scope.name, metadata: scope.metadata }));
  const edges = parsed.data.edges.map((edge) => ({ ...edge, kind: "call" as const, weight: 0 }));
  return new ScopeGraph(nodes, edges);
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw inputError("invalid scope graph JSON", [why], error);
  }
}

function sortKeys(metadata: Readonly<Record<string, MetadataValue>>): Record<string, MetadataValue> {
  const keys = Object.keys(metadata).sort(compareText);
  return Object.fromEntries(keys.map((key) => [key, metadata[key] ?? null]));
}
