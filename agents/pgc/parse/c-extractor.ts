// C and C++ extraction: definitions, includes, calls, risky calls and assertions from one query pass.
import type { Node } from "web-tree-sitter";
import { isHeaderPath } from "../scan/detect-language.js";
import type { SymbolKind } from "../types.js";
import { C_ASSERTION_NAMES } from "./assertion-names.js";
import { isConfigStub } from "./c-config-stub.js";
import { parameterNames, parameterNodes, readDeclarator, returnType, splitQualified } from "./c-declarators.js";
import { pattern, queryFor } from "./compile-query.js";
import type { OpenDefinition } from "./definition-stack.js";
import type { ExtractContext } from "./extract-context.js";
import { onDeferredWork } from "./c-deferred-work.js";
import { macroDefinitionBody, onMacroFunction, onOneArgumentMacroFunction } from "./c-macro-functions.js";
import type { LoadedGrammar } from "./grammars.js";
import { calleeLine, collapse, endLine, headText, realChildren, startLine } from "./node-text.js";
import { matchRisk } from "./risk-rules.js";

const C_PATTERNS = [
  pattern("(comment) @comment"),
  pattern("(function_definition) @function"),
  pattern("(struct_specifier name: (_) body: (_)) @struct"),
  pattern("(union_specifier name: (_) body: (_)) @union"),
  pattern("(enum_specifier name: (_) body: (_)) @enum"),
  pattern("(class_specifier name: (_) body: (_)) @class", "class_specifier"),
  pattern("(namespace_definition) @namespace", "namespace_definition"),
  pattern("(type_definition) @typedef"),
  pattern("(preproc_def) @macro"),
  pattern("(preproc_function_def) @macro"),
  pattern("(preproc_include path: (_) @include)"),
  pattern("(expression_statement (call_expression function: (identifier) arguments: (argument_list . (identifier)))) @macro_function"),
  pattern("(call_expression) @call"),
  pattern("(initializer_pair value: (_)) @binding"),
  pattern("(assignment_expression left: (field_expression) right: (_)) @binding"),
  pattern("(static_assert_declaration) @static_assert", "static_assert_declaration"),
];

/** `(*name)` in a body: a local function pointer, being declared or called. */
const FUNCTION_POINTER_LOCAL = /\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(/g;
/** `#define FOO_H` with no value guards a header; it is not a definition worth indexing. */
const INCLUDE_GUARD = /_H_?_?$/;

type Handler = (ctx: ExtractContext, node: Node) => void;

const HANDLERS: Readonly<Record<string, Handler>> = {
  comment: (ctx, node) => ctx.addComment(node),
  function: onFunction,
  struct: onRecord("struct"),
  union: onRecord("union"),
  enum: onRecord("enum"),
  class: onRecord("class"),
  namespace: onNamespace,
  typedef: onTypedef,
  macro: onMacro,
  include: onInclude,
  macro_function: onMacroFunction,
  call: onCall,
  binding: onBinding,
  static_assert: (ctx, node) => addAssertion(ctx, node, "static_assert"),
};

/** Per file: the names it uses as values (stored into a field, passed as an argument), for `address_taken`. */
const usedAsValue = new WeakMap<ExtractContext, Set<string>>();

function noteValue(ctx: ExtractContext, name: string | null): void {
  if (name === null) return;
  let names = usedAsValue.get(ctx);
  if (!names) usedAsValue.set(ctx, (names = new Set()));
  names.add(name);
}

/** Extracts one C or C++ file into `ctx.out`. */
export function extractCFamily(grammar: LoadedGrammar, root: Node, ctx: ExtractContext): void {
  const query = queryFor(grammar, "c-family", C_PATTERNS);
  for (const capture of query.captures(root)) {
    ctx.stack.advanceTo(capture.node.startIndex);
    HANDLERS[capture.name]?.(ctx, capture.node);
  }
  const values = usedAsValue.get(ctx);
  if (values) for (const symbol of ctx.out.symbols) if (symbol.kind === "function" && values.has(symbol.name)) symbol.address_taken = true;
  ctx.finish();
}

/** Templates wrap their definition; the doc comment and first line belong to the template. */
function outerOf(node: Node): Node {
  return node.parent?.type === "template_declaration" ? node.parent : node;
}

function containerName(ctx: ExtractContext, qualifier = ""): string | undefined {
  const joined = [...ctx.stack.containers(), qualifier].filter((part) => part !== "").join("::");
  return joined === "" ? undefined : joined;
}

function onFunction(ctx: ExtractContext, node: Node): void {
  const info = readDeclarator(node.childForFieldName("declarator"));
  if (!info?.functionDeclarator) {
    onOneArgumentMacroFunction(ctx, node);
    return;
  }
  const outer = outerOf(node);
  const { name, qualifier } = splitQualified(info.name.text);
  const inClass = node.parent?.type === "field_declaration_list";
  const qualifiedByType = /^[A-Z]/.test(splitQualified(qualifier).name);
  const kind: SymbolKind = inClass || qualifiedByType ? "method" : "function";
  const symbol = ctx.addSymbol(outer, {
    name,
    kind,
    signature: headText(ctx.content, outer, node.childForFieldName("body")),
    params: parameterNodes(info.functionDeclarator).length,
    returns: returnType(node, info.pointerDepth),
    container: containerName(ctx, qualifier),
  });
  if (isHeaderPath(ctx.path)) symbol.in_header = true;
  if (isConfigStub(outer, name)) symbol.config_stub = true;
  ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
}

function onRecord(kind: SymbolKind): Handler {
  return (ctx, node) => {
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body");
    if (!name || !body) return;
    const members = realChildren(body).filter((child) => child.type !== "access_specifier" && !child.type.startsWith("preproc"));
    ctx.addSymbol(outerOf(node), {
      name,
      kind,
      signature: headText(ctx.content, node, body),
      members: members.length,
      container: containerName(ctx),
    });
    if (kind === "class" || kind === "struct") ctx.stack.push({ name, kind: "container", endIndex: node.endIndex, node });
  };
}

function onNamespace(ctx: ExtractContext, node: Node): void {
  const name = node.childForFieldName("name")?.text ?? "(anonymous)";
  ctx.stack.push({ name, kind: "container", endIndex: node.endIndex, node });
}

function onTypedef(ctx: ExtractContext, node: Node): void {
  const info = readDeclarator(node.childForFieldName("declarator"));
  if (!info) return;
  const type = node.childForFieldName("type");
  const typeBody = type?.childForFieldName("body") ?? null;
  const signature = type && typeBody
    ? collapse(`typedef ${headText(ctx.content, type, typeBody)} {…} ${info.name.text}`)
    : collapse(node.text);
  ctx.addSymbol(node, { name: info.name.text, kind: "typedef", signature, container: containerName(ctx) });
}

function onMacro(ctx: ExtractContext, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  if (!name) return;
  const value = node.childForFieldName("value");
  const parameters = node.childForFieldName("parameters");
  if (!value && !parameters && isHeaderPath(ctx.path) && INCLUDE_GUARD.test(name)) return;
  ctx.addSymbol(node, {
    name,
    kind: "macro",
    signature: collapse(node.text.replace(/\\\n/g, " ")),
    ...(parameters ? { params: realChildren(parameters).length } : {}),
  });
  if (parameters && value) addMacroCalls(ctx, name, value, new Set(realChildren(parameters).map((p) => p.text)));
}

/** Words followed by "(" in a macro's body that are C, not calls. */
const NOT_CALLS = new Set(["if", "for", "while", "switch", "return", "sizeof", "typeof", "__typeof__", "_Generic", "do", "defined", "__attribute__", "_Alignof", "__alignof__", "__builtin_expect"]);
const CALL_IN_TEXT = /\b([A-Za-z_]\w*)\s*\(/g;

/**
 * The calls in a function-like macro's body (`#define ext4_journal_start(inode, type, nblocks)
 * __ext4_journal_start(inode, __LINE__, …)`): tree-sitter keeps the body as text, so its calls are read
 * from it, each at its own line, with the macro as their caller; the macro's parameters are not calls.
 */
function addMacroCalls(ctx: ExtractContext, macro: string, value: Node, parameters: ReadonlySet<string>): void {
  const text = value.text;
  const first = startLine(value);
  for (const match of text.matchAll(CALL_IN_TEXT)) {
    const callee = match[1] as string;
    if (callee === macro || parameters.has(callee) || NOT_CALLS.has(callee)) continue;
    const line = first + (text.slice(0, match.index).match(/\n/g)?.length ?? 0);
    ctx.out.calls.push({ callee, caller: macro, file_path: ctx.path, line, plain: true, local: false });
  }
}

function onInclude(ctx: ExtractContext, node: Node): void {
  const target = node.text.slice(1, -1).trim();
  if (target === "") return;
  ctx.out.imports.push({
    kind: "include",
    target,
    file_path: ctx.path,
    line: startLine(node),
    system: node.type === "system_lib_string",
  });
}

function onCall(ctx: ExtractContext, node: Node): void {
  const fn = node.childForFieldName("function");
  if (!fn) return;
  // The defining macro's own call (`SYSCALL_DEFINE3(write, …)`) is the definition's head, not a call.
  if (node.parent?.type === "expression_statement" && macroDefinitionBody(node.parent)) return;
  const plain = fn.type === "identifier";
  const callee = plain ? fn.text : collapse(fn.text, 120);
  const enclosing = ctx.stack.enclosingFunction();
  const caller = enclosing?.name ?? null;
  const local = plain && enclosing !== null && localsOf(enclosing).has(callee);
  ctx.out.calls.push({ callee, caller, file_path: ctx.path, line: calleeLine(node), plain, local });
  for (const arg of node.childForFieldName("arguments")?.namedChildren ?? []) noteValue(ctx, namedValue(arg));
  if (plain && enclosing !== null) {
    // Deferred work (`INIT_WORK(&x->work, fn)`, `schedule_work(&x->work)`): a function stored into an item is not called here.
    const stored = onDeferredWork(ctx, node, callee, caller, () => localsOf(enclosing));
    if (DISPATCH_MACRO.test(callee)) addPassedFunctions(ctx, node, caller, enclosing, stored);
  }
  const bare = callee.replace(/^(::|std::)/, "");
  if (C_ASSERTION_NAMES.has(bare)) addAssertion(ctx, node, bare);
  const rule = matchRisk("c", [bare], node.childForFieldName("arguments"));
  if (rule) {
    const { reason, severity } = rule;
    ctx.out.risks.push({ api: bare, reason, severity, line_start: startLine(node), line_end: endLine(node), caller });
  }
}

/** A function named as a value: `veth_xmit` or `&veth_xmit` (a cast around it is looked through). */
function namedValue(node: Node | null): string | null {
  let value = node;
  while (value && (value.type === "pointer_expression" || value.type === "cast_expression" || value.type === "parenthesized_expression")) {
    value = value.childForFieldName("argument") ?? value.childForFieldName("value") ?? value.namedChildren.at(-1) ?? null;
  }
  return value?.type === "identifier" ? value.text : null;
}

/**
 * A name stored into a struct field — `.ndo_start_xmit = veth_xmit` in an initializer, `po->prot_hook.func
 * = packet_rcv` in a body — the way C code registers a function to be called through that field. Whether
 * the name is a function is decided when the scope is linked (agents/pgc/callgraph/call-graph.ts).
 */
function onBinding(ctx: ExtractContext, node: Node): void {
  const isPair = node.type === "initializer_pair";
  const target = namedValue(node.childForFieldName(isPair ? "value" : "right"));
  if (!target) return;
  const field = isPair
    ? node.childrenForFieldName("designator").at(-1)
    : node.childForFieldName("left")?.childForFieldName("field");
  const name = field?.type === "field_designator" ? field.namedChildren[0]?.text : field?.type === "field_identifier" ? field.text : undefined;
  if (!name) return;
  noteValue(ctx, target);
  ctx.out.bindings.push({ field: name, target, file_path: ctx.path, line: startLine(node.childForFieldName(isPair ? "value" : "right") ?? node) });
}

/**
 * A call through a macro written in capitals (`INDIRECT_CALL_2(ipprot->handler, tcp_v4_rcv, udp_rcv, …)`,
 * `NF_HOOK(…, ip_rcv_finish)`) that is handed functions by name: the kernel's way of calling through a
 * pointer while naming the likely targets, or of running a function after a hook.
 */
const DISPATCH_MACRO = /^[A-Z][A-Z0-9_]*$/;
/** A function name as an argument: lower case with an underscore (`tcp_v4_rcv`), not a plain variable (`skb`). */
const PASSED_FUNCTION = /^[a-z][a-z0-9]*_[a-z0-9_]*$/;

/** Each function a dispatch macro is handed by name is a call of it, at the line that names it. */
function addPassedFunctions(ctx: ExtractContext, node: Node, caller: string | null, enclosing: OpenDefinition, stored: ReadonlySet<string>): void {
  for (const arg of node.childForFieldName("arguments")?.namedChildren ?? []) {
    if (arg?.type !== "identifier" || !PASSED_FUNCTION.test(arg.text) || stored.has(arg.text)) continue;
    if (localsOf(enclosing).has(arg.text)) continue;
    ctx.out.calls.push({ callee: arg.text, caller, file_path: ctx.path, line: startLine(arg), plain: true, local: false });
  }
}

/** Parameters and local function pointers of a function, computed once per function when first needed. */
function localsOf(definition: OpenDefinition): ReadonlySet<string> {
  if (definition.locals) return definition.locals;
  const info = readDeclarator(definition.node.childForFieldName("declarator"));
  const names = new Set(parameterNames(info?.functionDeclarator ?? null));
  const body = definition.node.childForFieldName("body")?.text ?? "";
  for (const match of body.matchAll(FUNCTION_POINTER_LOCAL)) if (match[1]) names.add(match[1]);
  definition.locals = names;
  return names;
}

function addAssertion(ctx: ExtractContext, node: Node, kind: string): void {
  ctx.out.assertions.push({
    kind,
    text: collapse(node.text, 200),
    line_start: startLine(node),
    line_end: endLine(node),
    caller: ctx.caller(),
  });
}
