// "Who calls this name here?" is asked of a scope at every step of a climb and for every "who calls"
// question; scanning all of the scope's calls each time was most of a callers request. The calls are
// indexed by the names they answer for once, on the first such question (a scope's graph does not change).
import { eventName, lastName } from "../../protocol/index.js";
import type { CallerOf, ExitEdge, GraphNode, LocalEdge } from "./graph-types.js";

/**
 * Each name's callers: a call inside the scope under its callee's last name part and under the field (or
 * pseudo-field) it goes through — and then under the name of the function stored into that field too, as
 * its call (`hdrv->probe(…)` in hid_device_probe calls `hid_generic_probe`, stored into `.probe` in the
 * scope) —, a call leaving the scope or of unknown target (`leaving`: the exits, the loose calls) under its
 * target; each list by file and line, calls inside the scope first among equals.
 */
export function indexCallers(nodes: readonly GraphNode[], out: ReadonlyMap<number, readonly LocalEdge[]>, leaving: readonly ReadonlyMap<number, readonly ExitEdge[]>[]): Map<string, CallerOf[]> {
  const index = new Map<string, CallerOf[]>();
  const add = (name: string, caller: CallerOf) => {
    const list = index.get(name);
    if (list) list.push(caller);
    else index.set(name, [caller]);
  };
  for (const [from, edges] of out) {
    for (const e of edges) {
      if (e.defines) continue;
      const to = nodes[e.to] as GraphNode;
      const caller: CallerOf = { node: nodes[from] as GraphNode, line: e.line, callee: e.callee, to, ...(e.bound ? { field: e.bound.field, bound: e.bound } : {}), ...(e.error_path ? { error_path: true as const } : {}) };
      // An event's emission is indexed under its pseudo-field (`event:needs-retry`), not a last name read out of it.
      const name = eventName(e.callee) !== null ? e.callee : lastName(e.callee);
      add(name, caller);
      if (e.bound && e.bound.field !== name) add(e.bound.field, caller);
      if (e.bound && to.name !== name && to.name !== e.bound.field) add(to.name, caller);
    }
  }
  for (const exits of leaving) for (const [from, edges] of exits) for (const e of edges) add(e.target, { node: nodes[from] as GraphNode, line: e.line, callee: e.callee, ...(e.receiver_class ? { receiver_class: e.receiver_class } : {}), ...(e.via === "field" ? { field: e.target } : {}), ...(e.error_path ? { error_path: true as const } : {}) });
  for (const list of index.values()) list.sort((a, b) => a.node.file_path.localeCompare(b.node.file_path) || a.line - b.line);
  return index;
}

