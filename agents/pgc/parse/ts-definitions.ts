// What the TypeScript-family extractor's handlers share (ts-extractor.ts): the pass's state and the helpers
// that add a function or method as a symbol of the file.
import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../types.js";
import type { ExtractContext } from "./extract-context.js";
import type { ImportBindings } from "./import-bindings.js";
import { collapse, headText, realChildren } from "./node-text.js";
import type { PropertyReads } from "./property-reads.js";
import { returnedClass, type ReceiverMemo } from "./receiver-class.js";
import type { LocalValueMemo } from "./local-values.js";

/** A call seen during the pass; resolved against the file's imports once all of them are known. */
export interface PendingCall {
  node: Node;
  callee: string;
  plain: boolean;
  caller: string | null;
  /** The class of the object the call goes through, when the calling function says it. */
  receiver?: string;
  /** A property read, a call only of a getter (CallSite.read). */
  read?: true;
  /** `this.m(…)` where the class assigns `this.m = …` (CallSite.held). */
  held?: true;
}

export interface TsState {
  ctx: ExtractContext;
  bindings: ImportBindings;
  pending: PendingCall[];
  receivers: ReceiverMemo;
  /** Per function, the names it binds to values (local-values.ts). */
  locals: LocalValueMemo;
  properties: PropertyReads;
}

/** The nodes a function value is. */
export const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function"]);
/** Function-like nodes: what a parameter or `this` belongs to. */
export const FUNCTION_NODES = new Set([...FUNCTION_VALUES, "function_declaration", "method_definition", "generator_function", "generator_function_declaration"]);
/** Wrappers a function value may sit in: `((options) => { … }) as AddListenerOverloads`, `fn satisfies Handler`. */
export const VALUE_WRAPPERS = new Set(["parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"]);

/** A value without its wrappers (VALUE_WRAPPERS). */
export function unwrapped(value: Node): Node {
  let at = value;
  while (VALUE_WRAPPERS.has(at.type) && at.namedChild(0)) at = at.namedChild(0) as Node;
  return at;
}

/** `export` wraps a declaration; the doc comment and first line belong to the export statement. */
export function exportOuter(node: Node): Node {
  return node.parent?.type === "export_statement" ? node.parent : node;
}

/** The return type as written, else the one class every `return` constructs (the call graph types results by it). */
export function returnTypeOf(node: Node): string | undefined {
  const text = node.childForFieldName("return_type")?.text.replace(/^:\s*/, "");
  return text === undefined || text === "" ? returnedClass(node, "ts") : collapse(text, 120);
}

export function innermostClass({ ctx }: TsState): string | undefined {
  return ctx.stack.containers().at(-1);
}

export function addFunction(state: TsState, node: Node, outer: Node, name: string, kind: SymbolKind, fn: Node): void {
  // `const inputMiddleware = async function inputValidatorMiddleware(opts) { … }`: the expression's own name too.
  const own = fn !== node && fn.type === "function_expression" ? fn.childForFieldName("name")?.text : undefined;
  state.ctx.addSymbol(outer, {
    name,
    ...(own && own !== name ? { also_named: own } : {}),
    kind,
    signature: headText(state.ctx.content, outer, fn.childForFieldName("body")),
    params: realChildren(fn.childForFieldName("parameters")).length,
    returns: returnTypeOf(fn),
    ...(kind === "method" ? { container: innermostClass(state) } : {}),
    ...(kind === "method" && isHook(fn, name) ? { abstract: true as const } : {}),
  });
  state.ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
}

/**
 * A base class's method with nothing to run — an empty body, comments aside (`protected onSubscribe(): void {
 * // Do nothing }`) — is a hook its subclasses override: it is marked `abstract`, as Python's methods that
 * only raise NotImplementedError are, so a call of it through the object's own `this` is also an exit to the
 * subclasses other scopes define (PGC.md, call rule 2). Only in a class that extends and implements nothing:
 * an empty method of a class that does (`flush(): void {}` over an `abstract flush()`, `close(): void {}` of a
 * `Closer`) is that class's way of doing nothing. Not a constructor, getter or setter.
 */
function isHook(fn: Node, name: string): boolean {
  if (fn.type !== "method_definition" || fn.parent?.type !== "class_body" || name === "constructor") return false;
  if (fn.parent.parent?.children.some((c) => c?.type === "class_heritage")) return false;
  if (fn.children.some((c) => c?.type === "get" || c?.type === "set")) return false;
  const body = fn.childForFieldName("body");
  return body !== null && body.namedChildren.every((c) => c?.type === "comment");
}

/**
 * A function an object literal holds (`setInterval(…) { … }`, `init: (api) => { … }`) as a method of `object`:
 * `outer` spans it with its key, `fn` is the function itself.
 */
export function addObjectMethod(state: TsState, outer: Node, fn: Node, name: string, object: string): void {
  state.ctx.addSymbol(outer, {
    name,
    kind: "method",
    signature: headText(state.ctx.content, outer, fn.childForFieldName("body")),
    params: realChildren(fn.childForFieldName("parameters")).length,
    returns: returnTypeOf(fn),
    container: object,
  });
  state.ctx.stack.push({ name, kind: "function", endIndex: outer.endIndex, node: outer });
}

/** Where a function value is bound by a rule of its own: a declarator, an object's key, an assignment, a class field. */
const BINDING_PARENTS = new Set(["variable_declarator", "pair", "assignment_expression", "public_field_definition", "field_definition"]);

/**
 * A named function expression outside any function that no other rule binds — an operand (`export default
 * isSupported && function httpAdapter(config) { … }`), a module-level argument or IIFE — is a function of
 * that name: a symbol and the caller of the calls in its body (else they would have none). Inside a function
 * it stays part of that function, as an anonymous one does (`wrapAsync(async function dispatch(…) { … })`,
 * a builder's `return function operation(…) { … }`).
 */
export function onNamedFunctionExpression(state: TsState, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  if (!name || state.ctx.stack.enclosingFunction()) return;
  let holder = node.parent;
  while (holder && VALUE_WRAPPERS.has(holder.type)) holder = holder.parent;
  if (holder && BINDING_PARENTS.has(holder.type)) return;
  addFunction(state, node, node, name, "function", node);
}
