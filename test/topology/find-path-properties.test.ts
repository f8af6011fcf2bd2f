// Property tests: path finding against independent reference implementations on seeded random graphs.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_HOPS,
  ScopeGraphBuilder,
  findAlternativePaths,
  findQueryPath,
  type PathDirection,
  type QueryPath,
  type ScopeGraph,
} from "../../topology/index.js";
import { mulberry32 } from "../../agents/pgc/retrieval/prng.js";

/** mulberry32, so every failure reproduces from its seed. */
const prng = mulberry32;

interface RandomGraph {
  graph: ScopeGraph;
  names: string[];
  /** weight[from][to] of the edge as drawn, 0 when absent. */
  weight: number[][];
}

function randomGraph(random: () => number, nodeCount: number, edgeCount: number, maxWeight: number): RandomGraph {
  const names = Array.from({ length: nodeCount }, (_, index) => `s${index}`);
  const weight = names.map(() => names.map(() => 0));
  const builder = new ScopeGraphBuilder();
  for (const name of names) builder.addScope(name);
  for (let made = 0; made < edgeCount; made += 1) {
    const from = Math.floor(random() * nodeCount);
    const to = Math.floor(random() * nodeCount); // self loops included on purpose
    const count = 1 + Math.floor(random() * maxWeight);
    builder.addReference({ from: `s${from}`, to: `s${to}`, kind: "call", count });
    const row = weight[from] as number[];
    row[to] = (row[to] ?? 0) + count;
  }
  return { graph: builder.build(), names, weight };
}

/** The weight of a step as the library defines it: as drawn for "out", both directions summed for "both". */
function stepWeight(random: RandomGraph, from: number, to: number, direction: PathDirection): number {
  const forward = random.weight[from]?.[to] ?? 0;
  const backward = from === to ? 0 : (random.weight[to]?.[from] ?? 0);
  return direction === "out" ? forward : forward + backward;
}

/** Reference 1: Floyd–Warshall hop distances (Infinity when unreachable). */
function floydWarshall(random: RandomGraph, direction: PathDirection): number[][] {
  const n = random.names.length;
  const distance = random.names.map((_, i) => random.names.map((__, j) => (i === j ? 0 : stepWeight(random, i, j, direction) > 0 ? 1 : Infinity)));
  for (let k = 0; k < n; k += 1)
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) {
        const row = distance[i] as number[];
        const through = (row[k] ?? Infinity) + (distance[k]?.[j] ?? Infinity);
        if (through < (row[j] ?? Infinity)) row[j] = through;
      }
  return distance;
}

/** Reference 2: every simple path from `from` to `to` of at most maxHops hops, in the library's total order. */
function allSimplePaths(random: RandomGraph, from: number, to: number, maxHops: number, direction: PathDirection): QueryPath[] {
  const found: QueryPath[] = [];
  const walk = (path: number[], weight: number): void => {
    const last = path[path.length - 1] as number;
    if (last === to) {
      found.push({ path: path.map((index) => `s${index}`), hops: path.length - 1, weight });
      return;
    }
    if (path.length - 1 === maxHops) return;
    for (let next = 0; next < random.names.length; next += 1) {
      const step = stepWeight(random, last, next, direction);
      if (step > 0 && !path.includes(next)) walk([...path, next], weight + step);
    }
  };
  walk([from], 0);
  return found.sort(
    (a, b) => a.hops - b.hops || b.weight - a.weight || compareNames(a.path, b.path),
  );
}

function compareNames(left: readonly string[], right: readonly string[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const a = left[index] as string;
    const b = right[index] as string;
    if (a !== b) return a < b ? -1 : 1;
  }
  return left.length - right.length;
}

function expectValidPath(graph: ScopeGraph, path: readonly string[], direction: PathDirection): void {
  expect(new Set(path).size).toBe(path.length);
  for (let index = 1; index < path.length; index += 1) {
    const from = path[index - 1] as string;
    const to = path[index] as string;
    const linked = graph.edge(from, to) !== undefined || (direction === "both" && graph.edge(to, from) !== undefined);
    expect(linked, `${from} -> ${to}`).toBe(true);
  }
}

describe("findQueryPath on 300 small random graphs", () => {
  it("matches Floyd–Warshall distances and tells no_path from hop_limit", () => {
    const random = prng(0xc0ffee);
    for (let round = 0; round < 300; round += 1) {
      const subject = randomGraph(random, 1 + Math.floor(random() * 8), Math.floor(random() * 20), 3);
      const direction: PathDirection = random() < 0.5 ? "out" : "both";
      const distance = floydWarshall(subject, direction);
      const maxHops = Math.floor(random() * 5);
      subject.names.forEach((from, i) =>
        subject.names.forEach((to, j) => {
          const expected = distance[i]?.[j] ?? Infinity;
          const result = findQueryPath(subject.graph, from, to, { maxHops, direction });
          const context = `seed round ${round}: ${from} -> ${to} (${direction}, maxHops ${maxHops})`;
          if (expected === Infinity) expect(result, context).toMatchObject({ ok: false, reason: "no_path" });
          else if (expected > maxHops) expect(result, context).toMatchObject({ reason: "hop_limit", shortestHops: expected });
          else {
            expect(result, context).toMatchObject({ ok: true, hops: expected });
            if (result.ok) expectValidPath(subject.graph, result.path, direction);
          }
        }),
      );
    }
  });

  it("picks exactly the first path of the brute-force ranking, and Yen's lists exactly its top k", () => {
    const random = prng(42);
    for (let round = 0; round < 300; round += 1) {
      const subject = randomGraph(random, 2 + Math.floor(random() * 6), Math.floor(random() * 18), 4);
      const direction: PathDirection = random() < 0.5 ? "out" : "both";
      const maxHops = 1 + Math.floor(random() * 5);
      const k = 1 + Math.floor(random() * 8);
      const from = Math.floor(random() * subject.names.length);
      const to = Math.floor(random() * subject.names.length);
      const ranking = allSimplePaths(subject, from, to, maxHops, direction);
      const options = { maxHops, direction };
      const best = findQueryPath(subject.graph, `s${from}`, `s${to}`, options);
      const alternatives = findAlternativePaths(subject.graph, `s${from}`, `s${to}`, k, options);
      const context = `round ${round}: s${from} -> s${to} (${direction}, maxHops ${maxHops}, k ${k})`;
      if (ranking.length === 0) {
        expect(best.ok, context).toBe(false);
        expect(alternatives.ok, context).toBe(false);
        continue;
      }
      expect(best, context).toEqual({ ok: true, ...ranking[0] });
      expect(alternatives, context).toEqual({ ok: true, paths: ranking.slice(0, k) });
    }
  });
});

describe("a 2,000-scope random graph", () => {
  const random = prng(2_000);
  const subject = randomGraph(random, 2_000, 8_000, 5);

  /** Reference 3: plain BFS hop distances from one source. */
  function bfsDistances(source: number): Map<number, number> {
    const distance = new Map([[source, 0]]);
    const queue = [source];
    for (let head = 0; head < queue.length; head += 1) {
      const current = queue[head] as number;
      subject.weight[current]?.forEach((weight, next) => {
        if (weight > 0 && !distance.has(next)) {
          distance.set(next, (distance.get(current) ?? 0) + 1);
          queue.push(next);
        }
      });
    }
    return distance;
  }

  it("terminates with BFS-correct answers for 100 random pairs, with and without a hop limit", () => {
    for (let round = 0; round < 100; round += 1) {
      const from = Math.floor(random() * 2_000);
      const to = Math.floor(random() * 2_000);
      const expected = bfsDistances(from).get(to);
      const limited = findQueryPath(subject.graph, `s${from}`, `s${to}`);
      const unlimited = findQueryPath(subject.graph, `s${from}`, `s${to}`, { maxHops: 2_000 });
      if (expected === undefined) {
        expect(limited).toMatchObject({ reason: "no_path" });
        expect(unlimited).toMatchObject({ reason: "no_path" });
        continue;
      }
      expect(unlimited).toMatchObject({ ok: true, hops: expected });
      if (unlimited.ok) expectValidPath(subject.graph, unlimited.path, "out");
      if (expected <= DEFAULT_MAX_HOPS) expect(limited).toEqual(unlimited);
      else expect(limited).toMatchObject({ reason: "hop_limit", shortestHops: expected });
    }
  });

  it("lists the same top 15 alternatives as a depth-limited brute force", () => {
    let compared = 0;
    for (let round = 0; round < 10; round += 1) {
      const from = Math.floor(random() * 2_000);
      const to = randomWalk(from, 3 + Math.floor(random() * 3)); // a reachable target, so there is much to rank
      const ranking = allSimplePathsSparse(from, to, 7);
      const result = findAlternativePaths(subject.graph, `s${from}`, `s${to}`, 15, { maxHops: 7 });
      if (ranking.length === 0) expect(result.ok).toBe(false);
      else expect(result).toEqual({ ok: true, paths: ranking.slice(0, 15) });
      compared += Math.min(ranking.length, 15);
    }
    expect(compared).toBeGreaterThan(50);
  });

  function randomWalk(from: number, steps: number): number {
    let current = from;
    for (let step = 0; step < steps; step += 1) {
      const next = subject.weight[current]?.flatMap((weight, index) => (weight > 0 && index !== current ? [index] : [])) ?? [];
      if (next.length === 0) break;
      current = next[Math.floor(random() * next.length)] as number;
    }
    return current;
  }

  /** allSimplePaths over adjacency lists: the dense version would scan 2,000 columns per step. */
  function allSimplePathsSparse(from: number, to: number, maxHops: number): QueryPath[] {
    const adjacency = subject.weight.map((row) => row.flatMap((weight, next) => (weight > 0 ? [next] : [])));
    const found: QueryPath[] = [];
    const walk = (path: number[], weight: number): void => {
      const last = path[path.length - 1] as number;
      if (last === to) found.push({ path: path.map((index) => `s${index}`), hops: path.length - 1, weight });
      else if (path.length - 1 < maxHops) {
        for (const next of adjacency[last] ?? []) {
          if (!path.includes(next)) walk([...path, next], weight + (subject.weight[last]?.[next] ?? 0));
        }
      }
    };
    walk([from], 0);
    return found.sort((a, b) => a.hops - b.hops || b.weight - a.weight || compareNames(a.path, b.path));
  }
});

describe("a 2,000-scope ring", () => {
  const names = Array.from({ length: 2_000 }, (_, index) => `r${index}`);
  const builder = new ScopeGraphBuilder();
  names.forEach((name, index) => builder.addReference({ from: name, to: names[(index + 1) % names.length] as string, kind: "call" }));
  const ring = builder.build();

  it("goes all the way round when allowed, reports hop_limit when not, and takes the short way with both", () => {
    expect(findQueryPath(ring, "r0", "r1999", { maxHops: 1_999 })).toMatchObject({ ok: true, hops: 1_999 });
    expect(findQueryPath(ring, "r0", "r1999")).toMatchObject({ reason: "hop_limit", shortestHops: 1_999 });
    expect(findQueryPath(ring, "r0", "r1999", { direction: "both" })).toMatchObject({ path: ["r0", "r1999"], hops: 1 });
    expect(findAlternativePaths(ring, "r0", "r1999", 5, { direction: "both", maxHops: 2_000 })).toMatchObject({
      ok: true,
      paths: [{ hops: 1 }, { hops: 1_999 }],
    });
  });
});
