// C functions stored into struct fields (`.ndo_start_xmit = veth_xmit`, `po->prot_hook.func = packet_rcv`):
// a call through such a field (`ops->ndo_start_xmit(…)`) may run any of them (docs/PGC.md, rule 7).
import { DISPATCH_MARK, dispatchFieldsOf, dispatchPrefix, eventName } from "../../protocol/index.js";
import type { CallSite, FieldBinding } from "../types.js";
import type { GraphNode } from "./call-graph.js";

/** Where a function was stored into the field a call goes through (`.ndo_start_xmit = veth_xmit`). */
export interface BindingSite {
  field: string;
  file_path: string;
  line: number;
}

const C_FILE = /\.[ch]$/;
const PYTHON_FILE = /\.pyi?$/;
/** `ops->ndo_start_xmit`, `skb_dst(skb)->input`, `(*po->prot_hook.func)`: the field a C call goes through. */
const THROUGH_FIELD = /(?:->|\.)\s*([A-Za-z_]\w*)\s*\)?$/;

export { dispatchPrefix };

/**
 * The struct field a C call goes through (or a Python dispatch's pseudo-field, or the event an emission runs
 * the handlers of: its callee is the event's pseudo-field, `event:needs-retry`), or null for a call by name.
 */
export function fieldCalled(call: Pick<CallSite, "callee" | "file_path" | "dispatch">): string | null {
  if (call.dispatch) return `${call.dispatch.prefix}${DISPATCH_MARK}`;
  if (eventName(call.callee) !== null) return call.callee;
  if (!C_FILE.test(call.file_path)) return null;
  return THROUGH_FIELD.exec(call.callee)?.[1] ?? null;
}

export class FieldBindings {
  /** A struct field → the scope's functions stored into it, with where. */
  private readonly bound = new Map<string, { node: GraphNode; site: BindingSite }[]>();
  /** A node id → where it is stored into fields (the same bindings, by function). */
  private readonly sitesOf = new Map<number, BindingSite[]>();

  /** A binding names a function when the scope defines one by that name (the one in the binding's file first). */
  constructor(
    bindings: readonly FieldBinding[],
    named: (name: string) => readonly GraphNode[],
    /** The scope's methods (what a dispatch by a built name may call). */
    private readonly methods: () => readonly GraphNode[] = () => [],
  ) {
    for (const b of bindings) {
      // An event's handler may be a method (`handler.needs_retry`, `this.onClose`); a C field holds functions.
      const event = eventName(b.field) !== null;
      const functions = named(b.target).filter((n) => n.kind === "function" || (event && n.kind === "method"));
      const inFile = functions.filter((n) => n.file_path === b.file_path);
      const chosen = inFile.length > 0 ? inFile : functions.length === 1 ? functions : [];
      const list = this.bound.get(b.field) ?? [];
      for (const node of chosen) {
        if (list.some((e) => e.node.id === node.id)) continue;
        const site = { field: b.field, file_path: b.file_path, line: b.line };
        list.push({ node, site });
        this.sitesOf.set(node.id, [...(this.sitesOf.get(node.id) ?? []), site]);
      }
      if (list.length > 0) this.bound.set(b.field, list);
    }
  }

  /**
   * The scope's functions stored into a struct field, with where each was bound; for a dispatch's
   * pseudo-field, the methods whose names begin with its prefix (and say more), each bound where it is defined.
   */
  boundTo(field: string): readonly { node: GraphNode; site: BindingSite }[] {
    const prefix = dispatchPrefix(field);
    if (prefix === null) return this.bound.get(field) ?? [];
    let methods = this.dispatched.get(prefix);
    if (!methods) {
      methods = this.methods().filter((n) => n.name.length > prefix.length && n.name.startsWith(prefix)).map((node) => ({ node, site: { field, file_path: node.file_path, line: node.line_start } }));
      this.dispatched.set(prefix, methods);
    }
    return methods;
  }

  /** A dispatch's targets by prefix, found on first use. */
  private readonly dispatched = new Map<string, { node: GraphNode; site: BindingSite }[]>();

  /**
   * Where the scope stores a function into struct fields: how other code calls it; for a Python method, the
   * pseudo-fields a dispatch by a built name may reach it through (`visit_*` for `visit_math_block`), bound
   * where it is defined.
   */
  bindingsOf(node: GraphNode): readonly BindingSite[] {
    const sites = this.sitesOf.get(node.id) ?? [];
    if (node.kind === "method" && PYTHON_FILE.test(node.file_path)) return [...dispatchFieldsOf(node.name).map((field) => ({ field, file_path: node.file_path, line: node.line_start })), ...sites];
    return sites;
  }

  /** The struct fields the scope stores its functions into (what its facts report, for calls from other scopes). */
  fields(): string[] {
    return [...this.bound.keys()].sort();
  }
}
