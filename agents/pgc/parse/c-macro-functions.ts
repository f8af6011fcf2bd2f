// C functions defined by a capitals macro at file level, the kernel's way: `SYSCALL_DEFINE3(write, …) { … }`
// (a call statement, then a block) and `SYSCALL_DEFINE0(fork) { … }` (which the grammar reads as a function
// whose type is the macro), in the translation unit or in its `#ifdef` blocks (docs/PGC.md); and functions
// of no parameters whose attribute macros the grammar stumbles on (`void __sched schedule(void)`).
import type { Node } from "web-tree-sitter";
import type { ExtractContext } from "./extract-context.js";
import { collapse, endLine } from "./node-text.js";

/** A capitals macro called at file level, then a block: the kernel's way of defining a function by macro. */
const DEFINING_MACRO = /^[A-Z][A-Z0-9_]*$/;

/** At file level: in the translation unit, or in `#ifdef`/`#if`/`#else` blocks there. */
function atFileLevel(node: Node): boolean {
  let at = node.parent;
  while (at?.type.startsWith("preproc_")) at = at.parent;
  return at?.type === "translation_unit";
}

/** The block a file-level `SYSCALL_DEFINE3(write, …)` statement opens, or null when the statement is no such definition. */
export function macroDefinitionBody(statement: Node): Node | null {
  if (!atFileLevel(statement)) return null;
  const call = statement.namedChild(0);
  const macro = call?.childForFieldName("function")?.text ?? "";
  const body = statement.nextNamedSibling;
  return call?.type === "call_expression" && DEFINING_MACRO.test(macro) && body?.type === "compound_statement" ? body : null;
}

/**
 * `SYSCALL_DEFINE3(write, unsigned int, fd, …) { … }`, `BPF_CALL_2(bpf_map_lookup_elem, …) { … }`: C has
 * no other file-level call followed by a block, so the pair is a function, named by the macro's first
 * argument (`write`: the system call as user space names it), its lines the macro's through the block's.
 * The calls in the block are its own.
 */
export function onMacroFunction(ctx: ExtractContext, node: Node): void {
  const body = macroDefinitionBody(node);
  const call = node.namedChild(0);
  const name = call?.childForFieldName("arguments")?.namedChild(0)?.text;
  if (!body || !name) return;
  const symbol = ctx.addSymbol(node, { name, kind: "function", signature: collapse(node.text.replace(/;$/, "")), params: Math.max(0, Math.floor(((call?.childForFieldName("arguments")?.namedChildCount ?? 1) - 1) / 2)) });
  symbol.line_end = endLine(body);
  ctx.stack.push({ name, kind: "function", endIndex: body.endIndex, node });
}

/**
 * `SYSCALL_DEFINE0(fork) { … }`: a defining macro with one argument reads to the grammar as a function
 * whose type is the macro and whose name is in parentheses; it is the function `fork`.
 */
export function onOneArgumentMacroFunction(ctx: ExtractContext, node: Node): void {
  const macro = node.childForFieldName("type");
  const declarator = node.childForFieldName("declarator");
  const name = declarator?.type === "parenthesized_declarator" && declarator.namedChildCount === 1 && declarator.namedChild(0)?.type === "identifier" ? declarator.namedChild(0)?.text : undefined;
  if (macro?.type !== "type_identifier" || !name || !atFileLevel(node)) return;
  if (DEFINING_MACRO.test(macro.text)) {
    ctx.addSymbol(node, { name, kind: "function", signature: collapse(`${macro.text}(${name})`), params: 0 });
    ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
  } else if (name === "void") onAttributedFunction(ctx, node, macro.text);
}

/**
 * `asmlinkage __visible void __sched schedule(void) { … }`, `static int __init foo_init(void) { … }`:
 * attribute macros between the specifiers and the name make the grammar read the words before the name as
 * declarations of their own (`asmlinkage __visible;`, `void __sched;`), the name as a type and `(void)` as a
 * parenthesized declarator. A lower-case "type" followed by `(void)` and a body is that function, taking no
 * parameters; its signature is its whole first line.
 */
function onAttributedFunction(ctx: ExtractContext, node: Node, name: string): void {
  const lineStart = ctx.content.lastIndexOf("\n", node.startIndex - 1) + 1;
  const body = node.childForFieldName("body");
  ctx.addSymbol(node, { name, kind: "function", signature: collapse(ctx.content.slice(lineStart, body ? body.startIndex : node.endIndex)), params: 0 });
  ctx.stack.push({ name, kind: "function", endIndex: node.endIndex, node });
}
