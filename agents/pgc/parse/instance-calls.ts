// Python: calling an object runs its class's `__call__`. A call of a name the code binds to one built object
// — `self._log_render(…)` after `self._log_render = LogRender(…)` in the class, `quoter(…)` after `quoter =
// _Quoter(…)` in the function, `_QUOTER(…)` after `_QUOTER = _Quoter(…)` at module level — is a call of
// that class's `__call__`, cited by the call line, which names the object, and the line building it, which
// names the class (docs/PGC.md, "Calling an object"). A name given more than one class, or any other value
// besides `None`, is left alone: which object runs is then the run's, not the code's.
import type { Node } from "web-tree-sitter";
import { constructed, ownField } from "./value-class.js";
import { startLine } from "./node-text.js";

/** The object a call calls: the class it is built as and the line building it. */
export interface InstanceCalled {
  cls: string;
  line: number;
}

/** The class and building line of the one class every assignment of `matches` builds (a `None` aside); undefined otherwise. */
function oneBuilt(assignments: readonly Node[], matches: (left: Node) => boolean): InstanceCalled | undefined {
  let found: InstanceCalled | undefined;
  for (const assignment of assignments) {
    const left = assignment.childForFieldName("left");
    if (!left || !matches(left)) continue;
    const right = assignment.childForFieldName("right");
    if (right?.type === "none") continue;
    const cls = constructed(right ?? null, "python");
    if (cls === undefined || (found && found.cls !== cls)) return undefined;
    found ??= { cls, line: startLine(assignment) };
  }
  return found;
}

function enclosing(node: Node, type: string): Node | null {
  for (let at = node.parent; at; at = at.parent) if (at.type === type) return at;
  return null;
}

/** The module's own assignments (not those inside functions or classes). */
function moduleAssignments(root: Node): Node[] {
  const out: Node[] = [];
  for (const statement of root.namedChildren) {
    const assignment = statement?.type === "expression_statement" ? statement.namedChild(0) : null;
    if (assignment?.type === "assignment") out.push(assignment);
  }
  return out;
}

/**
 * The object `fn` (the called expression of a Python call) names, when the code builds it from one class:
 * a field of `self` its class assigns, or a plain name the enclosing function (else the module) assigns;
 * undefined for anything else, and for a name the function takes as a parameter.
 */
export function instanceCalled(fn: Node): InstanceCalled | undefined {
  const field = ownField(fn, "python");
  if (field !== undefined) {
    const cls = enclosing(fn, "class_definition");
    return cls ? oneBuilt(cls.descendantsOfType("assignment").filter((a): a is Node => a !== null), (left) => ownField(left, "python") === field) : undefined;
  }
  if (fn.type !== "identifier") return undefined;
  const name = fn.text;
  const isName = (left: Node) => left.type === "identifier" && left.text === name;
  const owner = enclosing(fn, "function_definition");
  if (owner) {
    const parameters = owner.childForFieldName("parameters")?.text ?? "";
    if (new RegExp(`(^|[^\\w])${name}([^\\w]|$)`).test(parameters)) return undefined;
    const local = (owner.childForFieldName("body")?.descendantsOfType("assignment") ?? []).filter((a): a is Node => a !== null && enclosing(a, "function_definition")?.id === owner.id);
    if (local.some((a) => { const left = a.childForFieldName("left"); return left !== null && isName(left); })) return oneBuilt(local, isName);
  }
  return oneBuilt(moduleAssignments(fn.tree.rootNode), isName);
}
