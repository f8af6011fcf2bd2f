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

/** A name assigned only `None` so far: it is the place's own name, of no class yet. */
const NONE_ONLY = { cls: "", line: 0 };

/**
 * Each name a place assigns → the one class every assignment of it builds, with the first line building it;
 * null when it is assigned anything else or two classes; NONE_ONLY when only `None`.
 */
type Built = ReadonlyMap<string, InstanceCalled | null>;

function builtIn(assignments: Iterable<Node | null>, nameOf: (left: Node) => string | undefined): Built {
  const out = new Map<string, InstanceCalled | null>();
  for (const assignment of assignments) {
    const left = assignment?.childForFieldName("left");
    const name = left ? nameOf(left) : undefined;
    if (!assignment || name === undefined) continue;
    const known = out.get(name);
    if (known === null) continue;
    const right = assignment.childForFieldName("right");
    if (right?.type === "none") {
      if (known === undefined) out.set(name, NONE_ONLY);
      continue;
    }
    const cls = constructed(right ?? null, "python");
    if (cls === undefined || (known !== undefined && known !== NONE_ONLY && known.cls !== cls)) out.set(name, null);
    else if (known === undefined || known === NONE_ONLY) out.set(name, { cls, line: startLine(assignment) });
  }
  return out;
}

/** Per parsed file: what a class, a function or the module builds, by the node's id (worked out once, not per call). */
const memo = new WeakMap<object, Map<number, { built: Built; parameters?: ReadonlySet<string> }>>();

function placeOf(node: Node, work: () => { built: Built; parameters?: ReadonlySet<string> }): { built: Built; parameters?: ReadonlySet<string> } {
  let byNode = memo.get(node.tree);
  if (!byNode) memo.set(node.tree, (byNode = new Map()));
  let found = byNode.get(node.id);
  if (!found) byNode.set(node.id, (found = work()));
  return found;
}

function enclosing(node: Node, type: string): Node | null {
  for (let at = node.parent; at; at = at.parent) if (at.type === type) return at;
  return null;
}

const plainName = (left: Node) => (left.type === "identifier" ? left.text : undefined);

/** The module's own assignments (not those inside functions or classes). */
function moduleBuilt(root: Node): Built {
  return placeOf(root, () => ({ built: builtIn(root.namedChildren.map((s) => (s?.type === "expression_statement" ? s.namedChild(0) : null)).filter((a) => a?.type === "assignment"), plainName) })).built;
}

/** A function's own assignments (not those of functions inside it), and its parameters' names. */
function functionPlace(owner: Node): { built: Built; parameters?: ReadonlySet<string> } {
  return placeOf(owner, () => ({
    built: builtIn((owner.childForFieldName("body")?.descendantsOfType("assignment") ?? []).filter((a) => a !== null && enclosing(a, "function_definition")?.id === owner.id), plainName),
    parameters: new Set((owner.childForFieldName("parameters")?.text ?? "").match(/[A-Za-z_]\w*/g) ?? []),
  }));
}

const real = (found: InstanceCalled | null | undefined) => (found && found !== NONE_ONLY ? found : undefined);

/**
 * The object `fn` (the called expression of a Python call) names, when the code builds it from one class:
 * a field of `self` its class assigns, or a plain name the enclosing function (else the module) assigns;
 * undefined for anything else, and for a name the function takes as a parameter. `owner`: the function
 * the call is in (the extractor's, already at hand), or null at module level.
 */
export function instanceCalled(fn: Node, owner: Node | null): InstanceCalled | undefined {
  const field = ownField(fn, "python");
  if (field !== undefined) {
    const cls = enclosing(fn, "class_definition");
    return cls ? real(placeOf(cls, () => ({ built: builtIn(cls.descendantsOfType("assignment"), (left) => ownField(left, "python")) })).built.get(field)) : undefined;
  }
  if (fn.type !== "identifier") return undefined;
  if (owner) {
    const place = functionPlace(owner);
    if (place.parameters?.has(fn.text)) return undefined;
    if (place.built.has(fn.text)) return real(place.built.get(fn.text));
  }
  return real(moduleBuilt(fn.tree.rootNode).get(fn.text));
}
