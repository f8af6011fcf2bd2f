// TypeScript, TSX and JavaScript extraction: definitions, imports, calls, risky sinks and assertions.
import type { Node } from "web-tree-sitter";
import { pattern, queryFor } from "./compile-query.js";
import type { ExtractContext } from "./extract-context.js";
import type { LoadedGrammar } from "./grammars.js";
import { collapse, endLine, headText, realChildren, startLine } from "./node-text.js";
import { PropertyReads } from "./property-reads.js";
import { HTML_SINK_REASONS } from "./risk-rules.js";
import { addFunction, exportOuter, FUNCTION_VALUES, innermostClass, onNamedFunctionExpression, unwrapped, type TsState } from "./ts-definitions.js";
import { addLiteralFunction } from "./ts-object-literals.js";
import { onCall, onMemberRead, resolveCall } from "./ts-calls.js";
import { onMemberFunction } from "./ts-member-functions.js";
import { readImportStatement } from "./ts-imports.js";

const TS_PATTERNS = [
  pattern("(comment) @comment"),
  pattern("(function_declaration) @function"),
  pattern("(generator_function_declaration) @function", "generator_function_declaration"),
  pattern("(class_declaration) @class"),
  pattern("(abstract_class_declaration) @class", "abstract_class_declaration"),
  pattern("(method_definition) @method"),
  pattern("(pair key: (property_identifier) value: (_)) @pair"),
  pattern("(public_field_definition name: (property_identifier) value: (_)) @field_function", "public_field_definition"),
  pattern("(field_definition property: (property_identifier) value: (_)) @field_function", "field_definition"),
  pattern("(interface_declaration) @interface", "interface_declaration"),
  pattern("(type_alias_declaration) @type", "type_alias_declaration"),
  pattern("(enum_declaration) @enum", "enum_declaration"),
  pattern("(variable_declarator name: (identifier) value: (_)) @declarator"),
  pattern("(import_statement) @import"),
  pattern("(export_statement source: (_)) @import"),
  pattern("(function_expression name: (identifier)) @named_function", "function_expression"),
  pattern("(call_expression) @call"),
  pattern("(new_expression) @new", "new_expression"),
  pattern("(assignment_expression left: (member_expression property: (property_identifier) @html_sink))"),
  pattern("(expression_statement (assignment_expression left: (member_expression) right: (_)) @member_function)"),
  pattern("(jsx_attribute (property_identifier) @html_sink)", "jsx_attribute"),
  pattern("(member_expression object: (this) property: (_)) @this_member"),
  pattern("(member_expression object: [(identifier) (member_expression object: (this))] property: (property_identifier)) @member_read"),
];

type Handler = (state: TsState, node: Node) => void;

const HANDLERS: Readonly<Record<string, Handler>> = {
  comment: ({ ctx }, node) => ctx.addComment(node),
  function: onFunction,
  class: onClass,
  method: onMethod,
  pair: onPair,
  field_function: onFieldFunction,
  interface: onShape("interface"),
  type: onShape("type"),
  enum: onShape("enum"),
  declarator: onDeclarator,
  import: ({ ctx, bindings }, node) => readImportStatement(ctx, node, bindings),
  named_function: onNamedFunctionExpression,
  call: onCall,
  new: onCall,
  html_sink: onHtmlSink,
  member_function: onMemberFunction,
  this_member: ({ ctx, properties }, node) => properties.note(ctx, node, "this", node.childForFieldName("property")?.text ?? ""),
  member_read: onMemberRead,
};

/** Extracts one TS/TSX/JS file into `ctx.out`. */
export function extractTypeScriptFamily(grammar: LoadedGrammar, root: Node, ctx: ExtractContext): void {
  const state: TsState = { ctx, bindings: new Map(), pending: [], receivers: new Map(), locals: new Map(), properties: new PropertyReads() };
  for (const capture of queryFor(grammar, "ts-family", TS_PATTERNS).captures(root)) {
    ctx.stack.advanceTo(capture.node.startIndex);
    HANDLERS[capture.name]?.(state, capture.node);
  }
  for (const call of state.pending) resolveCall(state, call);
  state.properties.flush(ctx);
  ctx.finish();
}

function onFunction(state: TsState, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  if (!name) return;
  state.ctx.definedInside(name, node);
  addFunction(state, node, exportOuter(node), name, "function", node);
}

function onMethod(state: TsState, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  if (!name) return;
  // Class methods are symbols, and so are the methods of a module-level object (`intervalProvider.setInterval`,
  // called as such) and of an object a function returns; other object-literal methods still attribute the calls inside them.
  if (node.parent?.type === "class_body") {
    const cls = innermostClass(state);
    if (cls && node.children.some((c) => c?.type === "get")) state.properties.define(cls, name);
    addFunction(state, node, node, name, "method", node);
  }
  else if (!addLiteralFunction(state, node, node, name)) state.ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
}

/** `key: (…) => { … }` in an object literal: a method as `key(…) { … }` is (onMethod). */
function onPair(state: TsState, node: Node): void {
  const value = node.childForFieldName("value");
  const fn = value ? unwrapped(value) : null;
  if (!fn || !FUNCTION_VALUES.has(fn.type)) return;
  addLiteralFunction(state, node, fn, node.childForFieldName("key")?.text ?? "");
}

/**
 * A class field holding a function (`insert = (data) => { … }`, `handleClick = () => …`) is a method of the
 * class, as a method definition is: called as `collection.insert(…)`, and the caller of the calls in its body.
 */
function onFieldFunction(state: TsState, node: Node): void {
  const name = node.childForFieldName("name") ?? node.childForFieldName("property");
  const value = node.childForFieldName("value");
  if (!name || !value || node.parent?.type !== "class_body") return;
  const fn = unwrapped(value);
  if (!FUNCTION_VALUES.has(fn.type)) return;
  addFunction(state, node, node, name.text, "method", fn);
}

/** The longest first line kept as a module-level value's signature. */
const VALUE_SIGNATURE_CHARS = 160;

/** `require("x")` and `await import("x")` bind a module, which the imports already record: no symbol. */
function isModuleLoad(value: Node): boolean {
  const call = value.type === "await_expression" ? value.namedChildren[0] : value;
  if (call?.type !== "call_expression") return false;
  const fn = call.childForFieldName("function");
  return fn?.type === "import" || (fn?.type === "identifier" && fn.text === "require");
}

/**
 * A module-level `const`/`let`/`var` (exported or not) is a definition: `const f = () => …` a function,
 * anything else a variable, like `export const ZodString = core.$constructor(…)` or a component made by
 * `React.memo(…)`; calls in its initializer are attributed to it. Declarations inside functions are not.
 */
function onDeclarator(state: TsState, node: Node): void {
  const declaration = node.parent;
  const top = declaration?.parent;
  if (!declaration) return;
  if (!(top?.type === "program" || top?.type === "export_statement")) return onInnerDeclarator(state, node, declaration);
  const name = node.childForFieldName("name")?.text;
  const value = node.childForFieldName("value");
  if (!name || !value) return;
  const outer = top.type === "export_statement" ? top : declaration;
  if (FUNCTION_VALUES.has(value.type)) return addFunction(state, node, outer, name, "function", value);
  if (isModuleLoad(value)) return;
  // The first line of the declarator itself (`a = 1, b = 2` gives each its own), after the keywords.
  const keywords = state.ctx.content.slice(outer.startIndex, declaration.startIndex) + (declaration.firstChild?.text ?? "");
  const firstLine = node.text.split("\n", 1)[0] ?? "";
  // `export const cors: (…) => … = internal.cors`: the value is another definition under this name; a call of
  // it runs that one, so the value's line is a call of it (the public module's name leads to its body).
  const alias = isAlias(value, state) ? collapse(value.text, 120) : null;
  state.ctx.addSymbol(outer, { name, kind: "variable", signature: collapse(`${keywords} ${firstLine}`, VALUE_SIGNATURE_CHARS), ...(alias ? { alias_of: alias } : {}) });
  state.ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
  if (alias) state.pending.push({ node: value, callee: alias, plain: value.type === "identifier", caller: state.ctx.caller() });
}

/**
 * An imported name, or a dotted path of names from one (`internal.cors`, `core.util.clone`): a value that is
 * another module's definition. A name of the file may be data (`export const asap = asapScheduler`, an
 * instance), so it is no alias.
 */
function isAlias(value: Node, state: TsState): boolean {
  if (value.type === "identifier") return state.bindings.has(value.text);
  if (value.type !== "member_expression" || value.childForFieldName("property")?.type !== "property_identifier") return false;
  const object = value.childForFieldName("object");
  return object !== null && isAlias(object, state);
}

/**
 * Inside a function, `const startListening = (options) => { … }` defines a function of its own (a builder's
 * closures are what its callers get back): a symbol, the caller of the calls in its body, and reached from
 * the enclosing function by a call at its definition line (ctx.definedInside). Other values are not symbols.
 */
function onInnerDeclarator(state: TsState, node: Node, declaration: Node): void {
  const name = node.childForFieldName("name");
  const value = node.childForFieldName("value");
  if (name?.type !== "identifier" || !value || !state.ctx.stack.enclosingFunction()) return;
  const fn = unwrapped(value);
  if (!FUNCTION_VALUES.has(fn.type)) return;
  state.ctx.definedInside(name.text, node);
  const outer = declaration.namedChildCount === 1 ? declaration : node;
  addFunction(state, node, outer, name.text, "function", fn);
}

function onClass(state: TsState, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  const body = node.childForFieldName("body");
  if (!name || !body) return;
  const outer = exportOuter(node);
  state.ctx.addSymbol(outer, {
    name,
    kind: "class",
    signature: headText(state.ctx.content, outer, body),
    members: realChildren(body).length,
  });
  state.ctx.stack.push({ name, kind: "container", endIndex: node.endIndex, node });
}

function onShape(kind: "interface" | "type" | "enum"): Handler {
  return (state, node) => {
    const name = node.childForFieldName("name")?.text;
    if (!name) return;
    const outer = exportOuter(node);
    const body = node.childForFieldName("body") ?? node.childForFieldName("value");
    const hasMembers = body !== null && /(_body|object_type)$/.test(body.type);
    state.ctx.addSymbol(outer, {
      name,
      kind,
      signature: kind === "type" ? collapse(outer.text) : headText(state.ctx.content, outer, body),
      ...(hasMembers ? { members: realChildren(body).length } : {}),
    });
  };
}

function onHtmlSink({ ctx }: TsState, node: Node): void {
  const reason = HTML_SINK_REASONS.get(node.text);
  if (!reason) return;
  const site = node.parent?.parent ?? node;
  const span = { line_start: startLine(site), line_end: endLine(site), caller: ctx.caller() };
  ctx.out.risks.push({ api: node.text, reason, severity: "medium", ...span });
}
