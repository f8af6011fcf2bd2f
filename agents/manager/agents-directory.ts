// The workers the manager can see, grouped by scope, with the load it has put on each.
import type { MeshNode, NodeCard, PeerState } from "../../bus/index.js";

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
  executor: string;
  endpoint: string;
  uptime_hint_ms: number | null;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

export function isWorkerCard(card: NodeCard): boolean {
  return card.role === "worker" && typeof card.meta["scope"] === "string";
}

export class AgentsDirectory {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly node: MeshNode) {}

  list(): AgentInfo[] {
    return this.node
      .peers()
      .filter((p) => isWorkerCard(p.card) && p.state !== "leaving")
      .map((p) => {
        const meta = p.card.meta;
        return {
          id: p.card.id,
          scope: meta["scope"] as string,
          scope_paths: strings(meta["scope_paths"]),
          state: p.state,
          load: this.inFlight.get(p.card.id) ?? 0,
          index_revision: String(meta["index_revision"] ?? ""),
          protocol_versions: strings(meta["protocol_versions"]),
          overlays: strings(meta["overlays"]),
          documents: Number(meta["documents"] ?? 0),
          symbols: Number(meta["symbols"] ?? 0),
          executor: String(meta["executor"] ?? ""),
          endpoint: p.card.endpoint,
          uptime_hint_ms: p.known_for_ms,
        };
      })
      .sort((a, b) => a.scope.localeCompare(b.scope) || a.id.localeCompare(b.id));
  }

  scopes(): string[] {
    return [...new Set(this.list().map((a) => a.scope))].sort();
  }

  /** Replicas of a scope, least loaded first; `exclude` removes replicas already tried. */
  replicas(scope: string, exclude: ReadonlySet<string> = new Set()): AgentInfo[] {
    return this.list()
      .filter((a) => a.scope === scope && !exclude.has(a.id) && a.state !== "connecting")
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
}
