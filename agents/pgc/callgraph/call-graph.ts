// A scope's call graph at function level, built from the stored extraction: every function, method,
// function-like macro and class is a node; each call inside one is an edge to the node it resolves to
// in the scope (resolve-callee.ts), or an exit when it leaves the scope. Built once, on first use.
import type { CallSite, CodeSymbol, CrossScopeReference, FieldBinding, ImportEdge } from "../types.js";
import { dispatchPrefix, FieldBindings, fieldCalled, type BindingSite } from "./field-bindings.js";
import { FileNodes } from "./file-nodes.js";
import { Reexports, relativeModule, type AliasSite } from "./reexports.js";
import type { ScopeData } from "../store/open-pgc.js";
import { fieldTermsOf, withBoundNames } from "./node-terms.js";
import type { CallerOf, ExitEdge, GraphNode, LocalEdge } from "./graph-types.js";
import { importedClassOf, oneReceiverClass, resolveCallee, type CalleeIndex } from "./resolve-callee.js";
import { basesOf, ClassHierarchy, implementedBy } from "./class-bases.js";
import { addExitEdge, addLocalEdge } from "./edge-lists.js";
import { callsByTarget, classCallCounts, exitFanIn, exitKey, withUnknownMembers } from "./exit-counts.js";
import { indexCallers } from "./caller-index.js";
import { indexDefiners, nestings } from "./nesting.js";
import { lastName } from "../../protocol/index.js";
import { MAX_CLASS_BASES } from "../../protocol/search-limits.js";
import { languageForPath } from "../scan/index.js";

export { basesOf };
import { classOfAnnotation } from "../parse/annotation-class.js";
import { containerOf, familyOf } from "./method-callers.js";

export { dispatchPrefix, fieldCalled, type BindingSite };
export type { CallerOf, ExitEdge, GraphNode, LocalEdge } from "./graph-types.js";

/** Node kinds a chain can pass through: they have bodies that call things (a class, through its constructor). */
const NODE_KINDS = new Set(["function", "method", "macro", "class"]);
/** Where a function may be used as a value (CodeSymbol.address_taken): C and C++, as the C extractor reads them. */
const C_FAMILY: ReadonlySet<string> = new Set(["c", "cpp"]);

/**
 * A function, method, class or function-like macro; a module-level value whose initializer spans
 * several lines (`export const ZodString = core.$constructor("ZodString", (inst, def) => { … })`): the
 * calls in it are attributed to it, and in code built that way it is what a reader calls a class; and a
 * value that is another definition under a new name (CodeSymbol.alias_of), which calls it.
 */
function isNode(symbol: CodeSymbol): boolean {
  if (symbol.kind === "variable") return symbol.line_end > symbol.line_start || symbol.alias_of !== undefined;
  return NODE_KINDS.has(symbol.kind) && !(symbol.kind === "macro" && symbol.params === undefined);
}

export class CallGraph {
  readonly nodes: GraphNode[] = [];
  private readonly out = new Map<number, LocalEdge[]>();
  private readonly exits = new Map<number, ExitEdge[]>();
  /** Per function, its method calls of unknown target (ResolvedCallee "loose"): callers only, no search follows them. */
  private readonly loose = new Map<number, ExitEdge[]>();
  private readonly byName = new Map<string, number[]>();
  /** file + container's last name → its methods, for membersOf. */
  private readonly methodsByContainer = new Map<string, number[]>();

  private readonly hierarchy = new ClassHierarchy();
  /** Node id → its return type as the extraction kept it (annotation, or the one class its returns construct). */
  private readonly returns = new Map<number, string>();
  /** C: the scope's functions stored into struct fields. */
  private bound!: FieldBindings;

  /** TS/JS: modules of the scope that pass names on, for calls through them. */
  private reexports!: Reexports;

  constructor(data: Pick<ScopeData, "symbols" | "calls" | "crossScopeReferences" | "docs"> & { bindings?: readonly FieldBinding[]; imports?: readonly ImportEdge[] }) {
    for (const symbol of data.symbols) {
      if (symbol.kind === "class") this.hierarchy.add(symbol.name, basesOf(symbol.signature));
      if (symbol.kind === "class" || symbol.kind === "variable") this.hierarchy.addImplementation(symbol.name, implementedBy(symbol.signature));
      if (!isNode(symbol)) continue;
      const id = this.nodes.length;
      const qualified = symbol.kind === "method" && symbol.container ? `${symbol.container.split(/::|\./).at(-1)}.${symbol.name}` : symbol.name;
      this.nodes.push({
        id,
        name: symbol.name,
        qualified,
        kind: symbol.kind,
        ...(symbol.container ? { container: symbol.container } : {}),
        ...(symbol.fallback_of !== undefined ? { fallback: true as const } : {}),
        ...(symbol.config_stub ? { config_stub: true as const } : {}),
        ...(symbol.abstract ? { abstract: true as const } : {}),
        ...(symbol.address_taken ? { address_taken: true as const } : {}),
        file_path: symbol.file_path,
        line_start: symbol.line_start,
        line_end: symbol.line_end,
        terms: fieldTermsOf(symbol),
      });
      this.byName.set(symbol.name, [...(this.byName.get(symbol.name) ?? []), id]);
      if (symbol.returns && symbol.kind !== "class") this.returns.set(id, symbol.returns);
      if (symbol.kind === "method" && symbol.container) {
        const key = `${symbol.file_path}\0${symbol.container.split(/::|\./).at(-1)}`;
        this.methodsByContainer.set(key, [...(this.methodsByContainer.get(key) ?? []), id]);
      }
    }
    // A method's class's bases, which a scope calling the method through an object of a base class cannot know.
    for (const node of this.nodes) {
      const own = node.kind === "method" && node.container ? lastName(node.container) : undefined;
      const bases = own ? [...this.hierarchy.superclassesOf(own)].slice(0, MAX_CLASS_BASES) : [];
      if (bases.length > 0) node.class_bases = bases;
    }
    this.bound = new FieldBindings(data.bindings ?? [], (name) => this.named(name), () => this.nodes.filter((n) => n.kind === "method"));
    // A function the scope stores into a field in another file is used as a value too.
    for (const node of this.nodes) {
      if (node.kind !== "function" || !C_FAMILY.has(languageForPath(node.file_path))) continue;
      const fields = this.bound.bindingsOf(node).map((site) => site.field);
      if (fields.length > 0) node.address_taken = true;
      node.terms = withBoundNames(node.terms, fields);
    }
    this.reexports = new Reexports(data.imports ?? [], (file, name) => this.named(name).some((n) => n.file_path === file && n.container === undefined));
    const nested = nestings(this.nodes, this.fileNodes().byFile);
    this.link(data.calls, data.crossScopeReferences);
    for (const { parent, node } of nested) addLocalEdge(this.out, parent.id, { to: node.id, line: node.line_start, callee: node.name, defines: true });
  }

  /** The scope's functions stored into a struct field, with where each was bound. */
  boundTo(field: string): readonly { node: GraphNode; site: BindingSite }[] {
    return this.bound.boundTo(field);
  }

  /** Where the scope stores a function into struct fields: how other code calls it. */
  bindingsOf(node: GraphNode): readonly BindingSite[] {
    return this.bound.bindingsOf(node);
  }

  /** The scope's classes that name bases, with them (by last names). */
  classBases(): Record<string, string[]> {
    return this.hierarchy.declared();
  }

  /** The struct fields the scope stores its functions into. */
  boundFields(): string[] {
    return this.bound.fields();
  }

  /** Method calls leaving the scope through an object of a known class, as `Class.method` with their call sites (exit-counts.ts). */
  classCalls(): Map<string, number> {
    return classCallCounts(this.exits.values());
  }

  /**
   * Method calls through an object of unknown class that may be another scope's method of their name
   * (`directive_instance.run()`, `self.req.load_pyproject_toml()`: exit-counts.ts, withUnknownMembers), with
   * their first call site and count, as references are: where a climb or "who calls" looks for its callers.
   */
  looseCalls(): { target: string; from_file: string; line: number; count: number }[] {
    return callsByTarget(withUnknownMembers(this.loose, this.exits), this.nodes);
  }

  named(name: string): readonly GraphNode[] {
    return (this.byName.get(name) ?? []).map((id) => this.nodes[id] as GraphNode);
  }

  /** The scope's classes deriving from `className`, directly or through others, by their last names. */
  subclassesOf(className: string): ReadonlySet<string> {
    return this.hierarchy.subclassesOf(className);
  }

  /** The classes `className` derives from, directly or through others, by their last names. */
  superclassesOf(className: string): ReadonlySet<string> {
    return this.hierarchy.superclassesOf(className);
  }

  /** A class's methods (defined in its file, inside it): the class stands for them as a place to start. */
  membersOf(node: GraphNode): GraphNode[] {
    // A module-level value built by a function has the methods its builder assigns (`inst.parse = …`).
    if (node.kind !== "class" && node.kind !== "variable") return [];
    const methods = this.methodsByContainer.get(`${node.file_path}\0${node.name}`) ?? [];
    return methods.map((id) => this.nodes[id] as GraphNode).filter((n) => n.line_start >= node.line_start && n.line_end <= node.line_end);
  }

  /** A class's constructor (`__init__`, `constructor`) when the scope defines one inside it. */
  constructorOf(node: GraphNode): GraphNode | null {
    return this.membersOf(node).find((m) => m.name === "__init__" || m.name === "constructor") ?? null;
  }

  callsOf(id: number): readonly LocalEdge[] {
    return this.out.get(id) ?? [];
  }

  exitsOf(id: number): readonly ExitEdge[] {
    return this.exits.get(id) ?? [];
  }

  private fanIn: Map<string, number> | null = null;

  /** How many of the scope's functions call an exit's callee (exit-counts.ts), counted once, on first use. */
  callersOfExit(exit: Pick<ExitEdge, "module" | "receiver_class" | "target">): number {
    return this.callersOfExitKey(exitKey(exit));
  }

  /** callersOfExit by the exit's key (exitKey), for a caller that has it already. */
  callersOfExitKey(key: string): number {
    this.fanIn ??= exitFanIn(this.exits.values());
    return this.fanIn.get(key) ?? 0;
  }

  /**
   * Nodes whose body calls `target` (by its last name part, or through the field or pseudo-field of that
   * name), with the call line: the callers of a name; with what the call resolved to here (`to`), the class
   * it names leaving the scope (`receiver_class`) or the field it goes through (`field`).
   */
  callersOf(target: string): CallerOf[] {
    this.callerIndex ??= indexCallers(this.nodes, this.out, [this.exits, this.loose]);
    return (this.callerIndex.get(target) ?? []).map((caller) => ({ ...caller }));
  }

  /** Every call by the names callersOf answers for (caller-index.ts), made on the first such question. */
  private callerIndex: Map<string, CallerOf[]> | null = null;

  /** The function whose body defines `node` (a closure, an inner function), with the line it is defined on; null for a function of a module or class. */
  definerOf(node: GraphNode): { node: GraphNode; line: number } | null {
    this.definers ??= indexDefiners(this.nodes, this.out);
    return this.definers.get(node.id) ?? null;
  }

  private definers: Map<number, { node: GraphNode; line: number }> | null = null;

  /** The innermost node whose lines hold `line` of `file`. */
  enclosing(file: string, line: number): GraphNode | null {
    return this.fileNodes().enclosing(file, line);
  }

  private fileNodesValue: FileNodes | null = null;

  private fileNodes(): FileNodes {
    return (this.fileNodesValue ??= new FileNodes(this.nodes));
  }

  private link(calls: readonly CallSite[], references: readonly CrossScopeReference[]): void {
    const leaving = new Map<string, CrossScopeReference>();
    for (const r of references) if (r.kind === "call") leaving.set(`${r.from_file}:${r.line}:${r.target}`, r);
    const index: CalleeIndex = { named: (name) => this.named(name), subclassesOf: (name) => this.subclassesOf(name), superclassesOf: (name) => this.superclassesOf(name), basesOf: (name) => this.hierarchy.basesOf(name), implementationsOf: (name) => this.hierarchy.implementationsOf(name) };
    for (const call of calls) {
      const caller = this.enclosing(call.file_path, call.line);
      if (!caller) continue;
      const raising = call.error_path ? { error_path: true as const } : {};
      if (call.read) {
        // A property read runs the getter the object's class defines here; anything else it reads is a value.
        const readClass = call.receiver_class ?? oneReceiverClass(call.receiver_classes, index);
        const read = readClass === undefined ? null : resolveCallee(call.callee, caller, index, readClass);
        if (read?.kind === "local") for (const to of read.nodes) if (to.id !== caller.id && to.kind === "method") addLocalEdge(this.out, caller.id, { to: to.id, line: call.line, callee: call.callee, ...raising });
        continue;
      }
      // A renamed import (`from m import A as B`, `B(…)`) calls what its module names `A`: the import line says so; so does a built object's line its `__call__`.
      const renamed: { alias?: AliasSite } = call.renamed ? { alias: { name: call.callee, file_path: call.file_path, line: call.renamed.line } } : {};
      const name = call.renamed?.name ?? call.callee;
      const reference = leaving.get(`${call.file_path}:${call.line}:${name}`) ?? leaving.get(`${call.file_path}:${call.line}:${lastName(name)}`);
      if (reference) {
        addExitEdge(this.exits, caller.id, { target: reference.target, callee: call.callee, ...(reference.module ? { module: reference.module, ...importedClassOf(call.callee, call.file_path) } : {}), line: call.line, via: "reference", ...renamed, ...raising });
        continue;
      }
      // `html.escape(…)` after `import html`, `dedent(…)` after `from textwrap import dedent`: the standard
      // library's function, not a same-named one of the code base.
      if (call.standard_module) continue;
      const field = fieldCalled(call);
      if (field !== null) {
        // C: a call through a struct field calls what was stored into it, here or in another scope. Python's
        // dispatch by a built name: the methods of the caller's class and of its relatives named by the
        // prefix, cited at the line of the prefix's literal (where the code names them).
        const line = call.dispatch?.line ?? call.line;
        const family = call.dispatch ? familyOf(this, containerOf(caller)) : null;
        for (const { node, site } of this.bound.boundTo(field)) if (node.id !== caller.id && (!family || family.has(containerOf(node)))) addLocalEdge(this.out, caller.id, { to: node.id, line, callee: call.callee, bound: site, ...raising });
        addExitEdge(this.exits, caller.id, { target: field, callee: call.callee, line, via: "field", ...raising });
        continue;
      }
      const passed = call.module_file === undefined ? null : this.reexports.passedOn(call.module_file, lastName(name));
      if (passed?.module !== undefined) {
        // The scope's module only re-exports the name from another scope's (`export { _minLength as minLength } from "../core/index.js"`).
        addExitEdge(this.exits, caller.id, { target: passed.name, callee: call.callee, module: relativeModule(call.file_path, passed.module), line: call.line, via: "reference", ...(passed.alias ? { alias: passed.alias } : {}), ...raising });
        continue;
      }
      const receiverClass = call.receiver_class ?? oneReceiverClass(call.receiver_classes, index) ?? this.returnedClass(call.receiver_call, caller, index);
      const resolved = passed ? resolveCallee(passed.name, caller, index, undefined, passed.file) : resolveCallee(name, caller, index, receiverClass, call.module_file, call.held === true);
      if (resolved.kind === "local") {
        const alias = passed?.alias ? { alias: passed.alias } : renamed;
        for (const to of resolved.nodes) if (to.id !== caller.id) addLocalEdge(this.out, caller.id, { to: to.id, line: call.line, callee: call.callee, ...alias, ...raising });
        if (resolved.exit) addExitEdge(this.exits, caller.id, { target: resolved.exit, callee: call.callee, line: call.line, via: "member", ...raising });
      } else if (resolved.kind === "member") {
        addExitEdge(this.exits, caller.id, { target: resolved.name, callee: call.callee, line: call.line, via: "member", ...(resolved.receiverClass ? { receiver_class: resolved.receiverClass } : {}), ...(resolved.callerClass ? { caller_class: resolved.callerClass } : {}), ...renamed, ...raising });
      } else if (resolved.kind === "loose") {
        addExitEdge(this.loose, caller.id, { target: resolved.name, callee: call.callee, line: call.line, via: "member", ...raising });
      }
    }
  }

  /**
   * The class of what a function returns, for an object the caller got from it
   * (`self.get_signing_serializer(app).dumps(…)`): the function as a call of it resolves, when it resolves
   * to one, and the one class its return type names.
   */
  private returnedClass(receiverCall: string | undefined, caller: GraphNode, index: CalleeIndex): string | undefined {
    if (receiverCall === undefined) return undefined;
    const resolved = resolveCallee(receiverCall, caller, index);
    if (resolved.kind !== "local" || resolved.nodes.length !== 1) return undefined;
    const returns = this.returns.get((resolved.nodes[0] as GraphNode).id);
    return returns === undefined ? undefined : classOfAnnotation(returns);
  }
}
