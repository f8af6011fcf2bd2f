// Functions JavaScript assigns to members (PGC.md, "The call graph"): how code without class syntax builds its
// objects — `Foo.prototype.m = function …`, CommonJS's `exports.f = …` and `res.send = function send(…)`, and a
// factory's `column.toggleSorting = (…) => { … }` — each a function of its own, not part of what surrounds it.
import type { Node } from "web-tree-sitter";
import { headText, realChildren } from "./node-text.js";
import { addFunction, FUNCTION_NODES, FUNCTION_VALUES, innermostClass, returnTypeOf, unwrapped, type TsState } from "./ts-definitions.js";

/** Whose member the assigned function is: a class's or object's (`container`), or the module's own function (`exports.f`). */
type Owner = { container: string } | { module: true };

/**
 * A function assigned to a member, in a statement of its own at module level or directly in a function's
 * body (not one under an `if`), is a method of the object it is written on:
 * - `Foo.prototype.m = function …`: of Foo;
 * - at module level, `exports.f = …` and `module.exports.f = …` are the module's function `f`;
 *   `res.send = function send(…)` (Express builds its response object so) a method of `res`;
 * - `this.m = …` in a constructor: of its class; in a function that is the initializer of a module-level
 *   definition, of that definition, and so `inst.m = (…) => …` where `inst` is a parameter of such a
 *   function (`export const ZodString = core.$constructor("ZodString", (inst, def) => { … })`);
 * - any other `obj.m = …` in a function's body: of `obj` as written (TanStack Table's features give each
 *   column its methods in `createColumn(column, table)`: `column.toggleSorting = (…) => { … }`), a function
 *   the enclosing one defines (the call graph's `defines` edge), called as `column.toggleSorting()`.
 */
export function onMemberFunction(state: TsState, node: Node): void {
  const left = node.childForFieldName("left");
  const value = node.childForFieldName("right");
  const right = value ? unwrapped(value) : null;
  const property = left?.childForFieldName("property");
  if (!left || !right || !FUNCTION_VALUES.has(right.type) || property?.type !== "property_identifier") return;
  const statement = node.parent as Node;
  const owner = memberOwner(state, left.childForFieldName("object"), statement);
  if (!owner) return;
  if ("module" in owner) return addFunction(state, node, statement, property.text, "function", right);
  state.ctx.addSymbol(statement, {
    name: property.text,
    kind: "method",
    signature: headText(state.ctx.content, statement, right.childForFieldName("body")),
    params: realChildren(right.childForFieldName("parameters")).length,
    returns: returnTypeOf(right),
    container: owner.container,
  });
  state.ctx.stack.push({ name: property.text, kind: "function", endIndex: node.endIndex, node });
}

function memberOwner(state: TsState, object: Node | null, statement: Node): Owner | undefined {
  if (!object) return undefined;
  if (object.type === "member_expression" && object.childForFieldName("property")?.text === "prototype") {
    const base = object.childForFieldName("object");
    return base?.type === "identifier" ? { container: base.text } : undefined;
  }
  if (statement.parent?.type === "program") return moduleMemberOwner(object);
  // The function whose body holds the statement, directly.
  const fn = statement.parent?.type === "statement_block" ? statement.parent.parent : null;
  if (!fn || !FUNCTION_NODES.has(fn.type)) return undefined;
  const definition = state.ctx.stack.enclosingFunction();
  if (!definition) return undefined;
  if (object.type === "this") {
    if (fn.type === "method_definition") return fn.childForFieldName("name")?.text === "constructor" ? ownerNamed(innermostClass(state)) : undefined;
    return builds(definition.node) ? { container: definition.name } : undefined;
  }
  if (object.type !== "identifier") return undefined;
  if (builds(definition.node) && parameterNames(fn).includes(object.text)) return { container: definition.name };
  return { container: object.text };
}

/** At module level: `exports.f` and `module.exports.f` are the module's own; `obj.m` is `obj`'s; `module.exports = …` is neither. */
function moduleMemberOwner(object: Node): Owner | undefined {
  if (object.type === "member_expression") return object.text === "module.exports" ? { module: true } : undefined;
  if (object.type !== "identifier" || object.text === "module") return undefined;
  return object.text === "exports" ? { module: true } : { container: object.text };
}

/** A definition whose function builds an object: the initializer of a module-level declarator, or a declared function. */
function builds(definition: Node): boolean {
  return definition.type === "variable_declarator" || definition.type === "function_declaration";
}

function parameterNames(fn: Node): string[] {
  const single = fn.childForFieldName("parameter");
  return [...realChildren(fn.childForFieldName("parameters")).map((p) => (p.childForFieldName("pattern") ?? p).text), ...(single ? [single.text] : [])];
}

function ownerNamed(container: string | undefined): Owner | undefined {
  return container ? { container } : undefined;
}
