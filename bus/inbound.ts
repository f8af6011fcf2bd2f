// Dispatch of everything this node receives: on its ROUTER (requests, HELLO, gossip, pings from
// peers and clients) and on its links (replies, NACKs, pongs, HELLO answers). Bad frames are
// counted, logged and NACKed; they never throw out of here.
import type { Logger } from "pino";
import { FrameDecodeError } from "./errors.js";
import type { Link } from "./link.js";
import type { Membership } from "./membership.js";
import type { Outbound } from "./outbound.js";
import type { Requester } from "./requester.js";
import type { Responder } from "./responder.js";
import type { NodeStats } from "./stats.js";
import { decodeEnvelope } from "./wire/codec.js";
import type { NackCode } from "./wire/nack-codes.js";
import type { Envelope, NodeCard } from "./wire/schema.js";

/** Routing ids of clients (non-members) start with this character. */
export const CLIENT_PREFIX = "~";

/**
 * Kinds that answer or call off a message: a bad one is counted, logged and dropped, never NACKed, so two
 * nodes cannot NACK each other's NACKs in a loop (PROTOCOL.md §2); without `corr` they mean nothing.
 */
const ANSWER_KINDS: ReadonlySet<string> = new Set(["reply", "nack", "pong", "cancel"]);

export interface InboundDeps {
  maxFrameBytes: number;
  card: () => NodeCard;
  membership: Membership;
  requester: Requester;
  responder: Responder;
  outbound: Outbound;
  stats: NodeStats;
  logger: Logger;
  rejected: (info: { peer: string; code: NackCode; detail: string }) => void;
  /** A member whose key was revoked: its connection, opened before, is refused. */
  refuses?: (sender: string) => boolean;
}

export class Inbound {
  constructor(private readonly deps: InboundDeps) {}

  onRouterFrame(identity: Buffer, frame: Buffer): void {
    const sender = identity.toString("utf8");
    const decoded = this.decode(frame, sender);
    if (decoded instanceof FrameDecodeError) {
      if (decoded.kind !== undefined && ANSWER_KINDS.has(decoded.kind)) return this.deps.stats.count("dropped_bad_answer");
      return this.deps.outbound.nack(identity, decoded.code, decoded.message, decoded.messageId);
    }
    const isClient = sender.startsWith(CLIENT_PREFIX);
    if (!isClient && this.deps.refuses?.(sender)) {
      this.deps.stats.count("curve_revoked");
      if (decoded.kind === "request" || decoded.kind === "ping") return this.deps.outbound.nack(identity, "unauthorized", `the key of ${sender} was revoked`, decoded.id);
      return;
    }
    if (!isClient && decoded.from !== sender) {
      return this.deps.outbound.nack(identity, "unauthorized", `envelope claims "${decoded.from}" on a connection identified as "${sender}"`, decoded.id);
    }
    if (!isClient) this.deps.membership.seen(decoded.from, decoded.inc);
    if (decoded.kind !== "nack" && ANSWER_KINDS.has(decoded.kind) && decoded.corr === undefined) return this.droppedWithoutCorr(decoded.kind, sender);
    this.dispatchRouter(identity, decoded, isClient);
  }

  onLinkFrame(frame: Buffer, link: Link): void {
    const decoded = this.decode(frame, link.endpoint);
    if (decoded instanceof FrameDecodeError) {
      // We cannot tell which answer was damaged: re-send what still waits on this peer (its cache replays).
      const peer = this.deps.membership.records().find((r) => r.link === link);
      if (peer) this.deps.requester.retransmitTo(peer.card.id);
      return;
    }
    this.deps.membership.seen(decoded.from, decoded.inc);
    if (decoded.kind !== "nack" && ANSWER_KINDS.has(decoded.kind) && decoded.corr === undefined) return this.droppedWithoutCorr(decoded.kind, link.endpoint);
    this.dispatchLink(decoded);
  }

  /** A reply, pong or cancel without `corr` answers nothing: counted and logged, not NACKed (PROTOCOL.md §3). */
  private droppedWithoutCorr(kind: string, peer: string): void {
    this.deps.stats.count("dropped_without_corr");
    this.deps.logger.warn({ peer, kind }, `dropped a ${kind} without corr`);
  }

  private decode(frame: Buffer, peer: string): Envelope | FrameDecodeError {
    this.deps.stats.count("frames_in");
    try {
      return decodeEnvelope(frame, this.deps.maxFrameBytes);
    } catch (error) {
      const decodeError = error instanceof FrameDecodeError ? error : new FrameDecodeError("malformed_payload", String(error));
      this.deps.stats.count(`bad_frame_${decodeError.code}`);
      this.deps.logger.warn({ peer, code: decodeError.code, bytes: frame.length }, `rejected frame: ${decodeError.message}`);
      this.deps.rejected({ peer, code: decodeError.code, detail: decodeError.message });
      return decodeError;
    }
  }

  private dispatchRouter(identity: Buffer, envelope: Envelope, isClient: boolean): void {
    const { membership, outbound, responder, requester, stats } = this.deps;
    switch (envelope.kind) {
      case "hello":
        membership.learn(envelope.body.card, "hello", envelope.from);
        outbound.toIdentity(identity, "hello", { card: this.deps.card() });
        outbound.toIdentity(identity, "gossip", { cards: [this.deps.card(), ...membership.gossipCards()] });
        return;
      case "ping":
        outbound.toIdentity(identity, "pong", {}, { corr: envelope.id });
        return;
      case "gossip":
        if (!isClient) for (const card of envelope.body.cards) membership.learn(card, "gossip", envelope.from);
        return;
      case "bye":
        if (!isClient) membership.leave(envelope.from);
        return;
      case "request":
        stats.count("requests_received");
        responder.onRequest(identity, envelope);
        return;
      case "cancel":
        responder.onCancel(envelope);
        return;
      case "nack":
        requester.onNack(envelope.from, envelope);
        return;
      case "reply":
      case "pong":
        stats.count("misrouted");
        return;
      default:
        envelope satisfies never;
    }
  }

  private dispatchLink(envelope: Envelope): void {
    const { membership, requester, stats } = this.deps;
    switch (envelope.kind) {
      case "hello":
        membership.learn(envelope.body.card, "hello", envelope.from);
        return;
      case "gossip":
        for (const card of envelope.body.cards) membership.learn(card, "gossip", envelope.from);
        return;
      case "reply":
        stats.count("replies_received");
        if (!requester.onReply(envelope)) stats.count("late_replies");
        return;
      case "nack":
        stats.count(`nack_received_${envelope.body.code}`);
        requester.onNack(envelope.from, envelope);
        return;
      case "bye":
        membership.leave(envelope.from);
        return;
      case "pong":
        return;
      case "ping":
      case "request":
      case "cancel":
        stats.count("misrouted");
        return;
      default:
        envelope satisfies never;
    }
  }
}
