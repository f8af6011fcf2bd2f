// The manager's map of the code: every scope's facts (owned paths, symbols, references leaving it),
// fetched from one replica per scope, and the scope graph derived from them. Refreshed when workers
// join, leave or re-index.
import type { Logger } from "pino";
import type { MeshNode } from "../../bus/index.js";
import { applyOverrides, deriveScopeGraph, ScopeGraph, type Overrides, type ScopeFacts, type UnresolvedReference } from "../../topology/index.js";
import type { AgentsDirectory } from "./agents-directory.js";
import { PublicSurface } from "./entry/public-surface.js";
import { dispatchPrefix } from "../protocol/index.js";
import { ClassHierarchy } from "../pgc/callgraph/class-bases.js";

export const FACTS_TIMEOUT_MS = 10_000;
/** Scopes asked for their facts at once when the map is refreshed. */
export const FACTS_CONCURRENCY = 16;
/**
 * How long the membership must stay unchanged before a watched map refreshes itself: a fleet coming up
 * joins its workers one after another, and each refresh asks only the scopes it has no facts for.
 */
export const WATCH_SETTLE_MS = 250;

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
  /** The refresh in flight: a second caller waits for it rather than asking every scope again. */
  private refreshing: Promise<ScopeGraph> | null = null;

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

  /** Fetch the facts of every scope whose index changed (FACTS_CONCURRENCY at a time) and derive the graph again; one refresh at a time. */
  refresh(): Promise<ScopeGraph> {
    this.refreshing ??= this.refreshNow().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * Keep the map current without waiting for a question: once the membership has not changed for
   * WATCH_SETTLE_MS after a worker joined, left or changed, refresh if it is stale. A fleet's first question
   * then finds the topology derived. Returns the function that stops watching.
   */
  watch(): () => void {
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (this.isStale()) this.refresh().catch((error: unknown) => this.logger.warn({ err: error }, "could not refresh the topology"));
      }, WATCH_SETTLE_MS);
      timer.unref();
    };
    const events = ["peer:join", "peer:leave", "peer:state"] as const;
    for (const event of events) this.node.on(event, settle);
    return () => {
      clearTimeout(timer);
      for (const event of events) this.node.off(event, settle);
    };
  }

  private async refreshNow(): Promise<ScopeGraph> {
    const revisions = new Map<string, string>();
    const order: string[] = [];
    const fetched = new Map<string, ScopeFacts>();
    const wanted: { scope: string; worker: string; revision: string }[] = [];
    for (const scope of this.directory.scopes()) {
      const replica = this.directory.replicas(scope)[0];
      if (!replica) continue;
      order.push(scope);
      const cached = this.facts.get(scope);
      if (cached && this.revisions.get(scope) === replica.index_revision) {
        fetched.set(scope, cached);
        revisions.set(scope, replica.index_revision);
      } else wanted.push({ scope, worker: replica.id, revision: replica.index_revision });
    }
    let at = 0;
    const fetchNext = async (): Promise<void> => {
      for (let item = wanted[at++]; item; item = wanted[at++]) {
        try {
          fetched.set(item.scope, (await this.node.request(item.worker, "references", {}, { timeoutMs: FACTS_TIMEOUT_MS })) as ScopeFacts);
          revisions.set(item.scope, item.revision);
        } catch (error) {
          this.logger.warn({ err: error, scope: item.scope, worker: item.worker }, "could not fetch the scope's references");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FACTS_CONCURRENCY, wanted.length) }, fetchNext));
    // In the directory's order, whoever answered first: the owners' lists and the derived graph keep one order.
    const next = new Map<string, ScopeFacts>();
    for (const scope of order) {
      const facts = fetched.get(scope);
      if (facts) next.set(scope, facts);
    }
    this.facts = next;
    this.revisions = revisions;
    this.owners = new Map();
    for (const [scope, facts] of next) for (const symbol of facts.symbols) this.owners.set(symbol, [...(this.owners.get(symbol) ?? []), scope]);
    this.surfaceValue = PublicSurface.of([...next.values()].flatMap((facts) => facts.reexports ?? []));
    this.binders = new Map();
    this.hierarchy = null;
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

  /**
   * Scopes storing functions into a C struct field, from the facts; for a Python dispatch's pseudo-field
   * (`visit_*`), the scopes defining a name that begins with its prefix and says more (`visit_Template`).
   */
  bindersOf(field: string): readonly string[] {
    const prefix = dispatchPrefix(field);
    if (prefix === null) return this.binders.get(field) ?? [];
    let scopes = this.binders.get(field);
    if (!scopes) {
      const found = new Set<string>();
      for (const [symbol, owners] of this.owners) if (symbol.length > prefix.length && symbol.startsWith(prefix)) for (const scope of owners) found.add(scope);
      // In the directory's order, as the owners' lists are; kept until the next refresh.
      scopes = [...this.facts.keys()].filter((scope) => found.has(scope));
      this.binders.set(field, scopes);
    }
    return scopes;
  }

  /** Scopes calling through a C struct field, most call sites first, from the facts. */
  fieldCallersOf(field: string): readonly { scope: string; count: number }[] {
    return this.countedIn((facts) => facts.field_calls, field);
  }

  /** Scopes calling a method of another scope's class through an object of that class (`OptionParser.parse_args`), most call sites first. */
  classCallersOf(qualified: string): readonly { scope: string; count: number }[] {
    return this.countedIn((facts) => facts.class_calls, qualified);
  }

  /**
   * Scopes defining a class that derives from `className`, directly or through others, whichever scopes
   * its bases are in (`Redis` → `CoreCommands` → `DataAccessCommands` → `BasicKeyCommands`), in the
   * directory's order (the hierarchy is kept until the next refresh).
   */
  heirsOf(className: string): readonly string[] {
    if (!this.hierarchy) {
      this.hierarchy = new ClassHierarchy();
      for (const facts of this.facts.values()) for (const [name, bases] of Object.entries(facts.class_bases ?? {})) this.hierarchy.add(name, bases);
    }
    const owners = new Set([...this.hierarchy.subclassesOf(className)].flatMap((name) => this.owners.get(name) ?? []));
    return [...this.facts.keys()].filter((scope) => owners.has(scope));
  }

  /** The fleet's class hierarchy from every scope's `class_bases`; built on first use after a refresh. */
  private hierarchy: ClassHierarchy | null = null;

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
