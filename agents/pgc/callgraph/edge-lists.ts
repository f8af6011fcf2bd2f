// Which calls a caller's edge lists keep (call-graph.ts builds them): one local edge per callee, one exit
// per callee, module, way and class, and of several calls of one callee the one not on an error path.
import type { ExitEdge, LocalEdge } from "./graph-types.js";

/** Adds a local edge from `from` unless one to the same callee is known. */
export function addLocalEdge(out: Map<number, LocalEdge[]>, from: number, edge: LocalEdge): void {
  keepOnce(out, from, edge, (e) => e.to === edge.to);
}

/** Adds an exit from `from`: `this.seen.get(…)` on a Map and `this.registry.get(…)` on a `Registry` are two exits, the class says which `get`. */
export function addExitEdge(exits: Map<number, ExitEdge[]>, from: number, edge: ExitEdge): void {
  keepOnce(exits, from, edge, (e) => e.target === edge.target && e.module === edge.module && e.via === edge.via && e.receiver_class === edge.receiver_class);
}

interface KeptEdge {
  line: number;
  callee: string;
  error_path?: true;
  also?: number[];
  defines?: true;
  bound?: unknown;
  alias?: { name: string };
}

/**
 * One edge per callee: the first call, unless only a call on an error path was known so far (another call
 * of it says more). The same call on other lines — written the same way, so its line names the callee as
 * the edge's does (not through a struct field, not a closure's definition), and off the error path when
 * the edge is — is kept in `also`: a search cites the line bearing most on its question.
 */
function keepOnce<E extends KeptEdge>(lists: Map<number, E[]>, from: number, edge: E, same: (e: E) => boolean): void {
  const list = lists.get(from) ?? [];
  const at = list.findIndex(same);
  const kept = list[at];
  if (kept === undefined) list.push(edge);
  else if (kept.error_path && !edge.error_path) list[at] = edge;
  else if (sameWay(kept, edge) && edge.line !== kept.line && !(edge.error_path && !kept.error_path) && !kept.also?.includes(edge.line)) kept.also = [...(kept.also ?? []), edge.line];
  lists.set(from, list);
}

/**
 * Two calls naming their callee alike: written the same (`utils.getSafeProp`; not `super().connect` and
 * `self.sock.connect`, which the graph may take for one method), neither a definition nor through a field.
 */
function sameWay(a: KeptEdge, b: KeptEdge): boolean {
  return a.callee === b.callee && !a.defines && !b.defines && a.bound === undefined && b.bound === undefined && a.alias?.name === b.alias?.name;
}
