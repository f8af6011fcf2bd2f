import { describe, expect, it } from "vitest";
import {
  MAX_EDGE_EXAMPLES,
  ScopeGraph,
  ScopeGraphBuilder,
  TopologyInputError,
  type ScopeEdge,
} from "../../topology/index.js";

function sampleGraph(): ScopeGraph {
  return new ScopeGraphBuilder()
    .addScope("net", { owner: "netdev" })
    .addScope("lonely")
    .addReference({ from: "net", to: "drivers", kind: "call", example: "e1000_xmit_frame" })
    .addReference({ from: "net", to: "drivers", kind: "call", example: "e1000_xmit_frame" })
    .addReference({ from: "net", to: "drivers", kind: "include", count: 3, example: "include/linux/e1000.h" })
    .addReference({ from: "drivers", to: "mm", kind: "import" })
    .addReference({ from: "mm", to: "net", kind: "manual" })
    .build();
}

describe("ScopeGraphBuilder", () => {
  it("aggregates every reference between a pair into one edge with per-kind counts", () => {
    const edge = sampleGraph().edge("net", "drivers");
    expect(edge).toEqual({
      from: "net",
      to: "drivers",
      kind: "include",
      weight: 5,
      counts: { call: 2, include: 3, import: 0, manual: 0 },
      examples: ["e1000_xmit_frame", "include/linux/e1000.h"],
    });
  });

  it("breaks a tie in the dominant kind by EDGE_KINDS order", () => {
    const graph = new ScopeGraphBuilder()
      .addReference({ from: "a", to: "b", kind: "import" })
      .addReference({ from: "a", to: "b", kind: "include" })
      .build();
    expect(graph.edge("a", "b")?.kind).toBe("include");
  });

  it("keeps the smallest distinct examples, bounded, whatever the input order", () => {
    const names = ["k", "c", "a", "j", "b", "c", "i", "d", "e", "a"];
    const forward = new ScopeGraphBuilder();
    const backward = new ScopeGraphBuilder();
    for (const name of names) forward.addReference({ from: "x", to: "y", kind: "call", example: name });
    for (const name of [...names].reverse()) backward.addReference({ from: "x", to: "y", kind: "call", example: name });
    const expected = ["a", "b", "c", "d", "e"];
    expect(expected).toHaveLength(MAX_EDGE_EXAMPLES);
    expect(forward.build().edge("x", "y")?.examples).toEqual(expected);
    expect(backward.build().edge("x", "y")?.examples).toEqual(expected);
    expect(forward.build().edge("x", "y")?.weight).toBe(names.length);
  });

  it("merges metadata when a scope is added twice, later keys winning", () => {
    const graph = new ScopeGraphBuilder()
      .addScope("mm", { owner: "a", paths: ["mm/"] })
      .addScope("mm", { owner: "b" })
      .build();
    expect(graph.node("mm")?.metadata).toEqual({ owner: "b", paths: ["mm/"] });
  });

  it("rejects bad scope names, counts and metadata with TopologyInputError", () => {
    const builder = new ScopeGraphBuilder();
    for (const name of ["", "  ", " net", "net\n", "a\u0000b"]) {
      expect(() => builder.addScope(name)).toThrow(TopologyInputError);
    }
    expect(() => builder.addReference({ from: "a", to: "b", kind: "call", count: 0 })).toThrow(/positive integer/);
    expect(() => builder.addReference({ from: "a", to: "b", kind: "call", count: 1.5 })).toThrow(/positive integer/);
    const badMetadata = { when: new Date() } as unknown as Record<string, string>;
    expect(() => builder.addScope("a", badMetadata)).toThrow(/metadata "when"/);
    try {
      builder.addScope("");
    } catch (error) {
      expect(error).toMatchObject({ name: "TopologyInputError", code: "TOPOLOGY_INVALID_INPUT", retryable: false });
    }
  });

  it("removes a whole edge and reports whether there was one", () => {
    const builder = ScopeGraphBuilder.from(sampleGraph());
    expect(builder.removeEdge("net", "drivers")).toBe(true);
    expect(builder.removeEdge("net", "drivers")).toBe(false);
    expect(builder.build().edge("net", "drivers")).toBeUndefined();
  });

  it("builds independent graphs: changing a builder made from a graph leaves the graph alone", () => {
    const graph = sampleGraph();
    const builder = ScopeGraphBuilder.from(graph);
    builder.addReference({ from: "net", to: "drivers", kind: "call", count: 10 });
    builder.removeEdge("drivers", "mm");
    const changed = builder.build();
    expect(graph.edge("net", "drivers")?.weight).toBe(5);
    expect(graph.edge("drivers", "mm")).toBeDefined();
    expect(changed.edge("net", "drivers")?.weight).toBe(15);
    expect(changed.node("net")?.metadata).toEqual({ owner: "netdev" });
  });
});

describe("ScopeGraph", () => {
  it("lists nodes and edges sorted and frozen", () => {
    const graph = sampleGraph();
    expect(graph.nodes().map((node) => node.name)).toEqual(["drivers", "lonely", "mm", "net"]);
    expect(graph.edges().map((edge) => `${edge.from}>${edge.to}`)).toEqual(["drivers>mm", "mm>net", "net>drivers"]);
    expect(graph.nodeCount).toBe(4);
    expect(graph.edgeCount).toBe(3);
    expect(Object.isFrozen(graph.edges())).toBe(true);
    expect(Object.isFrozen(graph.edge("net", "drivers"))).toBe(true);
    expect(Object.isFrozen(graph.edge("net", "drivers")?.counts)).toBe(true);
    expect(Object.isFrozen(graph.node("net")?.metadata)).toBe(true);
  });

  it("answers neighbors in each direction, sorted; unknown scopes have none", () => {
    const graph = new ScopeGraphBuilder()
      .addReference({ from: "a", to: "c", kind: "call" })
      .addReference({ from: "a", to: "b", kind: "call" })
      .addReference({ from: "c", to: "a", kind: "call" })
      .addReference({ from: "d", to: "a", kind: "call" })
      .build();
    expect(graph.neighbors("a")).toEqual(["b", "c"]);
    expect(graph.neighbors("a", "in")).toEqual(["c", "d"]);
    expect(graph.neighbors("a", "both")).toEqual(["b", "c", "d"]);
    expect(graph.neighbors("b")).toEqual([]);
    expect(graph.neighbors("nowhere")).toEqual([]);
    expect(graph.hasNode("nowhere")).toBe(false);
    expect(graph.hasNode("d")).toBe(true);
    expect(graph.edge("b", "a")).toBeUndefined();
  });

  it("treats a scope with only a self loop as isolated", () => {
    const graph = new ScopeGraphBuilder()
      .addReference({ from: "loop", to: "loop", kind: "manual" })
      .addReference({ from: "a", to: "b", kind: "call" })
      .addScope("alone")
      .build();
    expect(graph.isolated()).toEqual(["alone", "loop"]);
    expect(graph.neighbors("loop")).toEqual(["loop"]);
  });

  it("validates edges given to the constructor and recomputes weight and kind from counts", () => {
    const node = (name: string) => ({ name, metadata: {} });
    const edge = (from: string, to: string, call = 1): ScopeEdge => ({
      from,
      to,
      kind: "manual",
      weight: 99,
      counts: { call, include: 0, import: 0, manual: 0 },
      examples: [],
    });
    expect(() => new ScopeGraph([node("a")], [edge("a", "ghost")])).toThrow(/unknown scope "ghost"/);
    expect(() => new ScopeGraph([node("a"), node("b")], [edge("a", "b"), edge("a", "b")])).toThrow(/duplicate edge/);
    expect(() => new ScopeGraph([node("a"), node("b")], [edge("a", "b", 0)])).toThrow(/counts/);
    const graph = new ScopeGraph([node("a"), node("b")], [edge("a", "b", 4)]);
    expect(graph.edge("a", "b")).toMatchObject({ kind: "call", weight: 4 });
  });
});
