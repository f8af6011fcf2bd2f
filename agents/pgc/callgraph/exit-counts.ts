// Counts over a scope's exits (its calls that leave the scope): how many of its functions call each callee,
// how often it calls another scope's class's methods through an object of that class, and calls by target.
import type { ExitEdge, GraphNode } from "./graph-types.js";
import { splitIdentifier } from "../retrieval/index.js";

/** An exit's callee as one key: its module, its receiver's class and its name. */
export function exitKey(exit: Pick<ExitEdge, "module" | "receiver_class" | "target">): string {
  return `${exit.module ?? ""}\0${exit.receiver_class ?? ""}\0${exit.target}`;
}

/**
 * How many functions call each exit's callee (by exitKey), from each function's exits: a lock or a log call
 * is made from hundreds, the next step of one flow from one or two (`set_user_nice` from `set_one_prio`).
 */
export function exitFanIn(exitsByFunction: Iterable<readonly ExitEdge[]>): Map<string, number> {
  const fanIn = new Map<string, number>();
  for (const edges of exitsByFunction) {
    for (const key of new Set(edges.map(exitKey))) fanIn.set(key, (fanIn.get(key) ?? 0) + 1);
  }
  return fanIn;
}

/**
 * Method calls leaving the scope through an object of a known class (`parser.parse_args(…)` where
 * `parser = self.make_parser(ctx)` returns an `OptionParser` defined elsewhere), as `Class.method` with
 * their call sites: who may call another scope's method.
 */
export function classCallCounts(exitsByFunction: Iterable<readonly ExitEdge[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const edges of exitsByFunction) {
    for (const e of edges) {
      if (e.via !== "member" || e.receiver_class === undefined) continue;
      const key = `${e.receiver_class}.${e.target}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** Calls by their target, with the first call site (its caller's file and line) and how many there are, by target. */
export function callsByTarget(edgesByFunction: ReadonlyMap<number, readonly ExitEdge[]>, nodes: readonly GraphNode[]): { target: string; from_file: string; line: number; count: number }[] {
  const byName = new Map<string, { target: string; from_file: string; line: number; count: number }>();
  for (const [from, edges] of edgesByFunction) {
    for (const e of edges) {
      const seen = byName.get(e.target);
      if (seen) seen.count += 1;
      else byName.set(e.target, { target: e.target, from_file: (nodes[from] as GraphNode).file_path, line: e.line, count: 1 });
    }
  }
  return [...byName.values()].sort((a, b) => a.target.localeCompare(b.target));
}

/**
 * The loose calls (a name several of the scope's classes define, called through an object of unknown
 * class: any of theirs or another scope's) with the member exits through an object of unknown class whose
 * name has two words or more (`self.req.load_pyproject_toml()`: another scope's method, or an override of
 * it). A one-word name is any class's (`self.send(…)`: counted, it made urllib3's `request_chunked` a caller
 * of requests' `HTTPAdapter.send`).
 */
export function withUnknownMembers(loose: ReadonlyMap<number, readonly ExitEdge[]>, exits: ReadonlyMap<number, readonly ExitEdge[]>): Map<number, ExitEdge[]> {
  const calls = new Map<number, ExitEdge[]>([...loose].map(([from, edges]) => [from, [...edges]]));
  for (const [from, edges] of exits) {
    const unknown = edges.filter((e) => e.via === "member" && e.receiver_class === undefined && splitIdentifier(e.target).length > 1);
    if (unknown.length > 0) calls.set(from, [...(calls.get(from) ?? []), ...unknown]);
  }
  return calls;
}
