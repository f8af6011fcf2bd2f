// How this node is found and finds others: its card (and each change to it), HELLO to the seeds, the
// gossip tick (its own card and the peers it has heard from, to one random peer) and the registry
// directory. What it learns goes to the membership.
import { BusConfigError } from "./errors.js";
import type { Link } from "./link.js";
import type { Membership } from "./membership.js";
import type { Outbound } from "./outbound.js";
import type { LocalRegistry } from "./registry.js";
import type { NodeCard } from "./wire/schema.js";

export interface DiscoveryDeps {
  membership: Membership;
  outbound: Outbound;
  seeds: readonly string[];
  registry: LocalRegistry | undefined;
  /** A client link (a "~…" routing id) to a seed's inbox. */
  openSeedLink: (endpoint: string) => Link;
  isStopping: () => boolean;
}

export class Discovery {
  private readonly seedLinks: Link[] = [];
  private cardValue: NodeCard | undefined;

  constructor(private readonly deps: DiscoveryDeps) {}

  get started(): boolean {
    return this.cardValue !== undefined;
  }

  get card(): NodeCard {
    if (!this.cardValue) throw new BusConfigError("the node has not been started");
    return this.cardValue;
  }

  /** Take this node's first card and say HELLO to every seed. */
  begin(card: NodeCard): void {
    this.cardValue = card;
    for (const endpoint of this.deps.seeds) {
      const link = this.deps.openSeedLink(endpoint);
      this.seedLinks.push(link);
      this.deps.outbound.onLink(link, "hello", { card });
    }
  }

  /** Replace the card's metadata (its `rev` goes up by one) and tell every peer. */
  updateMeta(meta: Record<string, unknown>): void {
    const card: NodeCard = { ...this.card, meta: { ...meta }, rev: (this.card.rev ?? 0) + 1 };
    this.cardValue = card;
    for (const record of this.deps.membership.records()) this.deps.outbound.onLink(record.link, "hello", { card });
  }

  /** One gossip pass: gossip to a random peer, HELLO the seeds again when alone, refresh the registry. */
  async tick(): Promise<void> {
    const { membership, outbound, registry } = this.deps;
    const cards = [this.card, ...membership.gossipCards()];
    // Gossip goes to a live member: not to one still connecting, nor to one that said BYE (PROTOCOL.md §8).
    const records = membership.records().filter((r) => r.state === "alive" || r.state === "suspect");
    const target = records[Math.floor(Math.random() * records.length)];
    if (target) outbound.onLink(target.link, "gossip", { cards });
    if (records.length === 0) for (const link of this.seedLinks) outbound.onLink(link, "hello", { card: this.card });
    if (registry && !this.deps.isStopping()) {
      await registry.announce(this.card);
      if (membership.wantsRegistry()) for (const entry of await registry.read()) membership.learn(entry.card, "registry");
    }
  }

  /** Take this node's entry out of the registry (it is stopping); never throws. */
  async withdraw(id: string): Promise<void> {
    await this.deps.registry?.remove(id).catch(() => undefined);
  }

  async closeSeedLinks(): Promise<void> {
    await Promise.all(this.seedLinks.map((link) => link.close()));
  }
}
