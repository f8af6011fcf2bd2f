// The class a value is, where the code says it on the spot: a constructor call or `new` (`Parser(policy)`,
// `new Doc()`), a type annotation, what a function returns (its annotation, or the one class its returns
// construct); and how a call records its receiver (receiverFields). The parts receiver-class.ts reads a
// function's, a module's and a class's names with.
import type { Node } from "web-tree-sitter";
import { CLASS_NAME, classOfAnnotation } from "./annotation-class.js";

export type ReceiverLanguage = "python" | "ts";


export const FUNCTION_TYPES: Readonly<Record<ReceiverLanguage, ReadonlySet<string>>> = {
  python: new Set(["function_definition"]),
  ts: new Set(["function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration", "function"]),
};

/** Per function (by its start offset in the file): variable → the one class it is assigned or declared as. */
export type ReceiverMemo = Map<number, ReadonlyMap<string, string>>;

/** The class named by a constructor or a type: `Foo`, `mod.Foo`, `Foo<T>`, `new Foo`; undefined when it names none. */
export function classNamed(node: Node | null): string | undefined {
  if (!node) return undefined;
  let name: string | undefined;
  switch (node.type) {
    case "identifier":
    case "type_identifier":
      name = node.text;
      break;
    case "attribute":
      name = node.childForFieldName("attribute")?.text;
      break;
    case "string":
      // A Python forward reference: `msg: "Message"`.
      name = /^["']([\w.]+)["']$/.exec(node.text)?.[1]?.split(".").at(-1);
      break;
    case "member_expression":
      name = node.childForFieldName("property")?.text;
      break;
    case "type_annotation":
    case "type":
      // The whole annotation, looking through optionality and unions (`hash: Optional[str] = None` names
      // no class, `Optional` least of all; `x: Foo | undefined` names Foo).
      return classOfAnnotation(node.text.replace(/^:\s*/, ""));
    case "nested_type_identifier":
    case "generic_type":
      return classNamed(node.namedChild(node.type === "nested_type_identifier" ? node.namedChildCount - 1 : 0));
    default:
      return undefined;
  }
  return name !== undefined && CLASS_NAME.test(name) ? name : undefined;
}

/**
 * The class an expression constructs: `Foo(…)` (Python), `new Foo(…)`, `await new Foo(…)`, and the one class
 * the branches of a choice construct — a default built when none is given (`session or Session()`,
 * `opts.client ?? new Client()`, `get_console() if file is None else Console(file=file)`): the other
 * branch is, by the habit, an object of the same class; undefined for anything else.
 */
export function constructed(node: Node | null, lang: ReceiverLanguage): string | undefined {
  if (!node) return undefined;
  if (node.type === "parenthesized_expression" || node.type === "await" || node.type === "await_expression") return constructed(node.namedChild(0), lang);
  const branches = choiceBranches(node);
  if (branches) {
    const classes = new Set(branches.map((branch) => constructed(branch, lang)).filter((cls) => cls !== undefined));
    return classes.size === 1 ? [...classes][0] : undefined;
  }
  if (node.type === "new_expression") return classNamed(node.childForFieldName("constructor"));
  if (node.type === "call" && lang === "python") return classNamed(node.childForFieldName("function"));
  return undefined;
}

/** The values an expression chooses between (`a or b`, `a if c else b`, `a ?? b`, `a || b`, `c ? a : b`), or null when it is no choice. */
function choiceBranches(node: Node): (Node | null)[] | null {
  switch (node.type) {
    case "conditional_expression":
      return [node.namedChild(0), node.namedChild(2)];
    case "ternary_expression":
      return [node.childForFieldName("consequence"), node.childForFieldName("alternative")];
    case "boolean_operator":
    case "binary_expression": {
      const operator = node.childForFieldName("operator")?.text;
      return operator === "or" || operator === "??" || operator === "||" ? [node.childForFieldName("left"), node.childForFieldName("right")] : null;
    }
    default:
      return null;
  }
}

/** Marks a receiver that is what a function returns (`=self.make_signer`), not a class. */
export const RETURNED = "=";

/**
 * The function whose result an expression is, marked: a call of a plain name or of the caller's own method
 * (`make_conn(…)`, `self.get_signing_serializer(app)`, `await this.build()`), which the scope can resolve;
 * undefined for anything else.
 */
export function returnedBy(node: Node | null, lang: ReceiverLanguage): string | undefined {
  if (!node) return undefined;
  if (node.type === "parenthesized_expression" || node.type === "await" || node.type === "await_expression") return returnedBy(node.namedChild(0), lang);
  if (node.type !== (lang === "python" ? "call" : "call_expression")) return undefined;
  const fn = node.childForFieldName("function");
  if (!fn || fn.text === "super" || (fn.type !== "identifier" && ownField(fn, lang) === undefined)) return undefined;
  return `${RETURNED}${fn.text}`;
}

/** An object's class as the code gives it: constructed, or returned by a function the scope can resolve. */
export function valueClass(node: Node | null, lang: ReceiverLanguage): string | undefined {
  return constructed(node, lang) ?? returnedBy(node, lang);
}

/** A receiver found here, as the call record keeps it: a class, or the function returning the object. */
export function receiverFields(receiver: string | undefined): { receiver_class?: string; receiver_call?: string; receiver_classes?: string[] } {
  if (!receiver) return {};
  if (receiver.startsWith(RETURNED)) return { receiver_call: receiver.slice(RETURNED.length) };
  return receiver.includes(ALTERNATIVE) ? { receiver_classes: receiver.split(ALTERNATIVE) } : { receiver_class: receiver };
}

/**
 * The class a function's annotation names (`-> URLSafeTimedSerializer | None`, `Optional["Foo"]`,
 * `: Promise<Foo>`, `t.Optional[Foo]`), or the one class every `return` of its body constructs when it has
 * none; undefined when it names none or several.
 */
export function returnedClass(fn: Node, lang: ReceiverLanguage): string | undefined {
  const annotation = fn.childForFieldName("return_type");
  if (annotation) return classOfAnnotation(annotation.text.replace(/^:\s*/, ""));
  const classes = new Set<string | undefined>();
  const visit = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (!child || FUNCTION_TYPES[lang].has(child.type) || CLASS_TYPES[lang].has(child.type)) continue;
      if (child.type === "return_statement") classes.add(constructed(child.namedChild(0), lang));
      else visit(child);
    }
  };
  const body = fn.childForFieldName("body");
  if (body) visit(body);
  const [only] = classes;
  return classes.size === 1 ? only : undefined;
}

export const CLASS_TYPES: Readonly<Record<ReceiverLanguage, ReadonlySet<string>>> = {
  python: new Set(["class_definition"]),
  ts: new Set(["class_declaration", "class", "abstract_class_declaration"]),
};

/** Joins the classes a field is given in several places (`self._pool = AsyncConnectionPool(…)` or `= AsyncHTTPProxy(…)`). */
export const ALTERNATIVE = "|";

/** `x` of `self.x` (Python) or `this.x` (TS/JS); undefined for any other expression. */
export function ownField(node: Node, lang: ReceiverLanguage): string | undefined {
  const self = lang === "python" ? node.type === "attribute" && node.childForFieldName("object")?.text === "self" : node.type === "member_expression" && node.childForFieldName("object")?.type === "this";
  if (!self) return undefined;
  return node.childForFieldName(lang === "python" ? "attribute" : "property")?.text;
}
