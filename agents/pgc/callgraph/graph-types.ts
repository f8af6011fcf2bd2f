// The shapes of a scope's call graph (call-graph.ts builds them): its nodes, the calls between them, the
// calls leaving the scope, and a name's callers.
import type { CodeSymbol } from "../types.js";
import type { BindingSite } from "./field-bindings.js";
import type { NodeFieldTerms } from "./node-terms.js";
import type { AliasSite } from "./reexports.js";

export interface GraphNode {
  id: number;
  /** The name as defined (`send_message`). */
  name: string;
  /** `SMTP.send_message` for a method, else the name. */
  qualified: string;
  kind: CodeSymbol["kind"];
  container?: string;
  file_path: string;
  line_start: number;
  line_end: number;
  terms: NodeFieldTerms;
  /** A Python stand-in for a failed import (CodeSymbol.fallback_of): never where a question starts. */
  fallback?: true;
  /** C: the stand-in of a build with a configuration option off (CodeSymbol.config_stub): called only where nothing else of the name is, never where a question starts. */
  config_stub?: true;
  /** A method with nothing to run (CodeSymbol.abstract): a subclass, perhaps another scope's, implements it. */
  abstract?: true;
  /** A function defined in another function's body (a closure): its name is the enclosing function's alone. */
  nested?: true;
  /** C: stored into a struct field or passed as a value (CodeSymbol.address_taken): called through a pointer, a way into the code. */
  address_taken?: true;
  /** A method: the classes its class derives from, as the scope's class declarations name them (nearest first, at most MAX_CLASS_BASES). */
  class_bases?: string[];
}

/** A call from one node to another inside the scope, at `line` of the caller's file. */
export interface LocalEdge {
  to: number;
  line: number;
  callee: string;
  /** A call through a field (`ops->ndo_start_xmit(…)`): where the callee was bound to that field. */
  bound?: BindingSite;
  /** The call names the callee by a name a re-export gave it. */
  alias?: AliasSite;
  /**
   * Not a call: the callee is a function defined in the caller's body (a closure it returns or hands on,
   * `function mutate(…)` inside `createPacedMutations`), and `line` is the callee's first line.
   */
  defines?: true;
  /** The call is on an error path (CallSite.error_path): it builds what is thrown, or handles it. */
  error_path?: true;
  /** Other lines of the caller making the same call, written the same way (`utils.getSafeProp(…)` for the method, then for the headers). */
  also?: number[];
}

/** A call leaving the scope: the called name, the module it came from when the code says, and where. */
export interface ExitEdge {
  /** The called name's last part (`b64encode` for `base64.b64encode(…)`). */
  target: string;
  /** The callee as written at the call site. */
  callee: string;
  module?: string;
  line: number;
  /**
   * How the exit was found: a reference the extraction resolved as leaving the scope, a member call
   * (`obj.m()`) whose `m` the scope does not define, or a C call through a struct field
   * (`ops->ndo_start_xmit(…)`, `target` the field) that other scopes may bind functions to.
   */
  via: "reference" | "member" | "field";
  /** A member call's object class, when the caller says it (`BytesGenerator` for `g.flatten()`). */
  receiver_class?: string;
  /**
   * A call through the caller's own object (`self.execute_command(…)`) whose method neither the caller's class
   * nor its bases define here: the caller's class, which another scope's class deriving from it defines the
   * method in (a mixin's `BasicKeyCommands.set` runs `Redis.execute_command`).
   */
  caller_class?: string;
  /** The call names the callee by another name a re-export gave it (`checks.minLength(…)` for `_minLength`). */
  alias?: AliasSite;
  /** The call is on an error path (CallSite.error_path). */
  error_path?: true;
  /** Other lines of the caller making the same call. */
  also?: number[];
}

/** A call of a name, as `callersOf` lists it. */
export interface CallerOf {
  node: GraphNode;
  line: number;
  callee: string;
  /** The node of this scope the call resolved to. */
  to?: GraphNode;
  /** The class of the object a call leaving the scope goes through, when known. */
  receiver_class?: string;
  /** The C struct field, or the Python dispatch's pseudo-field (`do_*`), the call goes through. */
  field?: string;
  /** Where the callee was stored into that field, for a call inside the scope through one (its edge's `bound`). */
  bound?: BindingSite;
  /** The call is on an error path (CallSite.error_path). */
  error_path?: true;
}
