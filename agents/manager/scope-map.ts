// The manager's map of the code: every scope's facts (owned paths, symbols, references leaving it),
// fetched from one replica per scope, and the scope graph derived from them. Refreshed when workers
// join, leave or re-index.
import type { Logger } from "pino";
import type { MeshNode } from "../../bus/index.js";
import { applyOverrides, deriveScopeGraph, ScopeGraph, type Overrides, type ScopeFacts, type UnresolvedReference } from "../../topology/index.js";
import type { AgentsDirectory } from "./agents-directory.js";
import { PublicSurface } from "./entry/public-surface.js";

export const FACTS_TIMEOUT_MS = 10_000;

/** How much of `path` a scope path covers: a directory prefix ("net/"), or a file with or without its extension. */
export function pathMatch(owned: string, path: string): number {
  if (owned === "") return 0;
  if (owned.endsWith("/")) return `${path}/`.startsWith(owned) ? owned.length : 0;
  return owned === path || owned.replace(/\.[^./]+$/, "") === path ? owned.length : 0;
}

export class ScopeMap {
  private facts = new Map<string, ScopeFacts>();
  private graphValue = new ScopeGraph([], []);
  private unresolvedValue: readonly UnresolvedReference[] = [];
  /** scope → index revision the facts were fetched at. */
  private revisions = new Map<string, string>();
  private owners = new Map<string, string[]>();
  private surfaceValue: PublicSurface | null = null;
  /** C struct field → the scopes storing functions into it. */
  private binders = new Map<string, string[]>();
  /** symbol → scope → call sites, from the call references every scope reports leaving it. */
  private callers = new Map<string, Map<string, number>>();
  /** The membership version at which the facts were last found current (a failed fetch never sets it). */
  private currentAt: number | undefined;

  constructor(
    private readonly node: MeshNode,
    private readonly directory: AgentsDirectory,
    private readonly logger: Logger,
    private readonly overrides?: Overrides,
  ) {}

  get graph(): ScopeGraph {
    return this.graphValue;
  }

  get unresolved(): readonly UnresolvedReference[] {
    return this.unresolvedValue;
  }

  factsOf(scope: string): ScopeFacts | undefined {
    return this.facts.get(scope);
  }

  /** True when a scope appeared, disappeared, or changed its index since the last refresh. */
  isStale(): boolean {
    // Nothing in the membership changed since the facts were last found current: still current.
    const version = this.node.peersVersion;
    if (this.currentAt === version) return false;
    const current = new Map(this.directory.list().map((a) => [a.scope, a.index_revision]));
    if (current.size !== this.revisions.size) return true;
    for (const [scope, revision] of current) if (this.revisions.get(scope) !== revision) return true;
    this.currentAt = version;
    return false;
  }

  async refresh(): Promise<ScopeGraph> {
    const next = new Map<string, ScopeFacts>();
    const revisions = new Map<string, string>();
    for (const scope of this.directory.scopes()) {
      const replica = this.directory.replicas(scope)[0];
      if (!replica) continue;
      const cached = this.facts.get(scope);
      if (cached && this.revisions.get(scope) === replica.index_revision) {
        next.set(scope, cached);
        revisions.set(scope, replica.index_revision);
        continue;
      }
      try {
        next.set(scope, (await this.node.request(replica.id, "references", {}, { timeoutMs: FACTS_TIMEOUT_MS })) as ScopeFacts);
        revisions.set(scope, replica.index_revision);
      } catch (error) {
        this.logger.warn({ err: error, scope, worker: replica.id }, "could not fetch the scope's references");
      }
    }
    this.facts = next;
    this.revisions = revisions;
    this.owners = new Map();
    for (const [scope, facts] of next) for (const symbol of facts.symbols) this.owners.set(symbol, [...(this.owners.get(symbol) ?? []), scope]);
    this.surfaceValue = PublicSurface.of([...next.values()].flatMap((facts) => facts.reexports ?? []));
    this.binders = new Map();
    for (const [scope, facts] of next) for (const field of facts.fields ?? []) this.binders.set(field, [...(this.binders.get(field) ?? []), scope]);
    this.callers = new Map();
    for (const [scope, facts] of next) {
      for (const reference of facts.references) {
        if (reference.kind !== "call") continue;
        // Counted by name, and by module and name when the code says where it came from (json.dumps, not pickle's).
        const qualified = reference.module && !reference.module.startsWith(".") ? [`${reference.module}.${reference.target}`] : [];
        for (const name of [reference.target, ...qualified]) {
          const byScope = this.callers.get(name) ?? new Map<string, number>();
          byScope.set(scope, (byScope.get(scope) ?? 0) + (reference.count ?? 1));
          this.callers.set(name, byScope);
        }
      }
    }
    const derived = deriveScopeGraph([...next.values()]);
    this.unresolvedValue = derived.unresolved;
    this.graphValue = this.overrides ? applyOverrides(derived.graph, this.overrides).graph : derived.graph;
    this.logger.info({ scopes: next.size, edges: this.graphValue.edgeCount }, "topology refreshed");
    return this.graphValue;
  }

  /** Refresh only if the set of scopes or an index changed. */
  async current(): Promise<ScopeGraph> {
    return this.isStale() ? this.refresh() : this.graphValue;
  }

  /** Scopes that define a symbol, from the facts. */
  ownersOf(symbol: string): readonly string[] {
    return this.owners.get(symbol) ?? [];
  }

  /** The TS/JS public surface the fleet's re-exports draw from its entry module, or null when there is none. */
  surface(): PublicSurface | null {
    return this.surfaceValue;
  }

  /** Scopes storing functions into a C struct field, from the facts. */
  bindersOf(field: string): readonly string[] {
    return this.binders.get(field) ?? [];
  }

  /** Scopes calling through a C struct field, most call sites first, from the facts. */
  fieldCallersOf(field: string): readonly { scope: string; count: number }[] {
    return this.countedIn((facts) => facts.field_calls, field);
  }

  /** Scopes calling a method of another scope's class through an object of that class (`OptionParser.parse_args`), most call sites first. */
  classCallersOf(qualified: string): readonly { scope: string; count: number }[] {
    return this.countedIn((facts) => facts.class_calls, qualified);
  }

  /** The scopes whose facts count `key` in the table `table` picks, most first. */
  private countedIn(table: (facts: ScopeFacts) => Record<string, number> | undefined, key: string): { scope: string; count: number }[] {
    const out: { scope: string; count: number }[] = [];
    for (const [scope, facts] of this.facts) {
      const counts = table(facts);
      const count = counts && Object.hasOwn(counts, key) ? counts[key] : undefined;
      if (typeof count === "number" && count > 0) out.push({ scope, count });
    }
    return out.sort((a, b) => b.count - a.count || a.scope.localeCompare(b.scope));
  }

  /** Scopes calling a symbol they do not define, most call sites first. */
  callersOf(symbol: string): readonly { scope: string; count: number }[] {
    return [...(this.callers.get(symbol) ?? [])].map(([scope, count]) => ({ scope, count })).sort((a, b) => b.count - a.count);
  }

  /**
   * The scopes owning a directory or something in it (`src/v4/core` split over two scopes gives both): where
   * a name imported from the directory's index module may be defined.
   */
  ownersUnder(dir: string): readonly string[] {
    const prefix = `${dir.replace(/\/$/, "")}/`;
    const owners = new Set(this.ownersOfPath(dir.replace(/\/$/, "")));
    for (const [scope, facts] of this.facts) if (facts.paths.some((owned) => owned.startsWith(prefix))) owners.add(scope);
    return [...owners];
  }

  /**
   * The scopes owning a root-relative path or module path ("urllib/request" for urllib/request.py,
   * "net/ipv4"): the owners of the longest matching scope path only. A scope of the whole root owns
   * nothing here, or every dotted name in a question would point at it.
   */
  ownersOfPath(path: string): readonly string[] {
    let best = 0;
    let owners: string[] = [];
    for (const [scope, facts] of this.facts) {
      for (const owned of facts.paths) {
        const length = pathMatch(owned, path);
        if (length > best) [best, owners] = [length, [scope]];
        else if (length === best && length > 0 && !owners.includes(scope)) owners.push(scope);
      }
    }
    return owners;
  }
}
