// Query routing over the scope graph: the shortest path for a multi-hop question, and ranked alternatives.
import { z } from "zod";
import { formatZodIssues, inputError } from "./errors.js";
import type { ScopeGraph } from "./scope-graph.js";
import {
  bestPath,
  comparePaths,
  pathWeight,
  type PathDirection,
  type SearchBlocks,
  type WeightedPath,
} from "./shortest-path.js";

/** Default bound on edges walked by one multi-hop query (6 hops = 7 scopes), as in the delegation protocol. */
export const DEFAULT_MAX_HOPS = 6;

/** Upper bound on `k` for findAlternativePaths: each extra path costs up to (hops) more searches. */
export const MAX_ALTERNATIVE_PATHS = 100;

export interface PathOptions {
  /** Most edges a path may walk; a non-negative integer, DEFAULT_MAX_HOPS when omitted. */
  maxHops?: number;
  /** "out" (default) follows references as drawn; "both" also walks them backwards. */
  direction?: PathDirection;
  /** Scopes a path must not pass through, e.g. scopes whose workers are down. */
  avoid?: Iterable<string>;
}

export type QueryPath = WeightedPath;

export type PathFailure =
  | { ok: false; reason: "unknown_scope" | "no_path"; detail: string }
  /** A path exists but every one walks more than maxHops edges; shortestHops says how many the best needs. */
  | { ok: false; reason: "hop_limit"; detail: string; shortestHops: number };

export type QueryPathResult = ({ ok: true } & QueryPath) | PathFailure;

export type AlternativePathsResult = { ok: true; paths: readonly QueryPath[] } | PathFailure;

const optionsSchema = z.object({
  maxHops: z.number().int().nonnegative().default(DEFAULT_MAX_HOPS),
  direction: z.enum(["out", "both"]).default("out"),
});

interface SearchPlan {
  maxHops: number;
  direction: PathDirection;
  avoid: ReadonlySet<string>;
}

/**
 * The path a multi-hop query should take from `from` to `to`: fewest hops (a scope never appears twice), then
 * heaviest, then by name. `hops` is path.length - 1, so from === to gives [from] and 0 hops.
 */
export function findQueryPath(graph: ScopeGraph, from: string, to: string, options: PathOptions = {}): QueryPathResult {
  const plan = parsePlan(options);
  const first = firstPath(graph, from, to, plan);
  return "ok" in first ? first : { ok: true, ...first };
}

/**
 * Up to k loop-free paths in the order of comparePaths (Yen's k-shortest paths), all within maxHops; the
 * first equals findQueryPath's answer. Use them to reroute when a scope on the best path is down.
 */
export function findAlternativePaths(
  graph: ScopeGraph,
  from: string,
  to: string,
  k: number,
  options: PathOptions = {},
): AlternativePathsResult {
  if (!Number.isInteger(k) || k < 1 || k > MAX_ALTERNATIVE_PATHS) {
    throw inputError("invalid k", [`k must be an integer from 1 to ${MAX_ALTERNATIVE_PATHS}, got ${k}`]);
  }
  const plan = parsePlan(options);
  const first = firstPath(graph, from, to, plan);
  if ("ok" in first) return first;
  const accepted: QueryPath[] = [first];
  const candidates: QueryPath[] = [];
  const seen = new Set<string>([pathKey(first.path)]);
  while (accepted.length < k) {
    const previous = accepted[accepted.length - 1] as QueryPath;
    for (const candidate of spurPaths(graph, previous, accepted, to, plan)) {
      const key = pathKey(candidate.path);
      if (!seen.has(key)) {
        seen.add(key);
        candidates.push(candidate);
      }
    }
    if (candidates.length === 0) break;
    candidates.sort(comparePaths);
    accepted.push(candidates.shift() as QueryPath);
  }
  return { ok: true, paths: Object.freeze(accepted.map(freezePath)) };
}

/** Yen's step: deviate from `previous` at each of its scopes, never reusing a step an accepted path took there. */
function* spurPaths(
  graph: ScopeGraph,
  previous: QueryPath,
  accepted: readonly QueryPath[],
  to: string,
  plan: SearchPlan,
): Generator<QueryPath> {
  // A deviation at index i walks at least i + 1 hops, so deviations past maxHops - 1 cannot fit.
  const lastSpur = Math.min(previous.path.length - 2, plan.maxHops - 1);
  for (let index = 0; index <= lastSpur; index += 1) {
    const root = previous.path.slice(0, index + 1);
    const spur = root[index] as string;
    const blocks: SearchBlocks = {
      nodes: new Set([...plan.avoid, ...root.slice(0, index)]),
      steps: new Map([[spur, usedSteps(accepted, root)]]),
    };
    const tail = bestPath(graph, spur, to, plan.direction, blocks);
    if (tail === undefined || index + tail.hops > plan.maxHops) continue;
    const path = [...root.slice(0, index), ...tail.path];
    yield { path, hops: path.length - 1, weight: pathWeight(graph, root, plan.direction) + tail.weight };
  }
}

/** The next scopes that accepted paths sharing this exact root went to from its last scope. */
function usedSteps(accepted: readonly QueryPath[], root: readonly string[]): Set<string> {
  const steps = new Set<string>();
  for (const { path } of accepted) {
    const next = path[root.length];
    if (next !== undefined && root.every((scope, index) => path[index] === scope)) steps.add(next);
  }
  return steps;
}

/** The shared first step of both queries: check the scopes, search, apply the hop limit. */
function firstPath(graph: ScopeGraph, from: string, to: string, plan: SearchPlan): QueryPath | PathFailure {
  const unknown = [from, to].filter((scope) => !graph.hasNode(scope));
  if (unknown.length > 0) {
    const names = [...new Set(unknown)].map((scope) => `"${scope}"`).join(" and ");
    return { ok: false, reason: "unknown_scope", detail: `unknown scope ${names}: the graph has no such scope` };
  }
  const avoided = [from, to].filter((scope) => plan.avoid.has(scope));
  if (avoided.length > 0) {
    const detail = `${[...new Set(avoided)].join(" and ")} is in the avoid set, so no path can use it`;
    return { ok: false, reason: "no_path", detail };
  }
  const found = bestPath(graph, from, to, plan.direction, { nodes: plan.avoid, steps: new Map() });
  if (found === undefined) {
    const how = plan.direction === "out" ? "following references" : "in either direction";
    const around = plan.avoid.size > 0 ? ` while avoiding ${[...plan.avoid].sort().join(", ")}` : "";
    return { ok: false, reason: "no_path", detail: `no path from ${from} to ${to} ${how}${around}` };
  }
  if (found.hops > plan.maxHops) {
    const detail = `the shortest path from ${from} to ${to} needs ${found.hops} hops; maxHops is ${plan.maxHops}`;
    return { ok: false, reason: "hop_limit", detail, shortestHops: found.hops };
  }
  return freezePath(found);
}

function parsePlan(options: PathOptions): SearchPlan {
  const parsed = optionsSchema.safeParse({ maxHops: options.maxHops, direction: options.direction });
  if (!parsed.success) throw inputError("invalid path options", formatZodIssues(parsed.error), parsed.error);
  return { ...parsed.data, avoid: new Set(options.avoid ?? []) };
}

function freezePath(found: QueryPath): QueryPath {
  return Object.freeze({ path: Object.freeze([...found.path]), hops: found.hops, weight: found.weight });
}

// Scope names never contain control characters, so NUL cannot occur inside a name.
function pathKey(path: readonly string[]): string {
  return path.join("\u0000");
}
