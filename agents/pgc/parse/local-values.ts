// A plain call of a name the calling function binds itself — a parameter or a variable (`handler(context,
// …)` after `let handler = middleware[i][0][0]`, `callback()` with `callback` a parameter) — runs whatever
// value the name holds, not a function of that name defined elsewhere in the scope (PGC.md, call rule 1).
// Python, TypeScript and JavaScript; C has its own (c-extractor.ts, `localsOf`).
import type { Node } from "web-tree-sitter";
import { FUNCTION_TYPES, type ReceiverLanguage } from "./receiver-class.js";

/** Per function (by its start offset in the file): the names it binds to values. */
export type LocalValueMemo = Map<number, ReadonlySet<string>>;

/** A function written where it is bound (`const f = () => …`, `f = lambda: …`) is a definition, not a value of unknown origin. */
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function", "lambda", "class"]);

/** True when `name`, called plainly at `call`, is a parameter or variable of a function around the call. */
export function isLocalValue(call: Node, name: string, lang: ReceiverLanguage, memo: LocalValueMemo): boolean {
  for (let at = call.parent; at; at = at.parent) {
    if (COMPREHENSIONS.has(at.type) && comprehensionBinds(at, name)) return true;
    if (!FUNCTION_TYPES[lang].has(at.type) && at.type !== "lambda") continue;
    let names = memo.get(at.startIndex);
    if (!names) memo.set(at.startIndex, (names = valueNamesOf(at, lang)));
    if (names.has(name)) return true;
  }
  return false;
}

/** Python's comprehensions: their loops bind names inside them only (`[receiver(…) for receiver in receivers]`). */
const COMPREHENSIONS = new Set(["list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"]);

function comprehensionBinds(comprehension: Node, name: string): boolean {
  const names = new Set<string>();
  for (const clause of comprehension.namedChildren) {
    const target = clause?.type === "for_in_clause" ? clause.childForFieldName("left") : null;
    if (target) addTarget(names, target);
  }
  return names.has(name);
}

function valueNamesOf(fn: Node, lang: ReceiverLanguage): Set<string> {
  const names = new Set<string>();
  const parameters = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (parameters?.type === "identifier") names.add(parameters.text);
  for (const param of parameters?.namedChildren ?? []) if (param) addParameter(names, param);
  const body = fn.childForFieldName("body");
  if (body) collect(body, lang, names);
  return names;
}

function addParameter(names: Set<string>, param: Node): void {
  if (param.type === "identifier") names.add(param.text);
  const named = param.childForFieldName("pattern") ?? param.childForFieldName("name") ?? (/splat_pattern|typed_parameter|rest_pattern/.test(param.type) ? param.namedChild(0) : null);
  if (named?.type === "identifier") names.add(named.text);
}

/** The names the body binds by declaration, assignment or loop, not looking into functions defined in it (they bind their own). */
function collect(node: Node, lang: ReceiverLanguage, names: Set<string>): void {
  for (const child of node.namedChildren) {
    if (!child || FUNCTION_TYPES[lang].has(child.type) || child.type === "lambda" || child.type === "class_definition" || child.type === "class_declaration") continue;
    const [target, value] = bindingOf(child);
    if (target && !(value && FUNCTION_VALUES.has(value.type))) addTarget(names, target);
    collect(child, lang, names);
  }
}

/**
 * The names a target binds: a name, or each name of an unpacking (`for sender, receiver in pairs`, `a, b =
 * …`, `const [a, b] = …`, `const { a, b } = …`).
 */
const UNPACKING = new Set(["pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "array_pattern", "object_pattern"]);

function addTarget(names: Set<string>, target: Node): void {
  if (target.type === "identifier" || target.type === "shorthand_property_identifier_pattern") names.add(target.text);
  else if (UNPACKING.has(target.type)) for (const part of target.namedChildren) if (part) addTarget(names, part);
}

/** What a declaration, assignment or loop binds, and the value it binds it to (none for a loop). */
function bindingOf(node: Node): [Node | null, Node | null] {
  switch (node.type) {
    case "variable_declarator":
      return [node.childForFieldName("name"), node.childForFieldName("value")];
    case "assignment":
    case "assignment_expression":
      return [node.childForFieldName("left"), node.childForFieldName("right")];
    case "for_statement":
    case "for_in_statement":
      return [node.childForFieldName("left"), null];
    default:
      return [null, null];
  }
}
