// Accumulates scopes and references, then freezes them into a ScopeGraph; the only way graphs are made.
import { TopologyInputError } from "./errors.js";
import {
  EDGE_KINDS,
  MAX_EDGE_EXAMPLES,
  ScopeGraph,
  checkScopeName,
  compareText,
  type EdgeKind,
  type MetadataValue,
  type ScopeEdge,
  type ScopeMetadata,
} from "./scope-graph.js";

/** One reference (or `count` identical ones) from one scope to another. */
export interface ReferenceInput {
  from: string;
  to: string;
  kind: EdgeKind;
  /** How many references this stands for; a positive integer, 1 when omitted. */
  count?: number;
  /** The referenced symbol or path, kept as an example on the edge. */
  example?: string;
}

interface EdgeDraft {
  counts: Record<EdgeKind, number>;
  /** Sorted, distinct, at most MAX_EDGE_EXAMPLES: the smallest ones win, so input order does not matter. */
  examples: string[];
}

/** Mutable and single-owner; build() returns an independent immutable graph and leaves the builder usable. */
export class ScopeGraphBuilder {
  private readonly scopes = new Map<string, Record<string, MetadataValue>>();
  private readonly drafts = new Map<string, Map<string, EdgeDraft>>();

  /** A builder pre-filled with a graph's scopes and edges, to derive a changed copy of it. */
  static from(graph: ScopeGraph): ScopeGraphBuilder {
    const builder = new ScopeGraphBuilder();
    for (const node of graph.nodes()) builder.addScope(node.name, node.metadata);
    for (const edge of graph.edges()) {
      const draft = builder.draft(edge.from, edge.to);
      for (const kind of EDGE_KINDS) draft.counts[kind] += edge.counts[kind];
      for (const example of edge.examples) addExample(draft.examples, example);
    }
    return builder;
  }

  /** Adds a scope, or merges metadata into an existing one (later keys win). */
  addScope(name: string, metadata: ScopeMetadata = {}): this {
    checkScopeName(name);
    const merged = { ...this.scopes.get(name), ...copyMetadata(name, metadata) };
    this.scopes.set(name, merged);
    return this;
  }

  hasScope(name: string): boolean {
    return this.scopes.has(name);
  }

  /** Counts a reference on the (from, to) edge, adding either scope if it is new. Self loops are allowed here. */
  addReference(reference: ReferenceInput): this {
    const { from, to, kind, count = 1, example } = reference;
    if (!EDGE_KINDS.includes(kind)) throw new TopologyInputError(`unknown reference kind "${String(kind)}"`);
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new TopologyInputError(`reference ${from} -> ${to}: count must be a positive integer, got ${count}`);
    }
    if (!this.scopes.has(from)) this.addScope(from);
    if (!this.scopes.has(to)) this.addScope(to);
    const draft = this.draft(from, to);
    draft.counts[kind] += count;
    if (example !== undefined && example !== "") addExample(draft.examples, example);
    return this;
  }

  hasEdge(from: string, to: string): boolean {
    return this.drafts.get(from)?.has(to) ?? false;
  }

  /** Removes the whole (from, to) edge, every kind; returns false when there was none. */
  removeEdge(from: string, to: string): boolean {
    return this.drafts.get(from)?.delete(to) ?? false;
  }

  build(): ScopeGraph {
    const nodes = [...this.scopes].map(([name, metadata]) => ({ name, metadata: Object.freeze({ ...metadata }) }));
    const edges: ScopeEdge[] = [];
    for (const [from, targets] of this.drafts) {
      for (const [to, draft] of targets) {
        // kind and weight are placeholders: the ScopeGraph constructor recomputes both from the counts.
        edges.push({ from, to, kind: "call", weight: 0, counts: { ...draft.counts }, examples: [...draft.examples] });
      }
    }
    return new ScopeGraph(nodes, edges);
  }

  private draft(from: string, to: string): EdgeDraft {
    let targets = this.drafts.get(from);
    if (targets === undefined) this.drafts.set(from, (targets = new Map()));
    let draft = targets.get(to);
    if (draft === undefined) {
      draft = { counts: { call: 0, include: 0, import: 0, manual: 0 }, examples: [] };
      targets.set(to, draft);
    }
    return draft;
  }
}

/** Keeps the list sorted and bounded; O(MAX_EDGE_EXAMPLES) per call. */
function addExample(examples: string[], example: string): void {
  if (examples.includes(example)) return;
  const last = examples[examples.length - 1];
  if (examples.length >= MAX_EDGE_EXAMPLES && last !== undefined && compareText(example, last) >= 0) return;
  examples.push(example);
  examples.sort(compareText);
  if (examples.length > MAX_EDGE_EXAMPLES) examples.pop();
}

function copyMetadata(scope: string, metadata: ScopeMetadata): Record<string, MetadataValue> {
  const copy: Record<string, MetadataValue> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (!isMetadataValue(value)) {
      throw new TopologyInputError(`scope "${scope}": metadata "${key}" must be a string, finite number, boolean, null or string[]`);
    }
    copy[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return copy;
}

function isMetadataValue(value: unknown): value is MetadataValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
