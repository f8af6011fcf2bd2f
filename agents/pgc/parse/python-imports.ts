// Python imports: `import a.b as c` and `from .m import x as y`, with the names they bind.
import type { Node } from "web-tree-sitter";
import type { ExtractContext } from "./extract-context.js";
import type { ImportBindings } from "./import-bindings.js";
import { startLine } from "./node-text.js";

/** `import a.b, c as d`: one edge per module; `a` (or `d`) is bound to the module. */
export function readImport(ctx: ExtractContext, node: Node, bindings: ImportBindings): void {
  for (const name of node.childrenForFieldName("name")) {
    if (!name) continue;
    const aliased = name.type === "aliased_import";
    const module = (aliased ? name.childForFieldName("name") : name)?.text;
    if (!module) continue;
    ctx.out.imports.push({ kind: "import", target: module, file_path: ctx.path, line: startLine(node), system: false });
    const local = aliased ? name.childForFieldName("alias")?.text : module.split(".")[0];
    if (local) bindings.set(local, { module: aliased ? module : local, member: null, namespace: true });
  }
}

/** `from m import a, b as c`: one edge for `m` carrying the imported names; each name is bound. */
export function readFromImport(ctx: ExtractContext, node: Node, bindings: ImportBindings): void {
  const module = node.childForFieldName("module_name")?.text;
  if (!module) return;
  const names: string[] = [];
  for (const name of node.childrenForFieldName("name")) {
    if (!name) continue;
    const aliased = name.type === "aliased_import";
    const member = (aliased ? name.childForFieldName("name") : name)?.text;
    if (!member) continue;
    names.push(member);
    const alias = aliased ? name.childForFieldName("alias")?.text : undefined;
    bindings.set(alias ?? member, { module, member, ...(alias !== undefined && alias !== member ? { line: startLine(name) } : {}) });
  }
  ctx.out.imports.push({ kind: "import", target: module, file_path: ctx.path, line: startLine(node), system: false, names });
}
