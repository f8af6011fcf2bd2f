// Which node of the scope a call site calls. The rules, in order (docs/PGC.md, "The call graph"):
//  0. A name imported from a file of the scope (`import { f } from "./util.js"`, `import * as m from
//     "./m.js"; m.f()`, Python `from .util import f`): its module-level definition in that file, if any.
//  1. A plain name (`f()`, `new Foo()`, `Foo()`): the definitions of that name in the caller's file,
//     else in the scope — in Python and TS/JS not a method, which only an object reaches (`dict(x)` is no
//     `InstanceState.dict`). A class stands for its constructor (`__init__`, `constructor`) when it has one.
//     (A Python stand-in for an optional import, `except ImportError: def x(…)`, never gets here when the
//     import leaves the scope: the call is that import's exit, cross-scope-calls.ts.)
//  2. Through the caller's own object (`self.m()`, `this.m()`, `cls.m()`): the method `m` of the
//     caller's class, else of the classes it derives from, else of its file, else the scope's methods
//     named `m`; and the overrides of `m` in
//     the scope's classes deriving from the caller's. When the caller's class does not define `m`, the
//     call is also a member exit (a subclass in another scope may). Through its parent
//     (`super().m()`, `super.m()`): a method `m` of another class of the scope (at most two), else an
//     exit naming the parent class, as the parent is then another scope's.
//  3. Through an object whose class the caller says (`g = BytesGenerator(fp); g.flatten()`, `new Doc().compile()`,
//     a parameter typed `msg: Message`): that class's method `m`, or its bases'; none in the scope makes it
//     a member exit naming the class.
//  4. Through anything else (`obj.m()`, `mod.f()`, C++ `a->f()`, `ns::f()`): the definitions of `m`
//     inside a class or object (module-level, or one a function returns: PGC.md) named like the receiver's
//     last part (`intervalProvider.m`);
//     a capitalised receiver of one name (`Object.create`, `JSON.parse`, `Foo.build`) is a class, namespace
//     or constant, so nothing else: none in the scope makes it a member exit naming it as the class;
//     else inside at most two classes a word of whose name the receiver is (`opener.open()` → `OpenerDirector.open`),
//     else the scope's definitions of `m`, when there are at most MAX_MEMBER_TARGETS of them (more is a common name — `get`, `close` —
//     and the receiver's type is unknown: no guess is made); none in the scope makes it a member exit. A
//     name the language's own values have (`get`, `pop`, `encode`, `push`: builtin-methods.ts) is neither
//     guessed nor an exit: the object is as likely a dict, a Map or a string. Nor is any method of a value
//     the language builds, a literal or a built-in type's result (`str(x).translate(…)`, `Object.keys(o).map(…)`).
//  (C calls through a struct field, `ops->f()`, are linked before these rules: call-graph.ts, fieldCalled.)
// Not resolved: calls through function pointers or callbacks held in variables, dispatch through an
// object of unknown class (`obj.m()` with many `m`), decorators, and names built at run time (getattr,
// computed keys).
import { splitIdentifier } from "../retrieval/index.js";
import { isBuiltinMethod, isBuiltinValue } from "./builtin-methods.js";
import type { GraphNode } from "./call-graph.js";

export interface CalleeIndex {
  named(name: string): readonly GraphNode[];
  /** The scope's classes deriving from a class, directly or not, by their last names (empty when none). */
  subclassesOf?(className: string): ReadonlySet<string>;
  /** The scope's classes a class derives from, directly or not, by their last names (empty when none). */
  superclassesOf?(className: string): ReadonlySet<string>;
  /** The bases a class names in its declaration, by their last names (empty when none). */
  basesOf?(className: string): readonly string[];
  /** The scope's classes and typed objects declared to implement a type, and their subclasses, by last names. */
  implementationsOf?(type: string): ReadonlySet<string>;
}

export type ResolvedCallee =
  /** `exit`: the call may also reach another scope's definition of the name (an override in a subclass there). */
  | { kind: "local"; nodes: readonly GraphNode[]; exit?: string }
  /** A member call whose name the scope does not define: it may be another scope's method (of `receiverClass`, when known). */
  | { kind: "member"; name: string; receiverClass?: string; callerClass?: string }
  /**
   * A method call through an object of unknown class whose name several of the scope's classes define: it may
   * be any of theirs or another scope's. Followed by no search (too many places); a caller all the same.
   */
  | { kind: "loose"; name: string }
  | { kind: "none" };

/** Member calls resolve inside the scope only to this many same-named definitions. */
export const MAX_MEMBER_TARGETS = 2;

const NONE: ReadonlySet<string> = new Set();

/** A receiver this short (`p`, `m`, `obj`) names no class. */
export const MIN_RECEIVER_WORD = 4;

function lastName(container: string | undefined): string | undefined {
  return container?.split(/::|\./).at(-1);
}

const SELF_RECEIVER = /^(self|this|cls)$/;
/** `super().m()` (Python), `super.m()` (TS/JS): the parent's `m`, never the caller's own. */
const SUPER_RECEIVER = /^super(\(\))?$/;
const CONSTRUCTORS = new Set(["__init__", "constructor"]);
/** A name, or a TS/JS private member's (`#newResponse`, called `this.#newResponse(…)`). */
const NAME = /^#?[A-Za-z_$][\w$]*$/;
const CAPITALISED = /^[A-Z][\w$]*$/;
const PYTHON_FILE = /\.pyi?$/;
/** Languages whose methods are called only through an object. */
export const NO_BARE_METHODS = /\.(?:pyi?|[cm]?[jt]sx?)$/;
const JS_FILE = /\.[cm]?[jt]sx?$/;

/**
 * TS/JS: the class a call leaving the scope through an imported name is made on (`NoOutputGeneratedError` of
 * `NoOutputGeneratedError.isInstance(error)` after `import { NoOutputGeneratedError } from "../error"`): a
 * capitalised name is a class, whose own method the module's scope is asked for, not any of its classes' of
 * that name. A capitalised namespace (`Effect.gen(…)`) names no class there, and the method is found by its
 * module as before.
 */
export function importedClassOf(callee: string, file: string): { receiver_class?: string } {
  const dot = callee.indexOf(".");
  const head = callee.slice(0, dot);
  return dot > 0 && dot === callee.lastIndexOf(".") && CAPITALISED.test(head) && JS_FILE.test(file) ? { receiver_class: head } : {};
}

/**
 * A method the object's class does not define here: when the scope defines that class, the method comes
 * from a base the scope does not define (`class PipSession(requests.Session)` and `session.get(…)`), and the
 * exit names that base, so that the manager looks for it where the base is defined, or nowhere when no scope
 * defines it; a class of the scope with no such base has no such method (none). A class the scope does not
 * define is named as it is.
 */
function inheritedFrom(name: string, receiverClass: string, family: ReadonlySet<string>, index: CalleeIndex): ResolvedCallee {
  const isClassHere = (cls: string) => definesClass(index, cls);
  if (!isClassHere(receiverClass)) return { kind: "member", name, receiverClass };
  for (const cls of family) {
    const outside = (index.basesOf?.(cls) ?? []).find((base) => !isClassHere(base));
    if (outside !== undefined) return { kind: "member", name, receiverClass: outside };
  }
  return { kind: "none" };
}

function split(callee: string): { receiver: string | null; name: string } {
  const text = callee.replace(/^new\s+/, "").replace(/\?\./g, ".").replace(/!/g, "");
  const match = /^(.*?)(?:\.|->|::)(#?[A-Za-z_$][\w$]*)$/.exec(text);
  if (match) return { receiver: match[1] ?? "", name: match[2] ?? "" };
  return { receiver: null, name: text };
}

/** A class stands for its constructor when the scope defines one inside it. */
function throughConstructor(nodes: readonly GraphNode[], index: CalleeIndex): GraphNode[] {
  return nodes.map((node) => {
    if (node.kind !== "class") return node;
    const ctor = [...CONSTRUCTORS].flatMap((name) => index.named(name)).find((c) => c.container?.split(/::|\./).at(-1) === node.name && c.file_path === node.file_path);
    return ctor ?? node;
  });
}

function preferFile(nodes: readonly GraphNode[], file: string): readonly GraphNode[] {
  const local = nodes.filter((n) => n.file_path === file);
  return local.length > 0 ? local : nodes;
}

/**
 * The definitions whose class the receiver is named after: the receiver's words run together in the class's
 * name (`opener` in `OpenerDirector`, `state_machine` in `RSTStateMachine`); when a class's name is those
 * words exactly (`state_machine`, `StateMachine`), only such classes. A receiver under MIN_RECEIVER_WORD
 * letters names none.
 */
export function namedAfterReceiver(receiver: string, nodes: readonly GraphNode[]): GraphNode[] {
  const words = splitIdentifier(receiver.replace(/^_+/, "")).map((w) => w.toLowerCase());
  if (words.join("").length < MIN_RECEIVER_WORD) return [];
  const classWords = (n: GraphNode) => splitIdentifier(lastName(n.container) ?? "").map((w) => w.toLowerCase());
  const runs = nodes.filter((n) => n.container !== undefined && holdsRun(classWords(n), words));
  const exact = runs.filter((n) => classWords(n).length === words.length);
  return exact.length > 0 ? exact : runs;
}

/** Besides the scope's guess, a member exit for a method of two words or more called through an object of unknown class. */
function unknownObjectExit(name: string): { exit?: string } {
  return splitIdentifier(name).length > 1 ? { exit: name } : {};
}

/** Whether every one of `nodes` (namedAfterReceiver's) has a class named by the receiver's words and no others. */
function namedExactly(receiver: string, nodes: readonly GraphNode[]): boolean {
  const words = splitIdentifier(receiver.replace(/^_+/, "")).length;
  return nodes.every((n) => splitIdentifier(lastName(n.container) ?? "").length === words);
}

/** Whether `words` occur in `within`, in order and next to each other. */
function holdsRun(within: readonly string[], words: readonly string[]): boolean {
  for (let at = 0; at + words.length <= within.length; at++) if (words.every((w, i) => within[at + i] === w)) return true;
  return false;
}

export function resolveCallee(callee: string, caller: GraphNode, index: CalleeIndex, receiverClass?: string, moduleFile?: string, held = false): ResolvedCallee {
  const { receiver, name } = split(callee);
  if (!NAME.test(name)) return { kind: "none" };
  const defined = index.named(name);
  if (moduleFile !== undefined) {
    // Imported from a file of the scope (`parse.parse(…)` after `import * as parse from "./parse.js"`): its definition there.
    const inModule = defined.filter((n) => n.file_path === moduleFile && n.container === undefined && !n.nested);
    if (inModule.length > 0) return { kind: "local", nodes: throughConstructor(inModule, index) };
  }
  if (receiverClass && receiver !== null) {
    // The caller says what the object is (`g = BytesGenerator(fp); g.flatten()`): that class's method, or an
    // inherited one; none in the scope makes it an exit to that class's method elsewhere.
    const classes = new Set([receiverClass, ...(index.superclassesOf?.(receiverClass) ?? [])]);
    const methods = defined.filter((n) => classes.has(lastName(n.container) ?? ""));
    const abstract = methods.length > 0 && methods.every((n) => n.abstract);
    if (methods.length > 0 && !abstract) return { kind: "local", nodes: methods };
    // The class has nothing of `m` to run — an interface or type alias (`handler.parse(…)` where
    // `getContentTypeHandler` returns a `ContentTypeHandler`, and `const jsonContentTypeHandler:
    // ContentTypeHandler = { parse() {…} }`), or an abstract method (TS `abstract flush()`, which is no node;
    // Python's `raise NotImplementedError`): the scope's implementations and subclasses define what runs.
    // Subclasses only of a class the scope defines: one from elsewhere may have the method itself (a
    // `t.Dict` is the built-in dict, whose `get` is no `TypeConversionDict.get` of a stub's `Dict[K, V]`).
    const subclasses = index.named(receiverClass).some((n) => n.kind === "class") ? (index.subclassesOf?.(receiverClass) ?? NONE) : NONE;
    const implementations = new Set([...(index.implementationsOf?.(receiverClass) ?? NONE), ...subclasses]);
    const implemented = defined.filter((n) => implementations.has(lastName(n.container) ?? "") && !n.abstract);
    // An abstract method's override may be another scope's subclass's, as for `self.m()`.
    if (abstract) return { kind: "local", nodes: [...methods, ...implemented], exit: name };
    if (implemented.length > 0) return { kind: "local", nodes: implemented };
    return inheritedFrom(name, receiverClass, classes, index);
  }
  if (receiver === null) {
    // Python and TS/JS reach a method only through an object (`self.m()`, `this.m()`): a plain `dict(x)` is
    // never `InstanceState.dict`. (C++ and Java call their own class's methods bare.)
    const reached = NO_BARE_METHODS.test(caller.file_path) ? defined.filter((n) => !(n.kind === "method" && n.container !== undefined)) : defined;
    // C: a stand-in for a configuration option that is off only where nothing else of the name is here.
    const real = reached.filter((n) => !n.config_stub);
    const callable = real.length > 0 ? real : reached;
    if (callable.length === 0) return { kind: "none" };
    return { kind: "local", nodes: throughConstructor(preferFile(callable, caller.file_path), index) };
  }
  if (SUPER_RECEIVER.test(receiver)) {
    const inherited = defined.filter((n) => (n.kind === "method" || n.kind === "function") && n.container !== caller.container);
    // The parent is another scope's: the exit names it (`super.flush()` in a `TestScheduler extends VirtualTimeScheduler`).
    const base = index.basesOf?.(lastName(caller.container) ?? "")[0];
    if (inherited.length === 0) return { kind: "member", name, ...(base ? { receiverClass: base } : {}) };
    return inherited.length <= MAX_MEMBER_TARGETS ? { kind: "local", nodes: inherited } : { kind: "none" };
  }
  if (SELF_RECEIVER.test(receiver)) {
    // Only what belongs to a class or object: `self.emit(…)` never calls a module-level `emit`.
    const methods = defined.filter((n) => (n.kind === "method" || n.kind === "function") && n.container !== undefined);
    const own = lastName(caller.container);
    // The object may be of any class deriving from the caller's: their overrides are callees too.
    const derived = own ? (index.subclassesOf?.(own) ?? NONE) : NONE;
    const overrides = methods.filter((n) => derived.has(lastName(n.container) ?? ""));
    const sameClass = methods.filter((n) => n.container !== undefined && n.container === caller.container);
    // A value the object holds (`self.convert = getattr(str, case)`, a callback it was given): the class's own
    // family's method of that name if it has one, else nothing the graph can name — no other scope's method of
    // the name, as the inherited case below would guess (Pygments' `self.convert(value)` was Markdown's `convert`).
    const bases = own ? (index.superclassesOf?.(own) ?? NONE) : NONE;
    const fromBases = methods.filter((n) => bases.has(lastName(n.container) ?? ""));
    if (held) {
      const family = [...sameClass, ...overrides, ...fromBases];
      return family.length > 0 ? { kind: "local", nodes: family } : { kind: "none" };
    }
    // The class's own method may have nothing to run (`raise NotImplementedError`): the subclass that
    // implements it may be another scope's, so the call is an exit as well.
    if (sameClass.length > 0) return { kind: "local", nodes: [...sameClass, ...overrides], ...(sameClass.every((n) => n.abstract) ? { exit: name } : {}) };
    // Inherited: the class does not define `m`, so another scope's subclass may (an abstract base's
    // `self.sock_connect()` runs a selector loop's): the call is an exit as well.
    const sameFile = methods.filter((n) => n.file_path === caller.file_path && !overrides.includes(n));
    const inherited = fromBases.length > 0 ? fromBases : sameFile.length > 0 ? sameFile : methods.length <= MAX_MEMBER_TARGETS ? methods.filter((n) => !overrides.includes(n)) : [];
    const nodes = [...inherited, ...overrides];
    if (nodes.length > 0) return { kind: "local", nodes, exit: name };
    // None here at all: a class deriving from the caller's, in another scope, defines it (a mixin's method).
    return methods.length === 0 ? { kind: "member", name, ...(own ? { callerClass: own } : {}) } : { kind: "none" };
  }
  // Python: a function defined in another's body is no attribute of any object or module (`plugins.load(…)`
  // never calls a closure `load`); a TS/JS closure may be, in an object its builder returns (`{ useQuery }`).
  const reachable = PYTHON_FILE.test(caller.file_path) ? defined.filter((n) => !n.nested) : defined;
  // A method of a value the language builds (`str(self.data).translate(…)`, `", ".join(…)`) is the language's own.
  if (isBuiltinValue(receiver, caller.file_path)) return { kind: "none" };
  const owner = receiver.split(/\.|->|::/).at(-1);
  // A capitalised receiver of one name is a class, namespace or constant (`Object.create`, `JSON.parse`,
  // `Foo.build`), never an instance of unknown class: only that class's own `m` is meant.
  const named = CAPITALISED.test(receiver) ? receiver : undefined;
  // `x.get(…)`, `s.encode(…)`: as likely the language's own dict, Map or string as any class of the code.
  const builtin = !named && isBuiltinMethod(name, caller.file_path);
  if (reachable.length === 0) return builtin ? { kind: "none" } : { kind: "member", name, ...(named ? { receiverClass: named } : {}) };
  // A receiver that names the container (`intervalProvider.setInterval`, `Foo.create`, `ns::f`) says which.
  const contained = reachable.filter((n) => n.container !== undefined && n.container.split(/::|\./).at(-1) === owner);
  if (contained.length > 0) return { kind: "local", nodes: contained };
  if (named) return { kind: "member", name, receiverClass: named };
  // A variable named after its class (`opener.open()` for an `OpenerDirector`, `parser.feed()` for a `FeedParser`).
  const namedAfter = namedAfterReceiver(owner ?? "", reachable);
  // Named after a class exactly (`state_machine`, `StateMachine`), the object is that class's; after a class
  // holding its words among others (`schedule` in `ScheduleEntry`), it may as well be another scope's class
  // of the name (celery's `schedule`): the call is an exit too, as below.
  if (namedAfter.length > 0 && namedAfter.length <= MAX_MEMBER_TARGETS) return { kind: "local", nodes: namedAfter, ...(namedExactly(owner ?? "", namedAfter) ? {} : unknownObjectExit(name)) };
  if (builtin) return { kind: "none" };
  // Many classes here define it and the object's class is unknown (`directive_instance.run()`, where
  // `directive` is a parameter): it may be any class's method, here or in another scope.
  if (reachable.length > MAX_MEMBER_TARGETS) return { kind: "loose", name };
  // One or two here: the object may as well be of another scope's class defining the name (`self.schedule.is_due(…)`
  // in celery's beat, beside its own two `is_due`, runs a `crontab`'s): the call is an exit too, as `self.m()` of an
  // inherited method is, and the scopes defining the name see a caller in this one. Not for a name of one word:
  // `self.sock.connect(…)` is as likely a socket's as any class's (as an exit it sent smtplib's path into http's
  // `connect`), and the scope's facts count only longer names.
  return { kind: "local", nodes: throughConstructor(preferFile(reachable, caller.file_path), index), ...unknownObjectExit(name) };
}

/**
 * Of the classes a field is given in several places, the one a call through it means: the one the scope
 * defines; the first when it defines none (they are another scope's alternatives — httpx's
 * `self._pool`, an `AsyncConnectionPool` or one of its proxy subclasses, all httpcore's — and the manager
 * looks for the first where it is defined); none when it defines several.
 */
export function oneReceiverClass(classes: readonly string[] | undefined, index: CalleeIndex): string | undefined {
  if (!classes || classes.length === 0) return undefined;
  const here = classes.filter((cls) => definesClass(index, cls));
  return here.length === 1 ? here[0] : here.length === 0 ? classes[0] : undefined;
}

/** Whether the scope defines a class of this name. */
function definesClass(index: CalleeIndex, cls: string): boolean {
  return index.named(cls).some((n) => n.kind === "class");
}
