// Line numbers and short texts of syntax nodes, as the shared shapes want them (1-based, inclusive).
import type { Node } from "web-tree-sitter";

/** Signatures and excerpts are cut to this many characters. */
export const MAX_SIGNATURE_CHARS = 300;

export function startLine(node: Node): number {
  return node.startPosition.row + 1;
}

/**
 * The line a call names its callee on: a member call's name — Python's attribute, TS/JS's property, C's
 * field (`Load.for_existing_path(\n  …\n).lazyload(rev)` names `lazyload` on its last line) — else the
 * call's first line. A call's line must name its callee: that is how a chain's edge is checked.
 */
export function calleeLine(call: Node): number {
  const fn = call.childForFieldName("function") ?? call.childForFieldName("constructor");
  const name = fn?.childForFieldName("attribute") ?? fn?.childForFieldName("property") ?? fn?.childForFieldName("field");
  return startLine(name ?? call);
}

/** The last line a node occupies; a node that ends at column 0 (a preprocessor line) ends on the line before. */
export function endLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** Whitespace collapsed to single spaces, cut to `max` characters. */
export function collapse(text: string, max = MAX_SIGNATURE_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The source between `from` (inclusive) and `to` (exclusive), collapsed: a declaration up to its body. */
export function headText(content: string, from: Node, to: Node | null): string {
  const end = to ? to.startIndex : from.endIndex;
  return collapse(content.slice(from.startIndex, end).replace(/(=>|[{:=])\s*$/, ""));
}

/** True when only whitespace precedes `node` on its first line (so it is not a trailing comment). */
export function startsItsLine(content: string, node: Node): boolean {
  const lineStart = content.lastIndexOf("\n", node.startIndex - 1) + 1;
  return content.slice(lineStart, node.startIndex).trim() === "";
}

/** Named children that are not comments. */
export function realChildren(node: Node | null): Node[] {
  if (!node) return [];
  return node.namedChildren.filter((child): child is Node => child !== null && child.type !== "comment");
}

/** Where the statement around a node ends: another statement, a body, a function. */
const STATEMENT_BOUNDARY = /(?:_statement|_definition|_declaration|^block|^statement_block|^lambda|^arrow_function|^function_expression|^function|^generator_function|^module|^program|^class_body)$/;
/** Where the code a call runs in ends: a function (or a class or module body). */
const FUNCTION_BOUNDARY = /(?:^function_definition|^function_declaration|^generator_function_declaration|^method_definition|^lambda|^arrow_function|^function_expression|^function|^generator_function|^module|^program|^class_body|^class_definition)$/;

/** The statement that throws, and the clause that handles what was thrown, by language. */
const ERROR_SYNTAX = {
  python: { throws: "raise_statement", handlers: new Set(["except_clause", "except_group_clause"]) },
  ts: { throws: "throw_statement", handlers: new Set(["catch_clause"]) },
} as const;

/**
 * True when a call is on an error path: it belongs to a statement that throws (`raise
 * SMTPNotSupportedError(…)`, `throw new TRPCError({ … })`) or runs in a handler of what was thrown (an
 * `except` clause, a `catch` block) of its own function. A call in a function defined inside either is not.
 */
export function onErrorPath(node: Node, language: keyof typeof ERROR_SYNTAX): boolean {
  const syntax = ERROR_SYNTAX[language];
  let ownStatement = true;
  for (let at = node.parent; at; at = at.parent) {
    if (ownStatement && at.type === syntax.throws) return true;
    if (syntax.handlers.has(at.type)) return true;
    if (FUNCTION_BOUNDARY.test(at.type)) return false;
    if (STATEMENT_BOUNDARY.test(at.type)) ownStatement = false;
  }
  return false;
}
