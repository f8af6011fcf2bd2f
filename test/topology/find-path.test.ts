import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_HOPS,
  ScopeGraphBuilder,
  TopologyInputError,
  deriveScopeGraph,
  findAlternativePaths,
  findQueryPath,
  type ScopeGraph,
} from "../../topology/index.js";
import { KERNEL_FACTS } from "./kernel-fixture.js";

const kernel = deriveScopeGraph(KERNEL_FACTS).graph;

/** A graph from "a>b" specs, each edge with weight 1 unless written "a>b*3". */
function graphOf(...specs: string[]): ScopeGraph {
  const builder = new ScopeGraphBuilder();
  for (const spec of specs) {
    const [pair = "", count = "1"] = spec.split("*");
    const [from = "", to] = pair.split(">");
    if (to === undefined) builder.addScope(from);
    else builder.addReference({ from, to, kind: "call", count: Number(count) });
  }
  return builder.build();
}

/** A chain s0 > s1 > … > s{length}. */
function chain(length: number): ScopeGraph {
  return graphOf(...Array.from({ length }, (_, index) => `s${index}>s${index + 1}`));
}

describe("findQueryPath", () => {
  it("finds the fewest-hop path, preferring the heavier of equal-length ones", () => {
    // net>drivers>mm weighs 2+2, net>kernel>mm weighs 2+3.
    expect(findQueryPath(kernel, "net", "mm")).toEqual({ ok: true, path: ["net", "kernel", "mm"], hops: 2, weight: 5 });
  });

  it("breaks a full tie by scope names", () => {
    const graph = graphOf("a>c", "a>b", "c>d", "b>d");
    expect(findQueryPath(graph, "a", "d")).toMatchObject({ path: ["a", "b", "d"] });
  });

  it("answers a query to the same scope with zero hops, even with maxHops 0", () => {
    expect(findQueryPath(kernel, "mm", "mm", { maxHops: 0 })).toEqual({ ok: true, path: ["mm"], hops: 0, weight: 0 });
  });

  it("reports unknown scopes by name", () => {
    const result = findQueryPath(kernel, "net", "gpu");
    expect(result).toEqual({ ok: false, reason: "unknown_scope", detail: 'unknown scope "gpu": the graph has no such scope' });
    expect(findQueryPath(kernel, "x", "x")).toMatchObject({ reason: "unknown_scope", detail: expect.stringContaining('"x"') });
  });

  it("tells no_path (no route at all) from hop_limit (a route, but too long)", () => {
    expect(findQueryPath(kernel, "fs", "net")).toEqual({
      ok: false,
      reason: "no_path",
      detail: "no path from fs to net following references",
    });
    expect(findQueryPath(kernel, "arch/x86", "mm", { direction: "both" })).toMatchObject({ reason: "no_path" });
    expect(findQueryPath(kernel, "net", "mm", { maxHops: 1 })).toEqual({
      ok: false,
      reason: "hop_limit",
      detail: "the shortest path from net to mm needs 2 hops; maxHops is 1",
      shortestHops: 2,
    });
  });

  it("allows exactly maxHops hops and refuses one more", () => {
    const graph = chain(DEFAULT_MAX_HOPS + 1);
    expect(findQueryPath(graph, "s0", `s${DEFAULT_MAX_HOPS}`)).toMatchObject({ ok: true, hops: DEFAULT_MAX_HOPS });
    expect(findQueryPath(graph, "s0", `s${DEFAULT_MAX_HOPS + 1}`)).toMatchObject({
      reason: "hop_limit",
      shortestHops: DEFAULT_MAX_HOPS + 1,
    });
    expect(findQueryPath(graph, "s0", `s${DEFAULT_MAX_HOPS + 1}`, { maxHops: 7 })).toMatchObject({ ok: true, hops: 7 });
  });

  it("walks edges backwards only when direction is both", () => {
    expect(findQueryPath(kernel, "fs", "net")).toMatchObject({ reason: "no_path" });
    // Against kernel>fs (1 reference), then against net>kernel (2 references).
    expect(findQueryPath(kernel, "fs", "net", { direction: "both" })).toEqual({
      ok: true,
      path: ["fs", "kernel", "net"],
      hops: 2,
      weight: 3,
    });
  });

  it("reroutes around avoided scopes and says when nothing is left", () => {
    expect(findQueryPath(kernel, "net", "mm", { avoid: new Set(["kernel"]) })).toMatchObject({
      path: ["net", "drivers", "mm"],
    });
    expect(findQueryPath(kernel, "net", "mm", { avoid: ["kernel", "drivers"] })).toEqual({
      ok: false,
      reason: "no_path",
      detail: "no path from net to mm following references while avoiding drivers, kernel",
    });
    expect(findQueryPath(kernel, "net", "mm", { avoid: ["mm"] })).toMatchObject({
      reason: "no_path",
      detail: "mm is in the avoid set, so no path can use it",
    });
  });

  it("terminates on cycles and self loops and never repeats a scope", () => {
    const graph = graphOf("a>a", "a>b", "b>a", "b>b", "b>c", "c>a", "c>c", "c>d", "x>x");
    expect(findQueryPath(graph, "a", "d")).toMatchObject({ path: ["a", "b", "c", "d"], hops: 3 });
    expect(findQueryPath(graph, "d", "a")).toMatchObject({ reason: "no_path" });
    expect(findQueryPath(graph, "a", "x")).toMatchObject({ reason: "no_path" });
    expect(findQueryPath(graph, "x", "x")).toMatchObject({ path: ["x"], hops: 0 });
  });

  it("rejects malformed options instead of guessing", () => {
    for (const maxHops of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => findQueryPath(kernel, "net", "mm", { maxHops })).toThrow(TopologyInputError);
    }
    expect(() => findQueryPath(kernel, "net", "mm", { direction: "in" as "out" })).toThrow(/direction/);
  });
});

describe("findAlternativePaths", () => {
  it("ranks every loop-free path by hops, then weight", () => {
    const result = findAlternativePaths(kernel, "net", "mm", 10);
    expect(result).toEqual({
      ok: true,
      paths: [
        { path: ["net", "kernel", "mm"], hops: 2, weight: 5 },
        { path: ["net", "drivers", "mm"], hops: 2, weight: 4 },
        { path: ["net", "drivers", "kernel", "mm"], hops: 3, weight: 8 },
      ],
    });
  });

  it("starts with findQueryPath's answer and stops at k", () => {
    const { ok, ...best } = findQueryPath(kernel, "net", "mm");
    expect(ok).toBe(true);
    expect(findAlternativePaths(kernel, "net", "mm", 1)).toEqual({ ok: true, paths: [best] });
  });

  it("keeps alternatives within maxHops and around avoided scopes", () => {
    expect(findAlternativePaths(kernel, "net", "mm", 10, { maxHops: 2 })).toMatchObject({ paths: { length: 2 } });
    expect(findAlternativePaths(kernel, "net", "mm", 10, { avoid: ["kernel"] })).toEqual({
      ok: true,
      paths: [{ path: ["net", "drivers", "mm"], hops: 2, weight: 4 }],
    });
  });

  it("returns the same failures as findQueryPath", () => {
    expect(findAlternativePaths(kernel, "net", "mm", 3, { maxHops: 1 })).toMatchObject({ reason: "hop_limit", shortestHops: 2 });
    expect(findAlternativePaths(kernel, "fs", "net", 3)).toMatchObject({ reason: "no_path" });
    expect(findAlternativePaths(kernel, "net", "nope", 3)).toMatchObject({ reason: "unknown_scope" });
  });

  it("enumerates all paths of a cyclic diamond without looping", () => {
    const graph = graphOf("s>a", "s>b", "a>b", "b>a", "a>t", "b>t", "t>s", "a>a");
    const result = findAlternativePaths(graph, "s", "t", 10);
    expect(result.ok && result.paths.map((entry) => entry.path.join(""))).toEqual(["sat", "sbt", "sabt", "sbat"]);
  });

  it("rejects a k that is not a positive integer within the cap", () => {
    for (const k of [0, -1, 2.5, 101]) expect(() => findAlternativePaths(kernel, "net", "mm", k)).toThrow(TopologyInputError);
  });
});
