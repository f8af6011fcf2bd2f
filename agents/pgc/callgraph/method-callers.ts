// Whether a call of a method's name (a `callers` request's candidate) is a call of that class's method:
// for "who calls Retry.from_int?", only calls the scope shows are that class's count; for a climb asking by
// name, every call that may be it counts, and only those shown to be another class's do not.
import { splitIdentifier } from "../retrieval/index.js";
import type { CallGraph, CallerOf, GraphNode } from "./call-graph.js";
import { MIN_RECEIVER_WORD, NO_BARE_METHODS } from "./resolve-callee.js";

/** The class and those it derives from or that derive from it, by their last names. */
export function familyOf(graph: Pick<CallGraph, "subclassesOf" | "superclassesOf">, owner: string): Set<string> {
  return new Set([owner, ...graph.subclassesOf(owner), ...graph.superclassesOf(owner)]);
}

/** The last name of a node's class or container (`CodeGenerator` of `jinja2.compiler.CodeGenerator`), "" for none. */
export function containerOf(node: GraphNode): string {
  return node.container?.split(/::|\./).at(-1) ?? "";
}

/** The last part of a call's receiver as written (`environment` of `self.environment.parse`), if it has one. */
function receiverOf(callee: string): string | undefined {
  return /^(.*?)(?:\.|->|::)#?[A-Za-z_$][\w$]*$/.exec(callee.replace(/\?\./g, "."))?.[1]?.split(/\.|->|::/).at(-1);
}

/** The receiver that is the calling method's own object. */
const SELF = /^(?:this|self)$/;

/**
 * Whether a call of a method's name calls it as `owner`'s (`Retry.from_int` asked as the callers of
 * `Retry.from_int`): it resolved here to a method of that class or one related to it, it leaves the
 * scope through an object of such a class, its receiver names the class (`Retry.from_int(…)`,
 * `self.environment.parse(…)` for `Environment`), or it is made on the caller's own object (`this`,
 * `self`) in a class related to it. A call through an object of unknown class is not
 * counted: `options.parse(…)` is any class's `parse`.
 */
export function callsMethodOf(graph: Pick<CallGraph, "subclassesOf" | "superclassesOf">, call: CallerOf, owner: string): boolean {
  const family = familyOf(graph, owner);
  if (call.to) return family.has(containerOf(call.to));
  if (call.receiver_class) return family.has(call.receiver_class);
  const receiver = receiverOf(call.callee)?.replace(/^_+/, "");
  if (!receiver) return false;
  if (receiver === owner) return true;
  // `this.scheduleGc()` in a class deriving from `owner` (`Mutation extends Removable`) calls the method it inherits.
  if (SELF.test(receiver)) return family.has(containerOf(call.node));
  return receiver.length >= MIN_RECEIVER_WORD && splitIdentifier(owner).some((word) => word.toLowerCase() === receiver.toLowerCase());
}

/**
 * Whether a call of a method's name is shown to call another class's (`PIL.Image.open(…)` is no call of
 * `Table.open`): it resolved here to a function or to a method of an unrelated class, it leaves the scope
 * through an object of such a class, its receiver is a capitalised name (a class or module) other than
 * `owner`, or it has no receiver in Python or TS/JS (`bareIsFunction`; a "who calls" question writing the bare
 * name may mean a function of that name as well). A call through an object of unknown class (`table.open()`)
 * may be `owner`'s.
 */
export function callsOtherThan(graph: Pick<CallGraph, "subclassesOf" | "superclassesOf">, call: CallerOf, owner: string, bareIsFunction = true): boolean {
  const family = familyOf(graph, owner);
  if (call.to) return !family.has(containerOf(call.to));
  if (call.receiver_class) return !family.has(call.receiver_class);
  const receiver = receiverOf(call.callee);
  // A bare call (`resolve(request.path)`) in Python or TS/JS calls a function, never a method, which only an
  // object reaches (PGC.md, call rule 1); C++ and Java call their own class's methods bare.
  if (receiver === undefined) return bareIsFunction && NO_BARE_METHODS.test(call.node.file_path) && !call.field;
  return /^[A-Z]/.test(receiver) && !family.has(receiver);
}

/**
 * Whether a caller is the method's own variant in a class deriving from `owner`: an override extending its
 * base's implementation (`ProfilingRegexLexer.get_tokens_unprocessed` calling
 * `RegexLexer.get_tokens_unprocessed(self, …)`, `super().m()`). It runs instead of the method, not before it:
 * a chain's climb to where its path begins skips it ("who calls" still lists it).
 */
export function extendsMethod(graph: Pick<CallGraph, "superclassesOf">, caller: GraphNode, name: string, owner: string): boolean {
  return caller.name === name && graph.superclassesOf(containerOf(caller)).has(owner);
}
