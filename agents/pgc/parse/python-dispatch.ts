// Python's dispatch by a built name: the object's own method whose name is a literal prefix and a part
// known only at run time. `getattr(self, "do_" + command)()`; or, in two or three steps, `mname = "do_" +
// self.command; method = getattr(self, mname); method()` (http.server), `method = "visit_" +
// node.__class__.__name__; visitor = getattr(self, method, self.generic_visit); return visitor(node)` (ast,
// docutils). The call runs one of the methods named by the prefix: the call graph links it as a call through
// the pseudo-field `prefix*` (docs/PGC.md, rule 9).
import type { Node } from "web-tree-sitter";
import { startLine } from "./node-text.js";

export interface Dispatch {
  /** The literal part of the built name (`do_`, `visit_`, `_handle_`). */
  prefix: string;
  /** The line holding the prefix's string literal: where the code names what it may call. */
  line: number;
}

/**
 * A prefix that says which methods the name can build: a word and an underscore at least (`do_`,
 * `visit_`). A shorter or open-ended one (`"on" + event`, `"get" + name`) would bind too many methods.
 */
const PREFIX = /^_*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_$/;

/** `"do_"`, `'visit_'`: a plain string literal's text, without prefixes that change it (no f-, no b-string). */
const PLAIN_LITERAL = /^[rRuU]?(['"])([^'"\\{}%]*)\1$/;
/** `f"visit_{name}"`: the literal text before the first interpolation. */
const FORMATTED_HEAD = /^(?:[fF][rR]?|[rR][fF])(['"])([^'"\\{}]*)\{/;
/** `"visit_%s" % name`: the literal text before the first conversion. */
const PERCENT_HEAD = /^[rRuU]?(['"])([^'"\\%]*)%/;

/** A function's assignments to plain names, in source order (`name = value`), outside functions nested in it. */
export type Assignments = ReadonlyMap<string, readonly { at: number; value: Node }[]>;

/** Each function's assignments, read once (by the tree-sitter node's id) however many calls it makes. */
export class AssignmentMemo {
  private readonly byFunction = new Map<number, Assignments>();

  of(body: Node): Assignments {
    let known = this.byFunction.get(body.id);
    if (!known) {
      const map = new Map<string, { at: number; value: Node }[]>();
      for (const assignment of body.descendantsOfType("assignment")) {
        const left = assignment?.childForFieldName("left");
        const value = assignment?.childForFieldName("right");
        if (!assignment || left?.type !== "identifier" || !value || insideNestedFunction(assignment, body)) continue;
        map.set(left.text, [...(map.get(left.text) ?? []), { at: assignment.startIndex, value }]);
      }
      this.byFunction.set(body.id, (known = map));
    }
    return known;
  }
}

/**
 * The dispatch a call makes, when its function is one: `getattr(self|cls, <built name>)` called at once, or
 * a local name last assigned such a `getattr` before the call in the same function. Null otherwise.
 */
export function dispatchOf(fn: Node, body: Node | null, memo: AssignmentMemo): Dispatch | null {
  const assigned = body ? memo.of(body) : EMPTY;
  if (fn.type === "call") return getattrDispatch(fn, assigned);
  if (fn.type !== "identifier") return null;
  const value = lastBefore(assigned, fn.text, fn.startIndex);
  return value?.type === "call" ? getattrDispatch(value, assigned) : null;
}

const EMPTY: Assignments = new Map();

/**
 * A local name last assigned an attribute of an object before the call (`meth =
 * statement._execute_on_connection` … `meth(self, …)`; `write = self.stream.write` … `write(data)`): the
 * call runs that attribute, a method taken from its object. The attribute (the assignment's right side),
 * or null. A name assigned a call's result, a literal or several things is no such method.
 */
export function boundMethodOf(fn: Node, body: Node | null, memo: AssignmentMemo): Node | null {
  if (fn.type !== "identifier" || !body) return null;
  const value = lastBefore(memo.of(body), fn.text, fn.startIndex);
  return value?.type === "attribute" ? value : null;
}

function getattrDispatch(call: Node, assigned: Assignments): Dispatch | null {
  if (call.childForFieldName("function")?.text !== "getattr") return null;
  const args = (call.childForFieldName("arguments")?.namedChildren ?? []).filter((a): a is Node => a !== null);
  if (!/^(self|cls)$/.test(args[0]?.text ?? "")) return null;
  const name = args[1];
  if (!name) return null;
  // `getattr(self, mname)` after `mname = "do_" + self.command`.
  const built = name.type === "identifier" ? lastBefore(assigned, name.text, call.startIndex) : name;
  return built ? builtName(built) : null;
}

/** The value a name was last assigned before `before`. */
export function lastBefore(assigned: Assignments, name: string, before: number): Node | null {
  let value: Node | null = null;
  for (const a of assigned.get(name) ?? []) if (a.at < before) value = a.value;
  return value;
}

/** The prefix of a name built from a literal and something else: `"do_" + cmd`, `f"visit_{x}"`, `"visit_%s" % x`. */
function builtName(expr: Node): Dispatch | null {
  let literal: Node | null = null;
  let prefix: string | undefined;
  if (expr.type === "binary_operator") {
    const operator = expr.childForFieldName("operator")?.text;
    literal = expr.childForFieldName("left");
    if (literal?.type !== "string") return null;
    prefix = operator === "+" ? PLAIN_LITERAL.exec(literal.text)?.[2] : operator === "%" ? PERCENT_HEAD.exec(literal.text)?.[2] : undefined;
  } else if (expr.type === "string") {
    literal = expr;
    prefix = FORMATTED_HEAD.exec(expr.text)?.[2];
  }
  return literal && prefix !== undefined && PREFIX.test(prefix) ? { prefix, line: startLine(literal) } : null;
}

function insideNestedFunction(node: Node, body: Node): boolean {
  for (let at = node.parent; at && at.id !== body.id; at = at.parent) if (at.type === "function_definition" || at.type === "lambda") return true;
  return false;
}
