// TS/JS imports: import statements, re-exports, require() and import(), with the names they bind.
import type { Node } from "web-tree-sitter";
import type { ExtractContext } from "./extract-context.js";
import type { ImportBindings } from "./import-bindings.js";
import { realChildren, startLine } from "./node-text.js";

/** The text of a string literal node without its quotes. */
export function stringValue(node: Node | null | undefined): string | null {
  if (!node || (node.type !== "string" && node.type !== "template_string")) return null;
  const text = node.text.slice(1, -1);
  return node.type === "template_string" && text.includes("${") ? null : text;
}

function addEdge(ctx: ExtractContext, target: string, node: Node, reexport = false): void {
  const names = reexport ? reexportedNames(node) : null;
  ctx.out.imports.push({ kind: "import", target, file_path: ctx.path, line: startLine(node), system: false, ...(reexport ? { reexport: true } : {}), ...(names ? { reexported: names } : {}) });
}

/** `export { _minLength as minLength, x } from "m"`: each name as exported and as `m` has it, at its line; null for `export *`. */
function reexportedNames(node: Node): { exported: string; imported: string; line: number }[] | null {
  const clause = realChildren(node).find((child) => child.type === "export_clause");
  if (!clause) return null;
  return realChildren(clause).flatMap((specifier) => {
    const imported = specifier.childForFieldName("name")?.text;
    const exported = specifier.childForFieldName("alias")?.text ?? imported;
    return imported && exported ? [{ exported, imported, line: startLine(specifier) }] : [];
  });
}

/** `import … from "m"` and `export … from "m"`. */
export function readImportStatement(ctx: ExtractContext, node: Node, bindings: ImportBindings): void {
  const module = stringValue(node.childForFieldName("source"));
  if (module === null) return;
  addEdge(ctx, module, node, node.type === "export_statement");
  const clause = realChildren(node).find((child) => child.type === "import_clause");
  for (const part of realChildren(clause ?? null)) bindClausePart(part, module, bindings);
}

function bindClausePart(part: Node, module: string, bindings: ImportBindings): void {
  if (part.type === "identifier") bindings.set(part.text, { module, member: null, default: true });
  else if (part.type === "namespace_import") {
    const name = realChildren(part).find((child) => child.type === "identifier");
    if (name) bindings.set(name.text, { module, member: null, namespace: true });
  } else if (part.type === "named_imports") {
    for (const specifier of realChildren(part)) {
      const imported = specifier.childForFieldName("name")?.text;
      const local = specifier.childForFieldName("alias")?.text ?? imported;
      if (imported && local) bindings.set(local, { module, member: imported, ...(local !== imported ? { line: startLine(specifier) } : {}) });
    }
  }
}

/** `require("m")` and `import("m")`; binds `const x = require("m")` and `const { a } = require("m")`. */
export function readRequireCall(ctx: ExtractContext, call: Node, fn: Node, bindings: ImportBindings): void {
  if (!(fn.type === "import" || (fn.type === "identifier" && fn.text === "require"))) return;
  const module = stringValue(realChildren(call.childForFieldName("arguments"))[0]);
  if (module === null) return;
  addEdge(ctx, module, call);
  const declarator = call.parent?.type === "variable_declarator" ? call.parent : null;
  const name = declarator?.childForFieldName("name");
  if (!name) return;
  if (name.type === "identifier") bindings.set(name.text, { module, member: null, namespace: true });
  else if (name.type === "object_pattern") bindPattern(name, module, bindings);
}

function bindPattern(objectPattern: Node, module: string, bindings: ImportBindings): void {
  for (const property of realChildren(objectPattern)) {
    if (property.type === "shorthand_property_identifier_pattern") {
      bindings.set(property.text, { module, member: property.text });
    } else if (property.type === "pair_pattern") {
      const key = property.childForFieldName("key")?.text;
      const value = property.childForFieldName("value");
      if (key && value?.type === "identifier") bindings.set(value.text, { module, member: key });
    }
  }
}
