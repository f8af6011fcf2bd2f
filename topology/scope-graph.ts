// The scope graph: scopes are nodes, aggregated cross-scope references are directed weighted edges.
import { TopologyInputError } from "./errors.js";

/** Every reference kind an edge can count, in the fixed order renderings and tie-breaks use. */
export const EDGE_KINDS = ["call", "include", "import", "manual"] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** The kinds that code facts produce; "manual" only comes from override files. */
export type ReferenceKind = Exclude<EdgeKind, "manual">;

/** At most this many example symbols or paths are kept per edge: enough to explain it, bounded in memory. */
export const MAX_EDGE_EXAMPLES = 5;

/** Metadata values stay JSON-safe so every rendering can print them without a custom serializer. */
export type MetadataValue = string | number | boolean | null | readonly string[];
export type ScopeMetadata = Readonly<Record<string, MetadataValue>>;

export interface ScopeNode {
  readonly name: string;
  readonly metadata: ScopeMetadata;
}

/** Reference counts per kind; kinds with no reference are 0, so every edge has the same shape. */
export type KindCounts = Readonly<Record<EdgeKind, number>>;

/** One edge per ordered pair (from, to); every reference between the pair is counted here. */
export interface ScopeEdge {
  readonly from: string;
  readonly to: string;
  /** The kind with the most references (ties go to the earlier kind in EDGE_KINDS). */
  readonly kind: EdgeKind;
  /** Total number of references, the sum of `counts`. */
  readonly weight: number;
  readonly counts: KindCounts;
  /** Up to MAX_EDGE_EXAMPLES distinct referenced symbols or paths, sorted, so output is stable. */
  readonly examples: readonly string[];
}

/** "out" follows edges as drawn, "in" walks them backwards, "both" ignores direction. */
export type Direction = "out" | "in" | "both";

/** An immutable scope graph. Build one with ScopeGraphBuilder; every accessor returns sorted, frozen data. */
export class ScopeGraph {
  private readonly nodeByName: ReadonlyMap<string, ScopeNode>;
  private readonly sortedNodes: readonly ScopeNode[];
  private readonly sortedEdges: readonly ScopeEdge[];
  private readonly outgoing = new Map<string, Map<string, ScopeEdge>>();
  private readonly adjacency: Record<Direction, Map<string, readonly string[]>>;

  /** Validates scope names, that every edge joins known scopes, and that no pair has two edges. */
  constructor(nodes: Iterable<ScopeNode>, edges: Iterable<ScopeEdge>) {
    const byName = new Map<string, ScopeNode>();
    for (const node of nodes) {
      checkScopeName(node.name);
      byName.set(node.name, Object.freeze({ name: node.name, metadata: Object.freeze({ ...node.metadata }) }));
    }
    this.nodeByName = byName;
    this.sortedNodes = Object.freeze([...byName.values()].sort((a, b) => compareText(a.name, b.name)));
    this.sortedEdges = Object.freeze(this.indexEdges(edges));
    this.adjacency = { out: new Map(), in: new Map(), both: new Map() };
    this.indexAdjacency();
  }

  /** All scopes, sorted by name. */
  nodes(): readonly ScopeNode[] {
    return this.sortedNodes;
  }

  /** All edges, sorted by `from` then `to`. */
  edges(): readonly ScopeEdge[] {
    return this.sortedEdges;
  }

  get nodeCount(): number {
    return this.sortedNodes.length;
  }

  get edgeCount(): number {
    return this.sortedEdges.length;
  }

  hasNode(scope: string): boolean {
    return this.nodeByName.has(scope);
  }

  node(scope: string): ScopeNode | undefined {
    return this.nodeByName.get(scope);
  }

  edge(from: string, to: string): ScopeEdge | undefined {
    return this.outgoing.get(from)?.get(to);
  }

  /** Adjacent scopes, sorted; an unknown scope has none (use hasNode to tell the two apart). */
  neighbors(scope: string, direction: Direction = "out"): readonly string[] {
    return this.adjacency[direction].get(scope) ?? EMPTY;
  }

  /** Scopes with no edge in or out (self loops do not count as a connection), sorted. */
  isolated(): readonly string[] {
    return this.sortedNodes
      .map((node) => node.name)
      .filter((name) => this.neighbors(name, "both").every((other) => other === name));
  }

  private indexEdges(edges: Iterable<ScopeEdge>): ScopeEdge[] {
    const list: ScopeEdge[] = [];
    for (const edge of edges) {
      for (const end of [edge.from, edge.to]) {
        if (!this.nodeByName.has(end)) {
          throw new TopologyInputError(`edge ${edge.from} -> ${edge.to} names unknown scope "${end}"`);
        }
      }
      let targets = this.outgoing.get(edge.from);
      if (targets === undefined) this.outgoing.set(edge.from, (targets = new Map()));
      if (targets.has(edge.to)) throw new TopologyInputError(`duplicate edge ${edge.from} -> ${edge.to}`);
      const frozen = freezeEdge(edge);
      targets.set(edge.to, frozen);
      list.push(frozen);
    }
    return list.sort((a, b) => compareText(a.from, b.from) || compareText(a.to, b.to));
  }

  private indexAdjacency(): void {
    const sets: Record<Direction, Map<string, Set<string>>> = { out: new Map(), in: new Map(), both: new Map() };
    const add = (direction: Direction, from: string, to: string): void => {
      let set = sets[direction].get(from);
      if (set === undefined) sets[direction].set(from, (set = new Set()));
      set.add(to);
    };
    for (const edge of this.sortedEdges) {
      add("out", edge.from, edge.to);
      add("in", edge.to, edge.from);
      add("both", edge.from, edge.to);
      add("both", edge.to, edge.from);
    }
    for (const direction of ["out", "in", "both"] as const) {
      for (const [scope, set] of sets[direction]) {
        this.adjacency[direction].set(scope, Object.freeze([...set].sort(compareText)));
      }
    }
  }
}

const EMPTY: readonly string[] = Object.freeze([]);

/** Weight and kind are recomputed from the counts, so a hand-made edge cannot contradict itself. */
function freezeEdge(edge: ScopeEdge): ScopeEdge {
  const counts = Object.freeze(Object.fromEntries(EDGE_KINDS.map((kind) => [kind, edge.counts[kind] ?? 0])));
  const bad = EDGE_KINDS.filter((kind) => !Number.isSafeInteger(counts[kind]) || (counts[kind] ?? 0) < 0);
  const weight = EDGE_KINDS.reduce((sum, kind) => sum + (counts[kind] ?? 0), 0);
  if (bad.length > 0 || weight === 0) {
    throw new TopologyInputError(`edge ${edge.from} -> ${edge.to} needs non-negative integer counts summing to > 0`);
  }
  return Object.freeze({
    from: edge.from,
    to: edge.to,
    kind: dominantKind(counts as KindCounts),
    weight,
    counts: counts as KindCounts,
    examples: Object.freeze([...edge.examples]),
  });
}

/** The kind with the highest count; ties go to the kind listed first in EDGE_KINDS. */
export function dominantKind(counts: KindCounts): EdgeKind {
  let best: EdgeKind = EDGE_KINDS[0];
  for (const kind of EDGE_KINDS) if (counts[kind] > counts[best]) best = kind;
  return best;
}

/** Code-point order, independent of the host locale, so output is byte-identical on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Control characters would corrupt the line-oriented text rendering and log lines.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Scope names are non-empty, carry no surrounding whitespace and no control characters. */
export function checkScopeName(name: unknown): asserts name is string {
  if (typeof name !== "string" || name.trim() === "" || name !== name.trim() || CONTROL_CHARACTERS.test(name)) {
    throw new TopologyInputError(
      `invalid scope name ${JSON.stringify(name)}: use a non-empty name without surrounding spaces or control characters`,
    );
  }
}
