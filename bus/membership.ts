// Membership: who is in the mesh, learned from HELLO, gossip and the registry, and kept honest by
// liveness (alive → suspect → expired). A newer incarnation of a known id replaces the old one at once.
import type { Logger } from "pino";
import { PeerUnavailableError } from "./errors.js";
import type { Link } from "./link.js";
import { judgePeer, PeerTable, type LivenessThresholds, type PeerRecord, type PeerState } from "./peer-table.js";
import type { NodeCard } from "./wire/schema.js";

export type LearnedVia = "hello" | "gossip" | "registry";
export type LeaveReason = "bye" | "expired" | "restarted" | "revoked";

export interface MembershipEvents {
  joined: (card: NodeCard) => void;
  left: (card: NodeCard, reason: LeaveReason) => void;
  stateChanged: (card: NodeCard, state: PeerState) => void;
}

export interface MembershipDeps {
  selfId: string;
  openLink: (card: NodeCard) => Link;
  sendHello: (link: Link) => void;
  sendPing: (link: Link) => void;
  failPending: (peerId: string, error: PeerUnavailableError) => void;
  /** A secured node takes in only cards whose CURVE key its keyring admits; unset, every card. */
  admits?: (card: NodeCard) => boolean;
  /** Roles linked on hearsay; a peer of another role must say HELLO first (see NodeOptions.dialRoles). */
  dialRoles?: readonly string[] | undefined;
  events: MembershipEvents;
  logger: Logger;
  now?: () => number;
}

export interface PeerView {
  card: NodeCard;
  state: PeerState;
  last_seen_ms_ago: number | null;
  known_for_ms: number;
}

/** Primitives and arrays of primitives compare by value; anything deeper counts as changed. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((item, i) => item === b[i] && (typeof item !== "object" || item === null));
}

/** Whether two cards of one incarnation say the same thing (gossip repeats cards unchanged). */
export function sameCard(a: NodeCard, b: NodeCard): boolean {
  if (a.endpoint !== b.endpoint || a.role !== b.role || a.pid !== b.pid || a.host !== b.host || a.rev !== b.rev || !sameValue(a.protocols, b.protocols)) return false;
  const keys = Object.keys(a.meta);
  if (keys.length !== Object.keys(b.meta).length) return false;
  return keys.every((key) => Object.hasOwn(b.meta, key) && sameValue(a.meta[key], b.meta[key]));
}

export class Membership {
  private readonly table = new PeerTable<Link>();
  private readonly now: () => number;
  private versionValue = 0;

  constructor(
    private readonly deps: MembershipDeps,
    private readonly limits: LivenessThresholds,
  ) {
    this.now = deps.now ?? Date.now;
  }

  get size(): number {
    return this.table.size;
  }

  /**
   * Changes whenever view() would show a different set of peers, states or cards (not when only the
   * timings move), so a reader can cache what it derives from the view until the next change.
   */
  get version(): number {
    return this.versionValue;
  }

  link(id: string): Link | undefined {
    return this.table.get(id)?.link;
  }

  /** The link to send new work on: none for a peer that said BYE. */
  routableLink(id: string): Link | undefined {
    const peer = this.table.get(id);
    return peer && peer.state !== "leaving" ? peer.link : undefined;
  }

  card(id: string): NodeCard | undefined {
    return this.table.get(id)?.card;
  }

  records(): PeerRecord<Link>[] {
    return [...this.table.values()];
  }

  /**
   * Take in a card. HELLO is first-hand; gossip and registry entries are hearsay until the peer answers.
   * Hearsay about an unknown peer whose role this node does not dial is ignored (it may still say HELLO).
   */
  learn(card: NodeCard, via: LearnedVia, sender?: string): void {
    if (card.id === this.deps.selfId) return;
    if (this.deps.admits && !this.deps.admits(card)) return;
    const known = this.table.get(card.id);
    const now = this.now();
    // The peer's own word: its hello, or its own card in the gossip it sends.
    const firstHand = sender === card.id;
    if (!known) {
      if (via !== "hello" && (!this.dials(card.role) || this.table.isBuried(card, now))) return;
      this.add(card, via === "hello" ? now : 0, firstHand);
      return;
    }
    if (card.incarnation > known.card.incarnation) {
      this.deps.logger.info({ peer: card.id, old: known.card.incarnation, new: card.incarnation }, "peer restarted");
      this.drop(card.id, "restarted");
      this.add(card, via === "hello" ? now : 0, firstHand);
      return;
    }
    if (card.incarnation === known.card.incarnation) {
      // Metadata (scope, index revision…) may have changed. A card of a later revision is taken from
      // anyone; an earlier one from no one (a copy relayed by another node, or read from the registry
      // before the peer rewrote its entry, would roll the metadata back); the same revision only from the
      // peer itself, or while nothing first-hand was heard (nodes that send no `rev` stay at 0).
      const rev = card.rev ?? 0;
      const knownRev = known.card.rev ?? 0;
      if (rev > knownRev || (rev === knownRev && (firstHand || !known.firstHand))) {
        if (!sameCard(known.card, card)) this.versionValue++;
        known.card = card;
        known.firstHand ||= firstHand;
      }
      if (via === "hello") this.seen(card.id, card.incarnation);
    }
  }

  /** Any traffic from a peer's current incarnation counts as life. */
  seen(id: string, incarnation: number): void {
    const peer = this.table.get(id);
    if (!peer || peer.card.incarnation !== incarnation) return;
    peer.lastSeenAt = this.now();
    if (peer.state === "alive" || peer.state === "leaving") return;
    const wasConnecting = peer.state === "connecting";
    peer.state = "alive";
    this.versionValue++;
    if (wasConnecting) this.deps.events.joined(peer.card);
    else this.deps.events.stateChanged(peer.card, "alive");
  }

  /**
   * The peer said BYE: it drains its running work, so requests already sent still get their replies.
   * It takes no new requests, is no longer gossiped, and is removed when it falls silent (expiry).
   */
  leave(id: string): void {
    const peer = this.table.get(id);
    if (!peer || peer.state === "leaving") return;
    const wasMember = peer.state !== "connecting";
    peer.state = "leaving";
    this.versionValue++;
    if (wasMember) this.deps.events.left(peer.card, "bye");
    this.deps.logger.info({ peer: id }, "peer is leaving");
  }

  /** One heartbeat pass: ping quiet peers, mark suspects, expire the silent. */
  tick(): void {
    const now = this.now();
    for (const peer of [...this.table.values()]) {
      const verdict = judgePeer(peer, now, this.limits);
      if (verdict === "expire") this.drop(peer.card.id, "expired");
      else if (verdict === "suspect") {
        peer.state = peer.state === "connecting" ? "connecting" : "suspect";
        if (peer.state === "suspect") {
          this.versionValue++;
          this.deps.events.stateChanged(peer.card, "suspect");
          // A peer that says nothing may be alive behind a connection that went quiet without closing:
          // dial it anew (the ping below goes on the new connection, and what was in flight is sent again).
          peer.link.redial();
        }
        this.ping(peer, now);
      } else if (verdict === "ping") this.ping(peer, now);
    }
  }

  /**
   * Whether reading the registry can still teach this node a peer it would dial. A node that dials every
   * role always reads it; one with dialRoles only while it has no live peer of those roles, since the
   * peers it does not dial join by saying HELLO, and the ones it dials (full members) read the registry
   * themselves and say HELLO to every newcomer.
   */
  wantsRegistry(): boolean {
    const roles = this.deps.dialRoles;
    if (roles === undefined) return true;
    for (const peer of this.table.values()) if ((peer.state === "alive" || peer.state === "suspect") && roles.includes(peer.card.role)) return false;
    return true;
  }

  /** Cards worth gossiping: this node's peers that have answered (hearsay is not passed on). */
  gossipCards(): NodeCard[] {
    return [...this.table.values()].filter((p) => p.state === "alive" || p.state === "suspect").map((p) => p.card);
  }

  view(): PeerView[] {
    const now = this.now();
    return [...this.table.values()].map((p) => ({
      card: p.card,
      state: p.state,
      last_seen_ms_ago: p.lastSeenAt > 0 ? now - p.lastSeenAt : null,
      known_for_ms: now - p.knownSince,
    }));
  }

  /** Wait (bounded) until every link has handed its queue to its socket. */
  async flushAll(flushMs: number): Promise<void> {
    await Promise.all([...this.table.values()].map((p) => p.link.flush(flushMs)));
  }

  /** Close every link (the node is stopping). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.table.values()].map((p) => p.link.close()));
  }

  private dials(role: string): boolean {
    return this.deps.dialRoles === undefined || this.deps.dialRoles.includes(role);
  }

  private ping(peer: PeerRecord<Link>, now: number): void {
    peer.lastPingAt = now;
    this.deps.sendPing(peer.link);
  }

  private add(card: NodeCard, lastSeenAt: number, firstHand: boolean): void {
    const now = this.now();
    const link = this.deps.openLink(card);
    const record: PeerRecord<Link> = { card, state: "connecting", lastSeenAt: 0, knownSince: now, lastPingAt: now, firstHand, link };
    this.table.set(record);
    this.versionValue++;
    this.deps.sendHello(link);
    if (lastSeenAt > 0) this.seen(card.id, card.incarnation);
  }

  /** Drop every peer whose card the keyring no longer admits (a revoked key); returns their ids. */
  dropUnadmitted(): string[] {
    const admits = this.deps.admits;
    if (!admits) return [];
    const revoked = [...this.table.values()].filter((p) => !admits(p.card)).map((p) => p.card.id);
    for (const id of revoked) this.drop(id, "revoked");
    return revoked;
  }

  private drop(id: string, reason: LeaveReason): void {
    const record = this.table.remove(id, this.now(), this.limits.expireMs * 3);
    if (!record) return;
    this.versionValue++;
    const retryable = reason !== "expired";
    this.deps.failPending(id, new PeerUnavailableError(`peer ${id} ${reason === "bye" ? "left the mesh" : reason}`, retryable));
    record.link.close().catch((error: unknown) => this.deps.logger.warn({ err: error, peer: id }, "closing link failed"));
    const announced = record.state === "leaving" || (record.state === "connecting" && reason === "expired");
    if (!announced) this.deps.events.left(record.card, reason);
    this.deps.logger.info({ peer: id, reason }, "peer left");
  }
}
