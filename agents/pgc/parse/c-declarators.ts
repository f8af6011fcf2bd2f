// Reading C/C++ declarators: the declared name, its parameters and the return type.
import type { Node } from "web-tree-sitter";
import { realChildren } from "./node-text.js";

const NAME_NODE_TYPES: ReadonlySet<string> = new Set([
  "identifier", "field_identifier", "type_identifier", "qualified_identifier", "destructor_name",
  "operator_name", "primitive_type",
]);
const WRAPPER_DECLARATORS: ReadonlySet<string> = new Set([
  "parenthesized_declarator", "reference_declarator", "attributed_declarator",
]);
const PARAMETER_TYPES: ReadonlySet<string> = new Set([
  "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration", "variadic_parameter",
]);

export interface DeclaratorInfo {
  name: Node;
  /** The function declarator on the way down, when the declarator declares a function. */
  functionDeclarator: Node | null;
  pointerDepth: number;
}

/** Follows a declarator chain (pointers, parentheses, function declarators) down to the declared name. */
export function readDeclarator(declarator: Node | null): DeclaratorInfo | null {
  let node = declarator;
  let functionDeclarator: Node | null = null;
  let pointerDepth = 0;
  while (node) {
    if (NAME_NODE_TYPES.has(node.type)) return { name: node, functionDeclarator, pointerDepth };
    if (node.type === "function_declarator") functionDeclarator ??= node;
    if (node.type === "pointer_declarator") pointerDepth++;
    node = node.childForFieldName("declarator") ?? (WRAPPER_DECLARATORS.has(node.type) ? node.namedChild(0) : null);
  }
  return null;
}

/** The parameter declarations of a function declarator; `(void)` has none. */
export function parameterNodes(functionDeclarator: Node | null): Node[] {
  const params = realChildren(functionDeclarator?.childForFieldName("parameters") ?? null).filter((child) =>
    PARAMETER_TYPES.has(child.type),
  );
  const only = params[0];
  if (params.length === 1 && only && !only.childForFieldName("declarator") && only.text.trim() === "void") return [];
  return params;
}

/** Names of the parameters (unnamed ones omitted). */
export function parameterNames(functionDeclarator: Node | null): string[] {
  const names: string[] = [];
  for (const param of parameterNodes(functionDeclarator)) {
    const info = readDeclarator(param.childForFieldName("declarator"));
    if (info) names.push(info.name.text);
  }
  return names;
}

/** The return type as written, with the pointer stars of the declarator ("void *"). */
export function returnType(definition: Node, pointerDepth: number): string | undefined {
  const type = definition.childForFieldName("type")?.text;
  if (!type) return undefined;
  return pointerDepth > 0 ? `${type} ${"*".repeat(pointerDepth)}` : type;
}

/** Splits a C++ qualified name ("ns::Widget::grow") into its last segment and its qualifier. */
export function splitQualified(text: string): { name: string; qualifier: string } {
  const parts = text.split("::").map((part) => part.trim());
  const name = parts.pop() ?? text;
  return { name, qualifier: parts.join("::") };
}
