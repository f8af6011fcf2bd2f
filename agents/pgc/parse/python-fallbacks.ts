// Python's optional imports: `try: from urllib3.contrib.socks import SOCKSProxyManager` / `except
// ImportError: def SOCKSProxyManager(*a, **k): raise InvalidSchema(…)`. The definition in the handler runs
// only when the import fails; where the module is there, the name is the imported one.
import type { Node } from "web-tree-sitter";

/**
 * The module a definition stands in for, when it is defined directly in an `except` clause of a `try`
 * whose body imports the same name (`from m import x`, `from m import y as x`, `import x`); else null.
 */
export function fallbackOf(outer: Node, name: string): string | null {
  const block = outer.parent;
  const handler = block?.parent;
  const attempt = handler?.parent;
  if (block?.type !== "block" || handler?.type !== "except_clause" || attempt?.type !== "try_statement") return null;
  const body = attempt.childForFieldName("body");
  for (const statement of body?.namedChildren ?? []) {
    const module = statement ? importedAs(statement, name) : null;
    if (module !== null) return module;
  }
  return null;
}

/** The module an import statement binds `name` from, or null when it does not bind it. */
function importedAs(statement: Node, name: string): string | null {
  if (statement.type !== "import_from_statement" && statement.type !== "import_statement") return null;
  const from = statement.type === "import_from_statement" ? (statement.childForFieldName("module_name")?.text ?? null) : null;
  for (const item of statement.childrenForFieldName("name")) {
    if (!item) continue;
    const aliased = item.type === "aliased_import";
    const imported = (aliased ? item.childForFieldName("name") : item)?.text ?? "";
    const bound = aliased ? item.childForFieldName("alias")?.text : from !== null ? imported : imported.split(".")[0];
    if (bound === name) return from ?? imported;
  }
  return null;
}
