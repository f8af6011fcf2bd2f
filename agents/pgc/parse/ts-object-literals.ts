// The functions a TS/JS object literal holds (PGC.md, "The call graph"): the methods of a module-level
// object (`intervalProvider.setInterval`), and of an object a function builds and returns (`coreModule.init`).
import type { Node } from "web-tree-sitter";
import { addObjectMethod, FUNCTION_NODES, FUNCTION_VALUES, unwrapped, VALUE_WRAPPERS, type TsState } from "./ts-definitions.js";

/**
 * The module-level `const` an object literal initializes (`export const intervalProvider = { … }`), whose
 * methods are the object's methods; undefined for any other object literal.
 */
function moduleObjectName(object: Node | null): string | undefined {
  const declarator = object?.type === "object" ? object.parent : null;
  const top = declarator?.type === "variable_declarator" ? declarator.parent?.parent : null;
  if (!(top?.type === "program" || top?.type === "export_statement")) return undefined;
  return declarator?.childForFieldName("name")?.type === "identifier" ? declarator.childForFieldName("name")?.text : undefined;
}

/** The function a definition on the stack is (a declaration, a method, or the function value of a declarator or key). */
function functionOf(definition: Node): Node | null {
  if (FUNCTION_NODES.has(definition.type)) return definition;
  const value = definition.childForFieldName("value") ?? definition.childForFieldName("right");
  const fn = value ? unwrapped(value) : null;
  return fn && FUNCTION_VALUES.has(fn.type) ? fn : null;
}

/**
 * The function that builds and returns an object literal (`coreModule = () => ({ init(…) { … } })`, `return {
 * startListening: (…) => { … } }`), when the literal is what the enclosing definition itself returns: its
 * functions are what callers of the builder call (`m.init(…)`). Undefined for a literal returned by a callback
 * inside it, passed as an argument, or assigned.
 */
function builderOf(state: TsState, object: Node | null): string | undefined {
  if (object?.type !== "object") return undefined;
  let at: Node = object;
  while (at.parent && VALUE_WRAPPERS.has(at.parent.type)) at = at.parent;
  const parent = at.parent;
  let fn: Node | null = null;
  if (parent?.type === "arrow_function" && parent.childForFieldName("body")?.id === at.id) fn = parent;
  else if (parent?.type === "return_statement") {
    fn = parent.parent;
    while (fn && !FUNCTION_NODES.has(fn.type)) fn = fn.parent;
  }
  const definition = state.ctx.stack.enclosingFunction();
  if (!fn || !definition || functionOf(definition.node)?.id !== fn.id) return undefined;
  return definition.name;
}

/**
 * The variable a function's body binds an object literal to, in a declaration directly in that body (`const
 * coreInstance: CoreInstance = { getRow: (id) => { … } }` in TanStack Table's `createTable`, `let row = {
 * getValue: (columnId) => { … } }` in its `createRow`): its functions are that object's methods, which the
 * function defines. Undefined for a literal anywhere else.
 */
function localObjectName(state: TsState, object: Node | null): string | undefined {
  if (object?.type !== "object" || !state.ctx.stack.enclosingFunction()) return undefined;
  let at: Node = object;
  while (at.parent && VALUE_WRAPPERS.has(at.parent.type)) at = at.parent;
  const declarator = at.parent;
  const name = declarator?.type === "variable_declarator" && declarator.childForFieldName("value")?.id === at.id ? declarator.childForFieldName("name") : null;
  const block = declarator?.parent?.parent;
  if (name?.type !== "identifier" || block?.type !== "statement_block" || !FUNCTION_NODES.has(block.parent?.type ?? "")) return undefined;
  return name.text;
}

/**
 * A function an object literal holds: a method of a module-level object, of the function that returns the
 * literal, or of the variable a function binds it to. The enclosing function's body holds the latter two:
 * the call graph links them from it as closures (`defines`).
 */
export function addLiteralFunction(state: TsState, outer: Node, fn: Node, name: string): boolean {
  const object = moduleObjectName(outer.parent) ?? builderOf(state, outer.parent) ?? localObjectName(state, outer.parent);
  if (!object) return false;
  addObjectMethod(state, outer, fn, name, object);
  return true;
}
