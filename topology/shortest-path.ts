// The one search every path query runs: breadth-first by hop count, ties broken by weight, then by name.
import { compareText, type ScopeGraph } from "./scope-graph.js";

/** "out" follows references as drawn (net calls drivers: net → drivers); "both" ignores direction. */
export type PathDirection = "out" | "both";

export interface WeightedPath {
  readonly path: readonly string[];
  /** Number of edges walked: path.length - 1. */
  readonly hops: number;
  /** Sum of the reference counts of the edges walked; heavier paths follow stronger dependencies. */
  readonly weight: number;
}

/** What one search may not use: dead or already-used scopes, and steps an earlier path took (Yen's spurs). */
export interface SearchBlocks {
  readonly nodes: ReadonlySet<string>;
  readonly steps: ReadonlyMap<string, ReadonlySet<string>>;
}

export const NO_BLOCKS: SearchBlocks = Object.freeze({ nodes: new Set<string>(), steps: new Map() });

/**
 * The best path from `from` to `to`: fewest hops, then greatest weight, then smallest in name order.
 * Always terminates: each scope is queued at most once, so cycles and self loops cost nothing extra.
 * Returns undefined when `to` cannot be reached; the caller checks scopes exist and applies the hop limit.
 */
export function bestPath(
  graph: ScopeGraph,
  from: string,
  to: string,
  direction: PathDirection,
  blocks: SearchBlocks = NO_BLOCKS,
): WeightedPath | undefined {
  if (blocks.nodes.has(from) || blocks.nodes.has(to)) return undefined;
  const depth = new Map<string, number>([[from, 0]]);
  const best = new Map<string, { weight: number; parent: string | undefined }>([[from, { weight: 0, parent: undefined }]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head += 1) {
    const current = queue[head] as string;
    const currentDepth = depth.get(current) ?? 0;
    const targetDepth = depth.get(to);
    // Every predecessor of `to` sits one layer above it, so once that layer is done, `to` is final.
    if (targetDepth !== undefined && currentDepth >= targetDepth) break;
    const currentWeight = best.get(current)?.weight ?? 0;
    for (const next of graph.neighbors(current, direction)) {
      if (blocks.nodes.has(next) || blocks.steps.get(current)?.has(next)) continue;
      const weight = currentWeight + stepWeight(graph, current, next, direction);
      const nextDepth = depth.get(next);
      if (nextDepth === undefined) {
        depth.set(next, currentDepth + 1);
        best.set(next, { weight, parent: current });
        queue.push(next);
      } else if (nextDepth === currentDepth + 1 && improves(best, next, current, weight)) {
        best.set(next, { weight, parent: current });
      }
    }
  }
  return best.has(to) ? { path: tracePath(best, to), hops: depth.get(to) ?? 0, weight: best.get(to)?.weight ?? 0 } : undefined;
}

/** True when reaching `node` through `parent` with `weight` beats its current best at the same depth. */
function improves(
  best: Map<string, { weight: number; parent: string | undefined }>,
  node: string,
  parent: string,
  weight: number,
): boolean {
  const current = best.get(node);
  if (current === undefined || current.parent === undefined) return false;
  if (weight !== current.weight) return weight > current.weight;
  return compareAncestry(best, parent, current.parent) < 0;
}

/**
 * Compares the paths leading to two nodes at the same depth in name order, without building them: walk both
 * chains up until they meet; the last pair that differed is the first difference from the start.
 */
function compareAncestry(
  best: Map<string, { parent: string | undefined }>,
  left: string | undefined,
  right: string | undefined,
): number {
  let order = 0;
  while (left !== undefined && right !== undefined && left !== right) {
    order = compareText(left, right);
    left = best.get(left)?.parent;
    right = best.get(right)?.parent;
  }
  return order;
}

function tracePath(best: Map<string, { parent: string | undefined }>, to: string): string[] {
  const path: string[] = [];
  for (let node: string | undefined = to; node !== undefined; node = best.get(node)?.parent) path.push(node);
  return path.reverse();
}

/** The weight of one step; walking against an edge ("both") counts it the same as walking with it. */
export function stepWeight(graph: ScopeGraph, from: string, to: string, direction: PathDirection): number {
  const forward = graph.edge(from, to)?.weight ?? 0;
  return direction === "out" ? forward : forward + (from === to ? 0 : (graph.edge(to, from)?.weight ?? 0));
}

export function pathWeight(graph: ScopeGraph, path: readonly string[], direction: PathDirection): number {
  let weight = 0;
  for (let index = 1; index < path.length; index += 1) {
    weight += stepWeight(graph, path[index - 1] as string, path[index] as string, direction);
  }
  return weight;
}

/** The total order of paths: fewer hops first, then heavier, then by scope names. */
export function comparePaths(left: WeightedPath, right: WeightedPath): number {
  if (left.hops !== right.hops) return left.hops - right.hops;
  if (left.weight !== right.weight) return right.weight - left.weight;
  const length = Math.min(left.path.length, right.path.length);
  for (let index = 0; index < length; index += 1) {
    const order = compareText(left.path[index] as string, right.path[index] as string);
    if (order !== 0) return order;
  }
  return left.path.length - right.path.length;
}
