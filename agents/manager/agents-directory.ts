// The workers the manager can see, grouped by scope, with the load it has put on each.
import type { MeshNode, NodeCard, PeerState, PeerView } from "../../bus/index.js";

export interface AgentInfo {
  id: string;
  scope: string;
  scope_paths: string[];
  state: PeerState;
  /** Requests this manager has in flight on the worker (least-loaded replica choice uses it). */
  load: number;
  index_revision: string;
  protocol_versions: string[];
  overlays: string[];
  documents: number;
  symbols: number;
  /** Lines of code in the scope (0 when the worker does not say). */
  lines: number;
  executor: string;
  endpoint: string;
  /** The host the worker runs on, as its card says. */
  host: string;
  uptime_hint_ms: number | null;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

export function isWorkerCard(card: NodeCard): boolean {
  return card.role === "worker" && typeof card.meta["scope"] === "string";
}

/** What the directory keeps of one worker between membership changes (load and uptime are read live). */
interface Entry {
  info: Omit<AgentInfo, "load" | "uptime_hint_ms">;
  /** Epoch ms the node has known the worker since, so the uptime hint stays current. */
  knownSince: number;
}

interface Snapshot {
  version: number;
  /** By scope, then id. */
  entries: Entry[];
  byScope: Map<string, Entry[]>;
  scopes: string[];
}

/** The directory asks only this of a node (a MeshNode; a stand-in in unit tests). */
export type PeerSource = Pick<MeshNode, "peers" | "peersVersion">;

function entryOf(view: PeerView, now: number): Entry {
  const meta = view.card.meta;
  return {
    info: {
      id: view.card.id,
      scope: meta["scope"] as string,
      scope_paths: strings(meta["scope_paths"]),
      state: view.state,
      index_revision: String(meta["index_revision"] ?? ""),
      protocol_versions: strings(meta["protocol_versions"]),
      overlays: strings(meta["overlays"]),
      documents: Number(meta["documents"] ?? 0),
      symbols: Number(meta["symbols"] ?? 0),
      lines: Number(meta["lines"] ?? 0),
      executor: String(meta["executor"] ?? ""),
      endpoint: view.card.endpoint,
      host: view.card.host ?? "",
    },
    knownSince: now - view.known_for_ms,
  };
}

export class AgentsDirectory {
  private readonly inFlight = new Map<string, number>();
  /**
   * The workers as of the node's last membership change. A question consults the directory several
   * times (topology check, scopes, a replica per hop); it is rebuilt only when a peer joins, leaves,
   * changes state or publishes a new card, not on every call (it was O(peers log peers) per hop).
   */
  private snapshotValue: Snapshot | undefined;

  constructor(private readonly node: PeerSource) {}

  list(): AgentInfo[] {
    const now = Date.now();
    return this.snapshot().entries.map((entry) => this.live(entry, now));
  }

  scopes(): string[] {
    return [...this.snapshot().scopes];
  }

  /** Replicas of a scope, least loaded first; `exclude` removes replicas already tried. */
  replicas(scope: string, exclude: ReadonlySet<string> = new Set()): AgentInfo[] {
    const now = Date.now();
    return (this.snapshot().byScope.get(scope) ?? [])
      .filter((entry) => !exclude.has(entry.info.id) && entry.info.state !== "connecting")
      .map((entry) => this.live(entry, now))
      .sort((a, b) => a.load - b.load || (a.state === "alive" ? 0 : 1) - (b.state === "alive" ? 0 : 1) || a.id.localeCompare(b.id));
  }

  /** Count a request against a worker while it runs. */
  async track<T>(id: string, work: () => Promise<T>): Promise<T> {
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    try {
      return await work();
    } finally {
      this.inFlight.set(id, (this.inFlight.get(id) ?? 1) - 1);
    }
  }

  private live(entry: Entry, now: number): AgentInfo {
    return { ...entry.info, load: this.inFlight.get(entry.info.id) ?? 0, uptime_hint_ms: now - entry.knownSince };
  }

  private snapshot(): Snapshot {
    const version = this.node.peersVersion;
    if (this.snapshotValue?.version === version) return this.snapshotValue;
    const now = Date.now();
    const entries = this.node
      .peers()
      .filter((p) => isWorkerCard(p.card) && p.state !== "leaving")
      .map((p) => entryOf(p, now))
      .sort((a, b) => a.info.scope.localeCompare(b.info.scope) || a.info.id.localeCompare(b.info.id));
    const byScope = new Map<string, Entry[]>();
    for (const entry of entries) byScope.set(entry.info.scope, [...(byScope.get(entry.info.scope) ?? []), entry]);
    this.snapshotValue = { version, entries, byScope, scopes: [...byScope.keys()].sort() };
    return this.snapshotValue;
  }
}
