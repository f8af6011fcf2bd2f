// The scope graph of `mesh web`: Cytoscape.js with a force-directed layout that yields to the page while
// it settles, scopes sized by their code and coloured by health, edges by their references, and a path
// highlighted scope by scope.
import cytoscape from "cytoscape";

export interface Scope {
  name: string;
  metadata: Record<string, unknown>;
}
export interface Edge {
  from: string;
  to: string;
  weight: number;
  counts: Record<string, number>;
  examples: string[];
}
export interface Topology {
  graph: { scopes: Scope[]; edges: Edge[] };
}

export type Health = "healthy" | "degraded" | "down";

/** The largest zoom the initial fit may choose. */
const MAX_FIT_ZOOM = 2;
/** A path is drawn one scope every this many ms. */
const PATH_STEP_MS = 250;

export class ScopeGraphView {
  readonly cy: cytoscape.Core;

  constructor(container: HTMLElement, tooltip: HTMLElement, onScope: (scope: string) => void) {
    this.cy = cytoscape({
      container,
      wheelSensitivity: 0.3,
      style: [
        { selector: "node", style: { label: "data(id)", color: "#d8dee6", "font-size": 11, "text-valign": "bottom", "text-margin-y": 4, "background-color": "#6e7681", width: "data(size)", height: "data(size)", "border-width": 2, "border-color": "#0f1419" } },
        { selector: "node.healthy", style: { "background-color": "#3fb950" } },
        { selector: "node.degraded", style: { "background-color": "#d29922" } },
        { selector: "node.down", style: { "background-color": "#f85149" } },
        { selector: "node.on-path", style: { "border-color": "#58a6ff", "border-width": 5 } },
        { selector: "node:selected", style: { "border-color": "#ffffff", "border-width": 3 } },
        { selector: "edge", style: { width: "data(width)", "line-color": "#2a333d", "target-arrow-color": "#2a333d", "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 0.8 } },
        { selector: "edge.on-path", style: { "line-color": "#58a6ff", "target-arrow-color": "#58a6ff", "z-index": 9 } },
      ],
    });
    const cy = this.cy;
    cy.on("mouseover", "edge", (event) => {
      const edge = event.target as cytoscape.EdgeSingular;
      tooltip.textContent = `${edge.data("source")} → ${edge.data("target")}: ${edge.data("weight")} reference(s)\n${edge.data("examples")}`;
      tooltip.style.display = "block";
      const at = event.renderedPosition ?? { x: 0, y: 0 };
      tooltip.style.left = `${at.x + 12}px`;
      tooltip.style.top = `${at.y + 12}px`;
    });
    cy.on("mouseout", "edge", () => (tooltip.style.display = "none"));
    cy.on("tap", "node", (event) => onScope((event.target as cytoscape.NodeSingular).id()));
  }

  /** Draws the topology; `lines` sizes the scopes (else the graph's own count); `onLaidOut` when it settled. */
  render(topology: Topology, lines: ReadonlyMap<string, number>, onLaidOut: () => void): void {
    const cy = this.cy;
    const sizeOf = (scope: Scope) => {
      const count = lines.get(scope.name) || (typeof scope.metadata["lines"] === "number" ? (scope.metadata["lines"] as number) : 2_000);
      return Math.round(18 + 6 * Math.log2(1 + count / 500));
    };
    const maxWeight = Math.max(1, ...topology.graph.edges.map((e) => e.weight));
    cy.elements().remove();
    cy.add([
      ...topology.graph.scopes.map((s) => ({ group: "nodes" as const, data: { id: s.name, size: sizeOf(s) } })),
      ...topology.graph.edges.map((e) => ({ group: "edges" as const, data: { id: `${e.from}->${e.to}`, source: e.from, target: e.to, width: 1 + 5 * Math.sqrt(e.weight / maxWeight), examples: e.examples.slice(0, 4).join("\n"), weight: e.weight } })),
    ]);
    // Animated: the force-directed layout yields to the page between frames instead of freezing it while it
    // settles (BENCHMARKS.md, "Web view").
    const layout = cy.layout({ name: "cose", animate: true, animationThreshold: 0, refresh: 10, fit: true, padding: 40, randomize: true, nodeRepulsion: () => 400000, idealEdgeLength: () => 100, nodeOverlap: 20 } as cytoscape.LayoutOptions);
    layout.one("layoutstop", () => {
      // A small fleet fits at a zoom that makes every node huge: keep them at about their natural size.
      if (cy.zoom() > MAX_FIT_ZOOM) {
        cy.zoom(MAX_FIT_ZOOM);
        cy.center();
      }
      onLaidOut();
    });
    layout.run();
  }

  paintHealth(healthOf: (scope: string) => Health): void {
    this.cy.nodes().forEach((node) => {
      node.removeClass("healthy degraded down");
      node.addClass(healthOf(node.id()));
    });
  }

  /** Highlights a path hop by hop: the scopes in order, and the edges between consecutive ones. */
  drawPath(scopes: string[]): void {
    this.cy.elements().removeClass("on-path");
    scopes.forEach((scope, i) => window.setTimeout(() => this.highlight(scopes[i - 1], scope), PATH_STEP_MS * i));
  }

  /** One hop: the scope, and the edge from the one before it. */
  highlight(prev: string | undefined, scope: string): void {
    this.cy.getElementById(scope).addClass("on-path");
    if (prev !== undefined && prev !== scope) this.cy.getElementById(`${prev}->${scope}`).addClass("on-path");
  }
}

/** The scope's symbols other scopes use most: the example references of the edges into it, by count. */
export function topSymbols(topology: Topology, scope: string): string[] {
  const counts = new Map<string, number>();
  for (const e of topology.graph.edges) if (e.to === scope) for (const symbol of e.examples) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 8).map(([symbol]) => symbol);
}
