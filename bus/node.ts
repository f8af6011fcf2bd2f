// A mesh node: one ROUTER inbox (bind), one DEALER link per peer (connect), membership, liveness,
// request/reply with de-duplication, and a graceful, idempotent stop. No node is special.
import { EventEmitter } from "node:events";
import { hostname } from "node:os";
import { Router } from "zeromq";
import pino, { type Logger } from "pino";
import { Bulkhead } from "./bulkhead.js";
import { BusConfigError, FrameDecodeError, FrameTooLargeError } from "./errors.js";
import { createMessageIdSource, newClientId, newTraceId } from "./ids.js";
import { Link } from "./link.js";
import { Membership, type LeaveReason, type PeerView } from "./membership.js";
import { parseNodeOptions, type NodeOptions, type NodeOptionsInput } from "./node-options.js";
import type { PeerState } from "./peer-table.js";
import { readRegistry, removeRegistryEntry, writeRegistryEntry } from "./registry.js";
import { ReplyCache } from "./reply-cache.js";
import { trailFor, type RequestContext } from "./request-context.js";
import { Requester } from "./requester.js";
import { Responder, type Handler } from "./responder.js";
import { SendQueue } from "./send-queue.js";
import { NodeStats } from "./stats.js";
import { decodeEnvelope, encodeEnvelope } from "./wire/codec.js";
import { FRAME_WARN_BYTES } from "./wire/frame.js";
import { isRetryableCode, type NackCode } from "./wire/nack-codes.js";
import { ENVELOPE_VERSION, type BodyOf, type Envelope, type MessageKind, type NodeCard } from "./wire/schema.js";
import { resolveAdvertisedEndpoint } from "./endpoint.js";

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  attempts?: number;
  traceId?: string;
  /** Continue the chain of the request being handled: path, hop count, budget and deadline carry over. */
  via?: RequestContext;
  /** Start a chain with this hop budget (default 6), or an explicit trail (a manager's logical path). */
  maxHops?: number;
  trail?: { path: string[]; hops: number; maxHops: number };
}

export interface NodeEvents {
  "peer:join": [card: NodeCard];
  "peer:leave": [card: NodeCard, reason: LeaveReason];
  "peer:state": [card: NodeCard, state: PeerState];
  "frame:rejected": [info: { peer: string; code: NackCode; detail: string }];
}

const ROUTER_HIGH_WATER_MARK = 10_000;
/** Pause between flushing and closing sockets at stop (see doStop). */
const CLOSE_SETTLE_MS = 50;
const CLIENT_PREFIX = "~";

export class MeshNode extends EventEmitter<NodeEvents> {
  readonly options: NodeOptions;
  readonly logger: Logger;
  readonly stats = new NodeStats();
  private readonly router: Router;
  private readonly routerQueue: SendQueue;
  private readonly handlers = new Map<string, Handler>();
  private readonly nextId = createMessageIdSource();
  private readonly requester: Requester;
  private readonly responder: Responder;
  private readonly bulkhead: Bulkhead;
  private readonly cache: ReplyCache;
  private readonly membership: Membership;
  private readonly seedLinks: Link[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private cardValue: NodeCard | undefined;
  private routerDone: Promise<void> = Promise.resolve();
  private stopping = false;
  private stopPromise: Promise<void> | undefined;
  private readonly startedAt = Date.now();
  readonly incarnation = Date.now();

  constructor(input: NodeOptionsInput) {
    super();
    this.options = parseNodeOptions(input);
    const base = input.logger ?? pino({ level: "silent" });
    this.logger = base.child({ component: "bus:node", node: this.options.id });
    this.router = new Router({ mandatory: true, handover: true, linger: this.options.lingerMs, sendHighWaterMark: ROUTER_HIGH_WATER_MARK, receiveHighWaterMark: ROUTER_HIGH_WATER_MARK, sendTimeout: 0 });
    this.routerQueue = new SendQueue(this.router, this.options.sendQueueCapacity * 4, (error) => {
      this.stats.count("router_send_failed");
      this.logger.debug({ err: error }, "reply could not be routed (peer gone or its queue full)");
    });
    this.bulkhead = new Bulkhead(this.options.maxConcurrent, this.options.maxQueued);
    this.cache = new ReplyCache(this.options.replyCacheTtlMs, this.options.replyCacheMaxEntries);
    this.requester = new Requester({
      transmit: (peerId, frame, first) => this.transmit(peerId, frame, first),
      cancel: (peerId, messageId) => this.sendToPeer(peerId, "cancel", {}, { corr: messageId }),
      logger: this.logger.child({ component: "bus:requester" }),
      countRetry: () => this.stats.count("retries"),
    });
    this.responder = new Responder({
      selfId: this.options.id,
      handlers: this.handlers,
      bulkhead: this.bulkhead,
      cache: this.cache,
      isStopping: () => this.stopping,
      reply: (to, request, body) => this.replyTo(to, request, body),
      resend: (to, frame) => this.routerQueue.push([to, frame]),
      nack: (to, code, detail, corr, retryAfterMs) => this.nackTo(to, code, detail, corr, retryAfterMs),
      logger: this.logger.child({ component: "bus:responder" }),
      count: (event) => this.stats.count(event),
    });
    this.membership = new Membership(
      {
        selfId: this.options.id,
        openLink: (card) => this.openLink(card.endpoint, this.options.id),
        sendHello: (link) => this.sendOnLink(link, "hello", { card: this.card }),
        sendPing: (link) => this.sendOnLink(link, "ping", {}),
        failPending: (peerId, error) => this.requester.failPeer(peerId, error),
        events: {
          joined: (card) => this.emit("peer:join", card),
          left: (card, reason) => this.emit("peer:leave", card, reason),
          stateChanged: (card, state) => this.emit("peer:state", card, state),
        },
        logger: this.logger.child({ component: "bus:membership" }),
      },
      this.options,
    );
    this.handle("ping", () => this.health());
    this.handle("peers", () => ({ self: this.card, peers: this.membership.view() }));
  }

  get id(): string {
    return this.options.id;
  }

  get card(): NodeCard {
    if (!this.cardValue) throw new BusConfigError("the node has not been started");
    return this.cardValue;
  }

  get endpoint(): string {
    return this.card.endpoint;
  }

  /** Register the handler of an op. Handlers get the request's args and its context. */
  handle(op: string, handler: Handler): void {
    this.handlers.set(op, handler);
  }

  /** Bind, announce and start discovery. Resolves when the inbox is reachable. */
  async start(): Promise<void> {
    await this.router.bind(this.options.bind);
    const bound = this.router.lastEndpoint;
    if (!bound) throw new BusConfigError(`binding ${this.options.bind} gave no endpoint`);
    this.cardValue = {
      id: this.options.id,
      incarnation: this.incarnation,
      role: this.options.role,
      endpoint: resolveAdvertisedEndpoint(bound, this.options.advertise),
      protocols: [ENVELOPE_VERSION],
      meta: { ...this.options.meta },
      pid: process.pid,
      host: hostname(),
    };
    this.routerDone = this.readRouter().catch((error: unknown) => {
      if (!this.stopping) this.logger.error({ err: error }, "router reader stopped");
    });
    for (const endpoint of this.options.seeds) {
      const link = this.openLink(endpoint, newClientId());
      this.seedLinks.push(link);
      this.sendOnLink(link, "hello", { card: this.card });
    }
    this.timers.push(setInterval(() => this.membership.tick(), Math.max(10, Math.floor(this.options.heartbeatMs / 2))));
    this.timers.push(setInterval(() => this.gossipTick().catch((e: unknown) => this.logger.warn({ err: e }, "gossip tick failed")), this.options.gossipMs));
    await this.gossipTick();
    this.logger.info({ endpoint: this.card.endpoint }, "node started");
  }

  /** Replace this node's card metadata and tell every peer. */
  updateMeta(meta: Record<string, unknown>): void {
    this.cardValue = { ...this.card, meta: { ...meta } };
    for (const record of this.membership.records()) this.sendOnLink(record.link, "hello", { card: this.card });
  }

  peers(): PeerView[] {
    return this.membership.view();
  }

  peerCard(id: string): NodeCard | undefined {
    return this.membership.card(id);
  }

  health(): { id: string; incarnation: number; role: string; in_flight: number; queued: number; peers: number; uptime_ms: number } {
    return {
      id: this.id,
      incarnation: this.incarnation,
      role: this.options.role,
      in_flight: this.bulkhead.inFlight,
      queued: this.bulkhead.queued,
      peers: this.membership.size,
      uptime_ms: Date.now() - this.startedAt,
    };
  }

  /** Send a request to a peer and wait for its reply body. Retries retryable failures under one message id. */
  async request(peerId: string, op: string, args: unknown, options: RequestOptions = {}): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    const deadline = Math.min(Date.now() + timeoutMs, options.via?.deadline ?? Number.POSITIVE_INFINITY);
    const trail = options.trail ?? trailFor(this.id, options.via, options.maxHops);
    const messageId = this.nextId();
    const envelope = {
      ...this.header("request", messageId),
      deadline,
      hops: trail.hops,
      max_hops: trail.maxHops,
      path: trail.path,
      trace: options.traceId ?? options.via?.traceId ?? newTraceId(),
      body: { op, args },
    } as Envelope;
    const frame = this.encode(envelope);
    return this.requester.request({ peerId, messageId, frame, deadline, attempts: options.attempts ?? this.options.attempts, ...(options.signal ? { signal: options.signal } : {}) });
  }

  /** Graceful stop: BYE, refuse new work, drain in-flight work up to a bound, close sockets. Idempotent. */
  stop(): Promise<void> {
    this.stopPromise ??= this.doStop();
    return this.stopPromise;
  }

  private async doStop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    if (this.cardValue) {
      for (const record of this.membership.records()) this.sendOnLink(record.link, "bye", { reason: "stopping" });
      if (this.options.registryDir) await removeRegistryEntry(this.options.registryDir, this.id).catch(() => undefined);
    }
    let drainTimer: NodeJS.Timeout | undefined;
    const bound = new Promise<boolean>((resolve) => (drainTimer = setTimeout(() => resolve(false), this.options.drainTimeoutMs)));
    const drained = await Promise.race([this.bulkhead.whenIdle().then(() => true), bound]);
    clearTimeout(drainTimer);
    if (!drained) this.logger.warn({ inFlight: this.bulkhead.inFlight }, "drain bound passed; aborting remaining handlers");
    for (const key of this.bulkhead.clearQueue()) this.logger.debug({ key }, "queued request dropped at stop");
    this.responder.abortAll("node stopping");
    this.requester.failAll(`node ${this.id} stopped`);
    await Promise.all([this.membership.flushAll(this.options.lingerMs), this.routerQueue.whenEmpty()]);
    // libzmq can drop a message handed to a socket just before zmq_close (libzmq#1264) despite the
    // linger; a short settle lets the I/O thread take the last replies and BYEs first.
    await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.lingerMs, CLOSE_SETTLE_MS)));
    await this.membership.closeAll();
    await Promise.all(this.seedLinks.map((link) => link.close()));
    this.router.close();
    await this.routerDone;
    this.logger.info("node stopped");
  }

  private header(kind: MessageKind, id = this.nextId()): { v: number; kind: MessageKind; id: string; from: string; inc: number } {
    return { v: ENVELOPE_VERSION, kind, id, from: this.id, inc: this.incarnation };
  }

  private encode(envelope: Envelope): Buffer {
    const frame = encodeEnvelope(envelope, this.options.maxFrameBytes);
    if (frame.length > FRAME_WARN_BYTES) this.logger.warn({ kind: envelope.kind, bytes: frame.length }, "large frame");
    return frame;
  }

  private build<K extends MessageKind>(kind: K, body: BodyOf<K>, extra: Partial<Envelope> = {}): Buffer {
    return this.encode({ ...this.header(kind), ...extra, body } as Envelope);
  }

  private openLink(endpoint: string, routingId: string): Link {
    return new Link({
      routingId,
      endpoint,
      sendQueueCapacity: this.options.sendQueueCapacity,
      lingerMs: this.options.lingerMs,
      onFrame: (frame, link) => this.onLinkFrame(frame, link),
      logger: this.logger.child({ component: "bus:link", endpoint }),
    });
  }

  private sendOnLink<K extends MessageKind>(link: Link, kind: K, body: BodyOf<K>, extra: Partial<Envelope> = {}): boolean {
    return link.send(this.build(kind, body, extra));
  }

  private sendToPeer<K extends MessageKind>(peerId: string, kind: K, body: BodyOf<K>, extra: Partial<Envelope> = {}): void {
    const link = this.membership.link(peerId);
    if (link) this.sendOnLink(link, kind, body, extra);
  }

  /** New requests go only to routable peers; re-sends may still reach a peer that is leaving. */
  private transmit(peerId: string, frame: Buffer, first: boolean): "sent" | "busy" | "no_route" {
    const link = first ? this.membership.routableLink(peerId) : this.membership.link(peerId);
    if (!link) return "no_route";
    this.stats.count("requests_sent");
    return link.send(frame) ? "sent" : "busy";
  }

  private replyTo(to: Buffer, request: Envelope, body: BodyOf<"reply">): Buffer | undefined {
    let frame: Buffer;
    try {
      frame = this.build("reply", body, { corr: request.id, trace: request.trace });
    } catch (error) {
      if (!(error instanceof FrameTooLargeError)) throw error;
      frame = this.build("reply", { error: { code: "too_large", message: error.message, retryable: false } }, { corr: request.id, trace: request.trace });
    }
    this.routerQueue.push([to, frame]);
    return frame;
  }

  private nackTo(to: Buffer, code: NackCode, detail: string, corr: string | undefined, retryAfterMs?: number): void {
    this.stats.count(`nack_sent_${code}`);
    const body: BodyOf<"nack"> = { code, detail, retryable: isRetryableCode(code), ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }) };
    this.routerQueue.push([to, this.build("nack", body, corr === undefined ? {} : { corr })]);
  }

  private async gossipTick(): Promise<void> {
    this.cache.sweep();
    const cards = [this.card, ...this.membership.gossipCards()];
    const records = this.membership.records().filter((r) => r.state !== "connecting");
    const target = records[Math.floor(Math.random() * records.length)];
    if (target) this.sendOnLink(target.link, "gossip", { cards });
    if (records.length === 0) for (const link of this.seedLinks) this.sendOnLink(link, "hello", { card: this.card });
    const dir = this.options.registryDir;
    if (dir && !this.stopping) {
      await writeRegistryEntry(dir, this.card);
      for (const entry of await readRegistry(dir)) this.membership.learn(entry.card, "registry");
    }
  }

  private async readRouter(): Promise<void> {
    for await (const parts of this.router) {
      const [identity, frame] = parts;
      if (identity === undefined || frame === undefined || parts.length !== 2) {
        this.stats.count("bad_part_count");
        continue;
      }
      this.onRouterFrame(identity, frame);
    }
  }

  private decodeOrReject(frame: Buffer, peer: string): Envelope | FrameDecodeError {
    this.stats.count("frames_in");
    try {
      return decodeEnvelope(frame, this.options.maxFrameBytes);
    } catch (error) {
      const decodeError = error instanceof FrameDecodeError ? error : new FrameDecodeError("malformed_payload", String(error));
      this.stats.count(`bad_frame_${decodeError.code}`);
      this.logger.warn({ peer, code: decodeError.code, bytes: frame.length }, `rejected frame: ${decodeError.message}`);
      this.emit("frame:rejected", { peer, code: decodeError.code, detail: decodeError.message });
      return decodeError;
    }
  }

  private onRouterFrame(identity: Buffer, frame: Buffer): void {
    const sender = identity.toString("utf8");
    const decoded = this.decodeOrReject(frame, sender);
    if (decoded instanceof FrameDecodeError) return this.nackTo(identity, decoded.code, decoded.message, decoded.messageId);
    const envelope = decoded;
    const isClient = sender.startsWith(CLIENT_PREFIX);
    if (!isClient && envelope.from !== sender) {
      return this.nackTo(identity, "unauthorized", `envelope claims "${envelope.from}" on a connection identified as "${sender}"`, envelope.id);
    }
    if (!isClient) this.membership.seen(envelope.from, envelope.inc);
    this.dispatchInbound(identity, envelope, isClient);
  }

  private dispatchInbound(identity: Buffer, envelope: Envelope, isClient: boolean): void {
    switch (envelope.kind) {
      case "hello":
        this.membership.learn(envelope.body.card, "hello");
        this.routerQueue.push([identity, this.build("hello", { card: this.card })]);
        this.routerQueue.push([identity, this.build("gossip", { cards: [this.card, ...this.membership.gossipCards()] })]);
        return;
      case "ping":
        this.routerQueue.push([identity, this.build("pong", {}, { corr: envelope.id })]);
        return;
      case "gossip":
        if (!isClient) for (const card of envelope.body.cards) this.membership.learn(card, "gossip");
        return;
      case "bye":
        if (!isClient) this.membership.leave(envelope.from);
        return;
      case "request":
        this.stats.count("requests_received");
        this.responder.onRequest(identity, envelope);
        return;
      case "cancel":
        this.responder.onCancel(envelope);
        return;
      case "nack":
        this.requester.onNack(envelope.from, envelope);
        return;
      case "reply":
      case "pong":
        this.stats.count("misrouted");
        return;
      default:
        envelope satisfies never;
    }
  }

  private onLinkFrame(frame: Buffer, link: Link): void {
    const decoded = this.decodeOrReject(frame, link.endpoint);
    if (decoded instanceof FrameDecodeError) {
      // We cannot tell which answer was damaged: re-send what still waits on this peer (its cache replays).
      const peer = this.membership.records().find((r) => r.link === link);
      if (peer) this.requester.retransmitTo(peer.card.id);
      return;
    }
    const envelope = decoded;
    this.membership.seen(envelope.from, envelope.inc);
    switch (envelope.kind) {
      case "hello":
        this.membership.learn(envelope.body.card, "hello");
        return;
      case "gossip":
        for (const card of envelope.body.cards) this.membership.learn(card, "gossip");
        return;
      case "reply":
        this.stats.count("replies_received");
        if (!this.requester.onReply(envelope)) this.stats.count("late_replies");
        return;
      case "nack":
        this.stats.count(`nack_received_${envelope.body.code}`);
        this.requester.onNack(envelope.from, envelope);
        return;
      case "bye":
        this.membership.leave(envelope.from);
        return;
      case "pong":
        return;
      case "ping":
      case "request":
      case "cancel":
        this.stats.count("misrouted");
        return;
      default:
        envelope satisfies never;
    }
  }
}
