// Line numbers and short texts of syntax nodes, as the shared shapes want them (1-based, inclusive).
import type { Node } from "web-tree-sitter";

/** Signatures and excerpts are cut to this many characters. */
export const MAX_SIGNATURE_CHARS = 300;

export function startLine(node: Node): number {
  return node.startPosition.row + 1;
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

/** Where a search for the statement around a node stops: another statement, a body, a function. */
const STATEMENT_BOUNDARY = /(?:_statement|_definition|_declaration|^block|^statement_block|^lambda|^arrow_function|^function_expression|^function|^generator_function|^module|^program|^class_body)$/;

/**
 * True when `node` belongs to a statement of type `statement` (`raise_statement`, `throw_statement`): the
 * first statement, body or function around it is one. `raise SMTPNotSupportedError(…)`'s call is; a call
 * in a function defined inside the thrown expression is not.
 */
export function inStatementOf(node: Node, statement: string): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === statement) return true;
    if (STATEMENT_BOUNDARY.test(at.type)) return false;
  }
  return false;
}
