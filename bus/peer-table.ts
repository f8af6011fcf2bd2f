// Who this node knows: one record per peer id, with the liveness state derived from the last traffic.
import type { NodeCard } from "./wire/schema.js";

export const DEFAULT_HEARTBEAT_MS = 1_000;
export const DEFAULT_SUSPECT_MS = 3_000;
export const DEFAULT_EXPIRE_MS = 10_000;

/**
 * connecting: learned, nothing heard yet · alive: heard recently · suspect: quiet past the suspect bound ·
 * leaving: said BYE; takes no new requests, but its in-flight replies are still awaited until expiry.
 */
export type PeerState = "connecting" | "alive" | "suspect" | "leaving";

export interface LivenessThresholds {
  heartbeatMs: number;
  suspectMs: number;
  expireMs: number;
}

export interface PeerRecord<L> {
  card: NodeCard;
  state: PeerState;
  /** When anything was last heard from the peer (epoch ms); any traffic counts as life. */
  lastSeenAt: number;
  /** When this record was created; a "connecting" peer that never answers expires from here. */
  knownSince: number;
  lastPingAt: number;
  /** The card came from the peer itself (its hello, or its own card in its gossip), not from hearsay. */
  firstHand: boolean;
  link: L;
}

export type LivenessVerdict = "ok" | "ping" | "suspect" | "expire";

/** What the heartbeat should do about one peer now. Pure, so it is tested without timers. */
export function judgePeer<L>(peer: PeerRecord<L>, now: number, limits: LivenessThresholds): LivenessVerdict {
  const quietMs = now - Math.max(peer.lastSeenAt, peer.knownSince);
  if (quietMs >= limits.expireMs) return "expire";
  if (peer.state === "leaving") return "ok";
  if (quietMs >= limits.suspectMs && peer.state !== "suspect") return "suspect";
  if (quietMs >= limits.heartbeatMs && now - peer.lastPingAt >= limits.heartbeatMs) return "ping";
  return "ok";
}

export class PeerTable<L> {
  private readonly peers = new Map<string, PeerRecord<L>>();
  /** Ids that expired or left, with the incarnation they had: gossip must not bring them back. */
  private readonly tombstones = new Map<string, { incarnation: number; until: number }>();

  get size(): number {
    return this.peers.size;
  }

  get(id: string): PeerRecord<L> | undefined {
    return this.peers.get(id);
  }

  values(): IterableIterator<PeerRecord<L>> {
    return this.peers.values();
  }

  set(record: PeerRecord<L>): void {
    this.tombstones.delete(record.card.id);
    this.peers.set(record.card.id, record);
  }

  remove(id: string, now: number, tombstoneMs: number): PeerRecord<L> | undefined {
    const record = this.peers.get(id);
    if (record) {
      this.peers.delete(id);
      this.tombstones.set(id, { incarnation: record.card.incarnation, until: now + tombstoneMs });
    }
    return record;
  }

  /** True when gossip about this card should be ignored: it describes an incarnation we saw die. */
  isBuried(card: NodeCard, now: number): boolean {
    const stone = this.tombstones.get(card.id);
    if (!stone) return false;
    if (stone.until <= now) {
      this.tombstones.delete(card.id);
      return false;
    }
    return card.incarnation <= stone.incarnation;
  }
}
