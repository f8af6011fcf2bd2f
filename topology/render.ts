// Renderings of a scope graph for people (text), programs (JSON) and diagrams (DOT, Mermaid); all deterministic.
import { toGraphJson } from "./graph-json.js";
import { EDGE_KINDS, type ScopeEdge, type ScopeGraph } from "./scope-graph.js";

export const RENDER_FORMATS = ["text", "json", "dot", "mermaid"] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

export interface RenderOptions {
  /** A path (e.g. from findQueryPath) to mark; its steps may run against an edge when found with "both". */
  highlight?: readonly string[];
}

// One colour for highlighted paths in both diagram formats, so screenshots of either look alike.
const HIGHLIGHT_COLOUR = "#d62728";

export function renderGraph(graph: ScopeGraph, format: RenderFormat, options: RenderOptions = {}): string {
  switch (format) {
    case "text":
      return renderText(graph, options);
    case "json":
      return renderJson(graph, options);
    case "dot":
      return renderDot(graph, options);
    case "mermaid":
      return renderMermaid(graph, options);
    default: {
      const unknown: never = format;
      throw new Error(`unknown render format ${String(unknown)}`);
    }
  }
}

/** One line per edge: total references, then per kind, then examples (`*` marks the highlighted path). */
export function renderText(graph: ScopeGraph, options: RenderOptions = {}): string {
  const onPath = pathEdges(graph, options.highlight);
  const references = graph.edges().reduce((sum, edge) => sum + edge.weight, 0);
  const lines = [`scope graph: ${graph.nodeCount} scopes, ${graph.edgeCount} edges, ${references} references`];
  if (options.highlight !== undefined) lines.push(`path: ${describePath(options.highlight)}`);
  const arrows = graph.edges().map((edge) => `${edge.from} -> ${edge.to}`);
  const arrowWidth = Math.max(0, ...arrows.map((arrow) => arrow.length));
  const weightWidth = Math.max(0, ...graph.edges().map((edge) => String(edge.weight).length));
  graph.edges().forEach((edge, index) => {
    const marker = onPath.has(edge) ? "*" : " ";
    const arrow = (arrows[index] ?? "").padEnd(arrowWidth);
    const weight = String(edge.weight).padStart(weightWidth);
    const examples = edge.examples.length > 0 ? `  e.g. ${edge.examples.join(", ")}` : "";
    lines.push(`${marker} ${arrow}  ${weight} (${countsLabel(edge)})${examples}`);
  });
  const isolated = graph.isolated();
  lines.push(`isolated scopes: ${isolated.length > 0 ? isolated.join(", ") : "none"}`);
  return `${lines.join("\n")}\n`;
}

/** Pretty-printed GraphJson (see graph-json.ts), with a trailing newline. */
export function renderJson(graph: ScopeGraph, options: RenderOptions = {}): string {
  return `${JSON.stringify(toGraphJson(graph, options.highlight), null, 2)}\n`;
}

/** A Graphviz digraph; every id is quoted, so any scope name is safe. */
export function renderDot(graph: ScopeGraph, options: RenderOptions = {}): string {
  const onPath = pathEdges(graph, options.highlight);
  const pathScopes = new Set(options.highlight ?? []);
  const highlight = `color="${HIGHLIGHT_COLOUR}", penwidth=2`;
  const lines = ["digraph scopes {", "  rankdir=LR;", "  node [shape=box];"];
  for (const node of graph.nodes()) {
    lines.push(`  ${dotId(node.name)}${pathScopes.has(node.name) ? ` [${highlight}]` : ""};`);
  }
  for (const edge of graph.edges()) {
    const extra = onPath.has(edge) ? `, ${highlight}` : "";
    lines.push(`  ${dotId(edge.from)} -> ${dotId(edge.to)} [label=${dotId(countsLabel(edge))}${extra}];`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

/** A Mermaid flowchart (`graph LR`); ids are sanitised and labels carry the real names. */
export function renderMermaid(graph: ScopeGraph, options: RenderOptions = {}): string {
  const ids = mermaidIds(graph.nodes().map((node) => node.name));
  const id = (name: string): string => ids.get(name) ?? name;
  const onPath = pathEdges(graph, options.highlight);
  const lines = ["graph LR"];
  for (const node of graph.nodes()) lines.push(`  ${id(node.name)}["${mermaidText(node.name)}"]`);
  const highlighted: number[] = [];
  graph.edges().forEach((edge, index) => {
    lines.push(`  ${id(edge.from)} -->|"${mermaidText(countsLabel(edge))}"| ${id(edge.to)}`);
    if (onPath.has(edge)) highlighted.push(index);
  });
  const pathScopes = (options.highlight ?? []).filter((name) => graph.hasNode(name));
  if (pathScopes.length > 0) {
    lines.push(`  classDef onPath stroke:${HIGHLIGHT_COLOUR},stroke-width:3px;`);
    lines.push(`  class ${[...new Set(pathScopes.map(id))].join(",")} onPath;`);
  }
  if (highlighted.length > 0) {
    lines.push(`  linkStyle ${highlighted.join(",")} stroke:${HIGHLIGHT_COLOUR},stroke-width:3px;`);
  }
  return `${lines.join("\n")}\n`;
}

/** "call 5, include 2": the non-zero kinds in EDGE_KINDS order. */
export function countsLabel(edge: ScopeEdge): string {
  return EDGE_KINDS.filter((kind) => edge.counts[kind] > 0)
    .map((kind) => `${kind} ${edge.counts[kind]}`)
    .join(", ");
}

function describePath(path: readonly string[]): string {
  if (path.length === 0) return "(empty)";
  const hops = path.length - 1;
  return `${path.join(" -> ")} (${hops} ${hops === 1 ? "hop" : "hops"})`;
}

/** The graph edges a path walks; a step with no edge as drawn uses the reverse edge (a "both" path). */
function pathEdges(graph: ScopeGraph, path: readonly string[] | undefined): Set<ScopeEdge> {
  const edges = new Set<ScopeEdge>();
  for (let index = 1; index < (path?.length ?? 0); index += 1) {
    const from = path?.[index - 1] ?? "";
    const to = path?.[index] ?? "";
    const edge = graph.edge(from, to) ?? graph.edge(to, from);
    if (edge !== undefined) edges.add(edge);
  }
  return edges;
}

/** DOT quoted id: only `"` and `\` need escaping, and scope names hold no control characters. */
function dotId(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** Mermaid entity codes; `#` goes first so the codes themselves are not escaped again. */
function mermaidText(text: string): string {
  return text.replaceAll("#", "#35;").replaceAll('"', "#quot;").replaceAll("<", "#lt;").replaceAll(">", "#gt;");
}

/**
 * Mermaid ids: `s_` + the name with every character outside [A-Za-z0-9_] turned into `_`. The prefix keeps
 * keywords such as `end` and leading digits out of the id; clashes ("a/b" vs "a_b") get `_2`, `_3`, … in name order.
 */
function mermaidIds(names: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const name of names) {
    const base = `s_${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
    let candidate = base;
    for (let suffix = 2; used.has(candidate); suffix += 1) candidate = `${base}_${suffix}`;
    used.add(candidate);
    ids.set(name, candidate);
  }
  return ids;
}
