// Python extraction: functions, classes, methods, docstrings, imports, calls, risky calls and asserts.
import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../types.js";
import { boundNote } from "./bound-notes.js";
import { cleanDocstring } from "./comment-text.js";
import { pattern, queryFor } from "./compile-query.js";
import type { ExtractContext } from "./extract-context.js";
import type { LoadedGrammar } from "./grammars.js";
import { candidateNames, moduleMember, renamedImport, type ImportBindings } from "./import-bindings.js";
import { isLocalValue, type LocalValueMemo } from "./local-values.js";
import { calleeLine, collapse, endLine, headText, onErrorPath, realChildren, startLine } from "./node-text.js";
import type { NoteSpan } from "./parsed-file.js";
import { PROPERTY_DECORATOR, PropertyReads } from "./property-reads.js";
import { fallbackOf } from "./python-fallbacks.js";
import { AssignmentMemo, boundMethodOf, dispatchOf, lastBefore } from "./python-dispatch.js";
import { onEventCall } from "./event-registry.js";
import { readFromImport, readImport } from "./python-imports.js";
import { instanceCalled, type InstanceCalled } from "./instance-calls.js";
import { heldField, receiverClass, receiverFields, returnedClass, type ReceiverMemo } from "./receiver-class.js";
import { matchRisk } from "./risk-rules.js";

const PYTHON_PATTERNS = [
  pattern("(comment) @comment"),
  pattern("(function_definition) @function"),
  pattern("(class_definition) @class"),
  pattern("(import_statement) @import"),
  pattern("(import_from_statement) @import_from"),
  pattern("(call) @call"),
  pattern("(assert_statement) @assert"),
  pattern("(attribute object: (identifier) attribute: (identifier)) @attribute"),
];

/** Shebang and encoding lines are comments, but they describe nothing. */
const PRAGMA_COMMENT = /^#!|^#.*coding[:=]/;

interface PythonState {
  ctx: ExtractContext;
  bindings: ImportBindings;
  pending: { node: Node; callee: string; plain: boolean; caller: string | null; receiver?: string; held?: true; body: Node | null; at?: number; instance?: InstanceCalled }[];
  receivers: ReceiverMemo;
  /** Per function, the names it binds to values (local-values.ts). */
  locals: LocalValueMemo;
  assignments: AssignmentMemo;
  /** The bodies of the functions that call `getattr`: only their calls may dispatch by a built name. */
  getattrIn: Set<number>;
  properties: PropertyReads;
}

type Handler = (state: PythonState, node: Node) => void;

const HANDLERS: Readonly<Record<string, Handler>> = {
  comment: ({ ctx }, node) => {
    if (!PRAGMA_COMMENT.test(node.text)) ctx.addComment(node);
  },
  function: onFunction,
  class: onClass,
  import: ({ ctx, bindings }, node) => readImport(ctx, node, bindings),
  import_from: ({ ctx, bindings }, node) => readFromImport(ctx, node, bindings),
  call: onCall,
  attribute: ({ ctx, properties }, node) => {
    if (node.childForFieldName("object")?.text === "self") properties.note(ctx, node, "self", node.childForFieldName("attribute")?.text ?? "");
  },
  assert: ({ ctx }, node) =>
    ctx.out.assertions.push({
      kind: "assert",
      text: collapse(node.text, 200),
      line_start: startLine(node),
      line_end: endLine(node),
      caller: ctx.caller(),
    }),
};

/** Extracts one Python file into `ctx.out`. */
export function extractPython(grammar: LoadedGrammar, root: Node, ctx: ExtractContext): void {
  const state: PythonState = { ctx, bindings: new Map(), pending: [], receivers: new Map(), locals: new Map(), assignments: new AssignmentMemo(), getattrIn: new Set(), properties: new PropertyReads() };
  ctx.out.module_doc = docstringOf(ctx, root);
  for (const capture of queryFor(grammar, "python", PYTHON_PATTERNS).captures(root)) {
    ctx.stack.advanceTo(capture.node.startIndex);
    HANDLERS[capture.name]?.(state, capture.node);
  }
  for (const call of state.pending) resolveCall(state, call);
  state.properties.flush(ctx);
  ctx.finish();
}

/** The docstring of a module or a definition body (a string as its first statement); bounds it states go to O6. */
function docstringOf(ctx: ExtractContext, block: Node | null): NoteSpan | null {
  const first = realChildren(block)[0];
  const literal = first?.type === "expression_statement" && first.namedChildCount === 1 ? first.namedChild(0) : null;
  if (!literal || literal.type !== "string") return null;
  const bound = boundNote(literal.text, startLine(literal));
  if (bound) ctx.out.bounds.push(bound);
  const text = cleanDocstring(literal.text);
  return text === "" ? null : { text, line_start: startLine(literal), line_end: endLine(literal) };
}

/** Decorators belong to the definition they decorate. */
function decoratedOuter(node: Node): Node {
  return node.parent?.type === "decorated_definition" ? node.parent : node;
}

/** Comment docs are claimed in order, so a definition with a docstring still consumes the comment above it. */
function docFor(ctx: ExtractContext, outer: Node, body: Node | null): NoteSpan | null {
  const commentDoc = ctx.docAbove(startLine(outer));
  return docstringOf(ctx, body) ?? commentDoc;
}

/**
 * A method with nothing to run: its body (past a docstring) only raises `NotImplementedError`, or it is an
 * `@abstractmethod` whose body is only `pass` or `...` (or nothing past its docstring).
 */
function isAbstract(outer: Node, body: Node | null): boolean {
  const statements = realChildren(body).filter((s, i) => !(i === 0 && s.type === "expression_statement" && s.namedChildren[0]?.type === "string"));
  if (statements.length === 1 && statements[0]?.type === "raise_statement" && /^raise\s+NotImplementedError\b/.test(statements[0].text)) return true;
  const declared = outer.namedChildren.some((d) => d?.type === "decorator" && /\babstractmethod\b/.test(d.text));
  return declared && statements.every((s) => s.type === "pass_statement" || (s.type === "expression_statement" && s.text.trim() === "..."));
}

function onFunction(state: PythonState, node: Node): void {
  const { ctx } = state;
  const name = node.childForFieldName("name")?.text;
  if (!name) return;
  const outer = decoratedOuter(node);
  const body = node.childForFieldName("body");
  const inClass = outer.parent?.parent?.type === "class_definition";
  const kind: SymbolKind = inClass ? "method" : "function";
  const params = realChildren(node.childForFieldName("parameters"));
  const receiver = inClass && /^(self|cls)$/.test(params[0]?.text ?? "") ? 1 : 0;
  // The annotation as written, else the one class every `return` constructs (the call graph types results by it).
  const returns = node.childForFieldName("return_type")?.text ?? returnedClass(node, "python");
  if (!inClass) ctx.definedInside(name, node);
  const container = inClass ? ctx.stack.containers().at(-1) : undefined;
  const fallback = inClass ? null : fallbackOf(outer, name);
  if (container && outer !== node && outer.namedChildren.some((d) => d?.type === "decorator" && PROPERTY_DECORATOR.test(d.text))) state.properties.define(container, name);
  ctx.addSymbol(outer, {
    name,
    kind,
    signature: headText(ctx.content, node, body),
    params: params.length - receiver,
    ...(returns ? { returns } : {}),
    ...(container ? { container } : {}),
    ...(fallback !== null ? { fallback_of: fallback } : {}),
    ...(inClass && isAbstract(outer, body) ? { abstract: true as const } : {}),
  }, docFor(ctx, outer, body));
  ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
}

function onClass(state: PythonState, node: Node): void {
  const { ctx } = state;
  const name = node.childForFieldName("name")?.text;
  if (!name) return;
  const outer = decoratedOuter(node);
  const body = node.childForFieldName("body");
  const members = realChildren(body).filter((child) => /^(function_definition|decorated_definition)$/.test(child.type));
  const fallback = fallbackOf(outer, name);
  ctx.addSymbol(outer, {
    name,
    kind: "class",
    signature: headText(ctx.content, node, body),
    members: members.length,
    ...(fallback !== null ? { fallback_of: fallback } : {}),
  }, docFor(ctx, outer, body));
  ctx.stack.push({ name, kind: "container", endIndex: node.endIndex, node });
}

function onCall(state: PythonState, node: Node): void {
  const called = node.childForFieldName("function");
  if (!called) return;
  // `meth = statement._execute_on_connection` … `meth(…)`: a call of that method, cited where the code names
  // it (the assignment's line), as a dispatch is at its prefix's literal.
  const owner = state.ctx.stack.enclosingFunction()?.node ?? null;
  const body = owner?.childForFieldName("body") ?? null;
  const bound = boundMethodOf(called, body, state.assignments);
  const fn = bound ?? called;
  const plain = fn.type === "identifier";
  const receiver = plain ? undefined : receiverClass(fn, "python", state.receivers);
  if (plain && fn.text === "getattr" && body) state.getattrIn.add(body.id);
  const held = !plain && heldField(fn, "python", state.receivers);
  // An object the code built, called: its class's `__call__` (instance-calls.ts).
  const instance = bound ? undefined : instanceCalled(fn, owner);
  state.pending.push({ node, callee: plain ? fn.text : collapse(fn.text, 120), plain: plain && !instance, caller: state.ctx.caller(), ...(receiver ? { receiver } : {}), ...(held && !instance ? { held: true as const } : {}), body, ...(bound ? { at: startLine(bound) } : {}), ...(instance ? { instance } : {}) });
}

function resolveCall(state: PythonState, call: PythonState["pending"][number]): void {
  const { ctx, bindings } = state;
  const binding = call.plain ? bindings.get(call.callee) : undefined;
  const line = startLine(call.node);
  // `getattr(self, "do_" + command)()`, or a name assigned it: one of the object's methods named so.
  const fn = call.node.childForFieldName("function");
  const dispatch = fn && call.body && state.getattrIn.has(call.body.id) ? dispatchOf(fn, call.body, state.assignments) : null;
  ctx.out.calls.push({
    callee: call.callee,
    caller: call.caller,
    file_path: ctx.path,
    line: call.at ?? calleeLine(call.node),
    plain: call.plain,
    local: call.plain && isLocalValue(call.node, call.callee, "python", state.locals),
    ...(binding ? { imported_from: binding.module } : {}),
    ...moduleMember(call.callee, call.plain, bindings, true),
    ...renamedImport(call.callee, call.plain, bindings),
    ...receiverFields(call.receiver),
    ...(call.instance ? { renamed: { name: `${call.callee}.__call__`, line: call.instance.line }, receiver_class: call.instance.cls } : {}),
    ...(dispatch ? { dispatch } : {}),
    ...(call.held ? { held: true as const } : {}),
    ...(onErrorPath(call.node, "python") ? { error_path: true as const } : {}),
  });
  // `events.register('needs-retry.s3', handler.needs_retry)`, `emit(event_name, …)`: an event registry's binding or call (event-registry.ts).
  if (!call.plain) onEventCall(ctx, call.node, call.caller, (name, at) => (call.body ? lastBefore(state.assignments.of(call.body), name, at) : null));
  // A plain `eval` that was imported from somewhere is not the builtin.
  const names = binding ? candidateNames(call.callee, call.plain, bindings).slice(1) : candidateNames(call.callee, call.plain, bindings);
  const rule = matchRisk("python", names, call.node.childForFieldName("arguments"));
  if (rule) {
    const span = { line_start: line, line_end: endLine(call.node), caller: call.caller };
    ctx.out.risks.push({ api: call.callee, reason: rule.reason, severity: rule.severity, ...span });
  }
}
