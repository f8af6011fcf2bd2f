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

/** One edge per callee: the first call, unless only a call on an error path was known so far (another call of it says more). */
function keepOnce<E extends { error_path?: true }>(lists: Map<number, E[]>, from: number, edge: E, same: (e: E) => boolean): void {
  const list = lists.get(from) ?? [];
  const at = list.findIndex(same);
  if (at < 0) list.push(edge);
  else if ((list[at] as E).error_path && !edge.error_path) list[at] = edge;
  lists.set(from, list);
}
