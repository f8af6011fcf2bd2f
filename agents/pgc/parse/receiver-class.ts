// The class of the object a method call goes through, when the calling function says it: the object is
// built right there (`Parser(policy).parsestr(text)`, `new Doc().compile()`), or it is a local variable or
// parameter the function assigns from a constructor or declares with a class type (`g =
// BytesGenerator(fp)`, `const doc = new Doc(args)`, `def send(self, msg: Message)`, `sink: Subscriber<T>`),
// or a field of the caller's own object its class gives one class (`self.parser = FeedParser()` anywhere
// in the class, then `self.parser.feed(…)`; `private doc = new Doc()`, then `this.doc.compile()`).
// Python, TypeScript and JavaScript; the call graph resolves `g.flatten()` to that class's `flatten`.
import type { Node } from "web-tree-sitter";
import { ALTERNATIVE, CLASS_TYPES, classNamed, constructed, FUNCTION_TYPES, ownField, RETURNED, returnedBy, valueClass, type ReceiverLanguage, type ReceiverMemo } from "./value-class.js";

export { FUNCTION_TYPES, receiverFields, returnedClass, type ReceiverLanguage, type ReceiverMemo } from "./value-class.js";

function enclosingFunction(node: Node, lang: ReceiverLanguage): Node | null {
  for (let at = node.parent; at; at = at.parent) if (FUNCTION_TYPES[lang].has(at.type)) return at;
  return null;
}

/** Adds `name → cls`; a name given two different classes is ambiguous and maps to "" (no class). */
function note(out: Map<string, string>, name: string | undefined, cls: string | undefined): void {
  if (!name || !cls) return;
  const known = out.get(name);
  out.set(name, known === undefined || known === cls ? cls : "");
}

/**
 * Like `note`, for a field of a class: every class it is given, in source order, joined by ALTERNATIVE; the
 * call graph tells which one a call through it means (call-graph.ts, oneReceiverClass). A field that is also
 * given what a function returns is not known.
 */
function noteField(out: Map<string, string>, name: string | undefined, cls: string | undefined): void {
  if (!name || !cls) return;
  const known = out.get(name);
  if (known === undefined) return void out.set(name, cls);
  if (known === "" || known === cls) return;
  if (cls.startsWith(RETURNED) || known.startsWith(RETURNED)) return void out.set(name, "");
  const classes = known.split(ALTERNATIVE);
  if (!classes.includes(cls)) out.set(name, [...classes, cls].join(ALTERNATIVE));
}

/** Like `note`, but a name the code gives no known class still becomes a local ("", no class): it hides a module's variable of that name. */
function noteLocal(out: Map<string, string>, name: string | undefined, cls: string | undefined): void {
  if (!name) return;
  if (cls) note(out, name, cls);
  else out.set(name, "");
}

/**
 * The function's parameters and variables → the one class each is given ("" when none is known: it is a
 * local all the same, and no module-level variable of the name is meant).
 */
function classesIn(fn: Node, lang: ReceiverLanguage): Map<string, string> {
  const out = new Map<string, string>();
  const parameters = fn.childForFieldName("parameters");
  // A name declared with a class (`connector: Optional[BaseConnector] = None`, `let doc: Doc`) is of that
  // class whatever it is later assigned (`connector = TCPConnector(…)`, a subclass): the declaration is the
  // contract, and a value of another class would break it.
  const declared = new Set<string>();
  const declare = (name: string | undefined, cls: string | undefined) => {
    noteLocal(out, name, cls);
    if (name && cls) declared.add(name);
  };
  if (lang === "python") {
    for (const param of parameters?.namedChildren ?? []) {
      if (param?.type === "typed_parameter" || param?.type === "typed_default_parameter") {
        const name = param.type === "typed_parameter" ? param.namedChild(0)?.text : param.childForFieldName("name")?.text;
        declare(name, classNamed(param.childForFieldName("type")));
      } else if (param?.type === "identifier") noteLocal(out, param.text, undefined);
      else if (param?.type === "default_parameter") noteLocal(out, param.childForFieldName("name")?.text, undefined);
    }
    // `sock = None` before `sock = socket(af, socktype, proto)` (socket.create_connection) gives no class of
    // its own: the name is a local, of the class its other assignments give.
    const noneOnly = new Set<string>();
    for (const assignment of fn.descendantsOfType("assignment")) {
      const left = assignment?.childForFieldName("left");
      if (left?.type !== "identifier" || declared.has(left.text)) continue;
      const right = assignment?.childForFieldName("right") ?? null;
      if (right?.type === "none") {
        if (!out.has(left.text)) {
          out.set(left.text, "");
          noneOnly.add(left.text);
        }
        continue;
      }
      if (noneOnly.delete(left.text)) out.delete(left.text);
      noteLocal(out, left.text, valueClass(right, lang));
    }
    // `with sessions.Session() as session:` binds what the context manager's `__enter__` returns, which for a
    // class built right there is, by the common habit, the object itself.
    for (const bound of fn.descendantsOfType("as_pattern")) {
      if (bound?.parent?.type !== "with_item") continue;
      const alias = bound.childForFieldName("alias")?.namedChild(0);
      if (alias?.type === "identifier" && !declared.has(alias.text)) noteLocal(out, alias.text, valueClass(bound.namedChild(0), lang));
    }
    return out;
  }
  for (const param of parameters?.namedChildren ?? []) {
    if (param?.type === "required_parameter" || param?.type === "optional_parameter") {
      const pattern = param.childForFieldName("pattern");
      if (pattern?.type === "identifier") declare(pattern.text, classNamed(param.childForFieldName("type")));
    } else if (param?.type === "identifier") noteLocal(out, param.text, undefined);
  }
  for (const declarator of fn.descendantsOfType("variable_declarator")) {
    const name = declarator?.childForFieldName("name");
    if (name?.type !== "identifier") continue;
    const value = declarator?.childForFieldName("value") ?? null;
    const type = classNamed(declarator?.childForFieldName("type") ?? null);
    noteLocal(out, name.text, constructed(value, lang) ?? type ?? returnedBy(value, lang));
    if (type) declared.add(name.text);
  }
  for (const assignment of fn.descendantsOfType("assignment_expression")) {
    const left = assignment?.childForFieldName("left");
    if (left?.type === "identifier" && !declared.has(left.text)) noteLocal(out, left.text, valueClass(assignment?.childForFieldName("right") ?? null, lang));
  }
  return out;
}

/**
 * The file's module-level variables → the one class each is built as (`_default_encoder =
 * JSONEncoder(…)`, `export const client = new Client()`), for the functions of the file that use them.
 */
function moduleClassesIn(root: Node, lang: ReceiverLanguage): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of root.namedChildren) {
    if (!statement) continue;
    if (lang === "python") {
      const assignment = statement.type === "expression_statement" ? statement.namedChild(0) : null;
      const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
      if (left?.type === "identifier") noteLocal(out, left.text, constructed(assignment?.childForFieldName("right") ?? null, lang));
      continue;
    }
    const declaration = statement.type === "export_statement" ? statement.childForFieldName("declaration") : statement;
    if (declaration?.type !== "lexical_declaration" && declaration?.type !== "variable_declaration") continue;
    for (const declarator of declaration.namedChildren) {
      const name = declarator?.type === "variable_declarator" ? declarator.childForFieldName("name") : null;
      if (name?.type === "identifier") noteLocal(out, name.text, constructed(declarator?.childForFieldName("value") ?? null, lang) ?? classNamed(declarator?.childForFieldName("type") ?? null));
    }
  }
  return out;
}


function enclosingClass(node: Node, lang: ReceiverLanguage): Node | null {
  for (let at = node.parent; at; at = at.parent) if (CLASS_TYPES[lang].has(at.type)) return at;
  return null;
}

/** Where a class's held fields sit in the memo (its fields' classes sit at -1 - its start). */
const HELD_FIELDS = -(2 ** 40);

/**
 * Whether `fn` (`self.convert` of `self.convert(value)`, `this.callback` of `this.callback(event)`) names a
 * value the object holds rather than a method: its class assigns `self.convert = …` / `this.callback = …`
 * somewhere (a callback it was given, a function chosen at run time: Pygments' `KeywordCaseFilter` sets
 * `self.convert = getattr(str, case)`). A TS/JS function written there (`this.m = () => …`) is a method of
 * the class (ts-member-functions.ts), not a held value.
 */
export function heldField(fn: Node, lang: ReceiverLanguage, memo: ReceiverMemo): boolean {
  const field = ownField(fn, lang);
  const cls = field === undefined ? null : enclosingClass(fn, lang);
  if (!cls || field === undefined) return false;
  let held = memo.get(HELD_FIELDS - cls.startIndex);
  if (!held) memo.set(HELD_FIELDS - cls.startIndex, (held = heldFieldsIn(cls, lang)));
  return held.has(field);
}

function heldFieldsIn(cls: Node, lang: ReceiverLanguage): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const assignment of cls.descendantsOfType(lang === "python" ? "assignment" : "assignment_expression")) {
    const left = assignment?.childForFieldName("left");
    const field = left ? ownField(left, lang) : undefined;
    const right = assignment?.childForFieldName("right");
    if (field !== undefined && !(lang === "ts" && right && FUNCTION_TYPES.ts.has(right.type))) out.set(field, "");
  }
  return out;
}

/** TS: a constructor parameter that is also a field (`constructor(private store: Store)`). */
function isParameterProperty(param: Node): boolean {
  return param.children.some((c) => c?.type === "accessibility_modifier" || c?.type === "readonly" || c?.type === "override_modifier");
}

/** The class of an assignment's right side: a constructor, or a variable or parameter the enclosing function gives a class (`this.#client = client` with `client: QueryClient`). */
function assignedClass(assignment: Node, lang: ReceiverLanguage, memo: ReceiverMemo): string | undefined {
  const right = assignment.childForFieldName("right");
  const built = valueClass(right, lang);
  if (built || right?.type !== "identifier") return built;
  const owner = enclosingFunction(assignment, lang);
  return owner ? classesOf(owner, lang, memo).get(right.text) || undefined : undefined;
}

/**
 * A class's fields → the one class each is given anywhere in the class: `self.sock = Socket(…)` (Python),
 * `this.doc = new Doc()` or a field declared `private doc = new Doc()` / `doc: Doc` / `#doc: Doc` (TS),
 * a field assigned a parameter of a class type (`this.#client = client`, `self.policy = policy`), a TS
 * constructor's parameter property (`constructor(private store: Store)`), a Python class-level or
 * annotated field (`policy: Policy`, `self.policy: Policy = …`). A field given several classes has them all
 * (noteField).
 */
function fieldClassesIn(cls: Node, lang: ReceiverLanguage, memo: ReceiverMemo): Map<string, string> {
  const out = new Map<string, string>();
  for (const assignment of cls.descendantsOfType(lang === "python" ? "assignment" : "assignment_expression")) {
    if (!assignment) continue;
    const left = assignment.childForFieldName("left");
    const field = left ? ownField(left, lang) : undefined;
    // A Python annotation names the class even where the value does not (`self.policy: Policy = policy or default`).
    if (field !== undefined) noteField(out, field, (lang === "python" ? classNamed(assignment.childForFieldName("type")) : undefined) ?? assignedClass(assignment, lang, memo));
    else if (lang === "python" && left?.type === "identifier" && assignment.parent?.parent?.parent?.id === cls.id) note(out, left.text, classNamed(assignment.childForFieldName("type")));
  }
  if (lang === "ts") {
    for (const declaration of cls.descendantsOfType("public_field_definition")) {
      const name = declaration?.childForFieldName("name");
      if (name?.type !== "property_identifier" && name?.type !== "private_property_identifier") continue;
      noteField(out, name.text, constructed(declaration?.childForFieldName("value") ?? null, lang) ?? classNamed(declaration?.childForFieldName("type") ?? null));
    }
    for (const method of cls.descendantsOfType("method_definition")) {
      if (method?.childForFieldName("name")?.text !== "constructor") continue;
      for (const param of method.childForFieldName("parameters")?.namedChildren ?? []) {
        if (!param || !isParameterProperty(param)) continue;
        const pattern = param.childForFieldName("pattern");
        if (pattern?.type === "identifier") noteField(out, pattern.text, classNamed(param.childForFieldName("type")));
      }
    }
  }
  return out;
}

function classesOf(fn: Node, lang: ReceiverLanguage, memo: ReceiverMemo): ReadonlyMap<string, string> {
  let classes = memo.get(fn.startIndex);
  if (!classes) memo.set(fn.startIndex, (classes = classesIn(fn, lang)));
  return classes;
}

/**
 * The class of the object the call `fn(…)` goes through, where `fn` is the call's function node (`g.flatten`,
 * `Parser(p).parsestr`); undefined when the call is not through an object or its class is not known here.
 */
export function receiverClass(fn: Node, lang: ReceiverLanguage, memo: ReceiverMemo): string | undefined {
  const object = fn.type === "attribute" || fn.type === "member_expression" ? fn.childForFieldName("object") : null;
  if (!object) return undefined;
  const built = valueClass(object, lang);
  if (built) return built;
  const field = ownField(object, lang);
  if (field !== undefined) {
    const cls = enclosingClass(fn, lang);
    if (!cls) return undefined;
    let fields = memo.get(-1 - cls.startIndex);
    if (!fields) memo.set(-1 - cls.startIndex, (fields = fieldClassesIn(cls, lang, memo)));
    return fields.get(field) || undefined;
  }
  if (object.type !== "identifier") return undefined;
  const owner = enclosingFunction(fn, lang);
  const local = owner ? classesOf(owner, lang, memo).get(object.text) : undefined;
  if (local !== undefined) return local || undefined;
  // Not a local: a variable of the module, if the file builds it at module level.
  let module = memo.get(MODULE_KEY);
  if (!module) memo.set(MODULE_KEY, (module = moduleClassesIn(fn.tree.rootNode, lang)));
  return module.get(object.text) || undefined;
}

/** The memo's key for the file's module-level variables (functions are keyed by offset, classes by −1 − offset). */
const MODULE_KEY = Number.MIN_SAFE_INTEGER;
