// A mesh node: one ROUTER inbox (bind), one DEALER link per peer (connect), membership, liveness,
// request/reply with de-duplication, and a graceful, idempotent stop. No node is special.
import { EventEmitter } from "node:events";
import { hostname } from "node:os";
import { parseSeed } from "./curve.js";
import { NodeSecurity } from "./node-security.js";
import pino, { type Logger } from "pino";
import { Bulkhead } from "./bulkhead.js";
import { Discovery } from "./discovery.js";
import { Inbox } from "./inbox.js";
import { createMessageIdSource, newClientId, newTraceId } from "./ids.js";
import { Link } from "./link.js";
import { Membership, type PeerView } from "./membership.js";
import { parseNodeOptions, type NodeOptions, type NodeOptionsInput } from "./node-options.js";
import { LocalRegistry } from "./registry.js";
import { ReplyCache } from "./reply-cache.js";
import { trailFor } from "./request-context.js";
import { Requester } from "./requester.js";
import { Responder, type Authorizer, type Handler } from "./responder.js";
import { NodeStats } from "./stats.js";
import { ENVELOPE_VERSION, type BodyOf, type EnvelopeOf, type MessageKind, type NodeCard } from "./wire/schema.js";
import { Inbound } from "./inbound.js";
import { Outbound, type EnvelopeExtras } from "./outbound.js";
import { resolveAdvertisedEndpoint } from "./endpoint.js";
import { stopParts } from "./node-stop.js";
import type { HandleOptions, NodeEvents, RequestOptions } from "./node-types.js";

export type { HandleOptions, NodeEvents, RequestOptions } from "./node-types.js";

export class MeshNode extends EventEmitter<NodeEvents> {
  readonly options: NodeOptions;
  readonly logger: Logger;
  readonly stats = new NodeStats();
  private readonly inbox: Inbox;
  private readonly handlers = new Map<string, Handler>();
  private readonly retention = new Map<string, number>();
  private authorizer: Authorizer | undefined;
  private readonly nextId = createMessageIdSource();
  private readonly requester: Requester;
  private readonly responder: Responder;
  private readonly bulkhead: Bulkhead;
  private readonly cache: ReplyCache;
  private readonly membership: Membership;
  private readonly outbound: Outbound;
  private readonly inbound: Inbound;
  private readonly discovery: Discovery;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private stopPromise: Promise<void> | undefined;
  private readonly startedAt = Date.now();
  readonly incarnation = Date.now();

  /** A CURVE-secured node's context, ZAP handler, keys and revoked members (node-security.ts); null when not secured. */
  private readonly secured: NodeSecurity | null;

  constructor(input: NodeOptionsInput) {
    super();
    this.options = parseNodeOptions(input);
    const base = input.logger ?? pino({ level: "silent" });
    this.logger = base.child({ component: "bus:node", node: this.options.id });
    const curve = this.options.curve;
    this.secured = curve ? new NodeSecurity(curve, this.logger, () => this.stats.count("curve_refused")) : null;
    this.inbox = new Inbox({
      ...(this.secured ? { socketOptions: this.secured.serverSocketOptions() } : {}),
      lingerMs: this.options.lingerMs,
      sendQueueCapacity: this.options.sendQueueCapacity * 4,
      onFrame: (identity, frame) => this.inbound.onRouterFrame(identity, frame),
      onBadPartCount: () => this.stats.count("bad_part_count"),
      onSendError: (error) => {
        this.stats.count("router_send_failed");
        this.logger.debug({ err: error }, "reply could not be routed (peer gone or its queue full)");
      },
      logger: this.logger,
    });
    this.bulkhead = new Bulkhead(this.options.maxConcurrent, this.options.maxQueued);
    this.cache = new ReplyCache(this.options.replyCacheTtlMs, this.options.replyCacheMaxEntries);
    this.outbound = new Outbound({
      id: this.options.id,
      incarnation: this.incarnation,
      maxFrameBytes: this.options.maxFrameBytes,
      nextId: this.nextId,
      routerQueue: this.inbox.queue,
      stats: this.stats,
      logger: this.logger,
    });
    this.requester = new Requester({
      transmit: (peerId, frame, first) => this.transmit(peerId, frame, first),
      cancel: (peerId, messageId) => this.sendToPeer(peerId, "cancel", {}, { corr: messageId }),
      logger: this.logger.child({ component: "bus:requester" }),
      countRetry: () => this.stats.count("retries"),
      countRetransmit: () => this.stats.count("retransmits"),
    });
    this.responder = new Responder({
      selfId: this.options.id,
      handlers: this.handlers,
      retainReplyMs: (op) => this.retention.get(op) ?? 0,
      bulkhead: this.bulkhead,
      cache: this.cache,
      isStopping: () => this.stopping,
      reply: (to, request, body) => this.outbound.reply(to, request, body),
      resend: (to, frame) => void this.inbox.queue.push([to, frame]),
      nack: (to, code, detail, corr, retryAfterMs) => this.outbound.nack(to, code, detail, corr, retryAfterMs),
      logger: this.logger.child({ component: "bus:responder" }),
      count: (event) => this.stats.count(event),
      identify: (to, request) => this.identify(to, request),
      authorizer: () => this.authorizer,
    });
    this.membership = new Membership(
      {
        selfId: this.options.id,
        openLink: (card) => this.openLink(card.endpoint, this.options.id, card.curve_key, card.id),
        ...(this.secured ? { admits: (card: NodeCard) => (this.secured as NodeSecurity).admits(card) } : {}),
        sendHello: (link) => this.outbound.onLink(link, "hello", { card: this.card }),
        sendPing: (link) => this.outbound.onLink(link, "ping", {}),
        failPending: (peerId, error) => this.requester.failPeer(peerId, error),
        dialRoles: this.options.dialRoles,
        events: {
          joined: (card) => this.emit("peer:join", card),
          left: (card, reason) => this.emit("peer:leave", card, reason),
          stateChanged: (card, state) => this.emit("peer:state", card, state),
        },
        logger: this.logger.child({ component: "bus:membership" }),
      },
      this.options,
    );
    this.discovery = new Discovery({
      membership: this.membership,
      outbound: this.outbound,
      seeds: this.options.seeds,
      registry: this.options.registryDir ? new LocalRegistry(this.options.registryDir) : undefined,
      openSeedLink: (seed) => {
        const { endpoint, key } = parseSeed(seed);
        return this.openLink(endpoint, newClientId(), key);
      },
      isStopping: () => this.stopping,
    });
    this.inbound = new Inbound({
      maxFrameBytes: this.options.maxFrameBytes,
      card: () => this.card,
      membership: this.membership,
      requester: this.requester,
      responder: this.responder,
      outbound: this.outbound,
      stats: this.stats,
      logger: this.logger,
      rejected: (info) => this.emit("frame:rejected", info),
      refuses: (sender) => this.secured?.refuses(sender) ?? false,
    });
    this.handle("ping", () => this.health());
    this.handle("peers", () => ({ self: this.card, peers: this.membership.view() }));
  }

  get id(): string {
    return this.options.id;
  }

  get card(): NodeCard {
    return this.discovery.card;
  }

  get endpoint(): string {
    return this.card.endpoint;
  }

  /** Register the handler of an op. Handlers get the request's args and its context. */
  handle(op: string, handler: Handler, options: HandleOptions = {}): void {
    this.handlers.set(op, handler);
    if (options.retainReplyMs) this.retention.set(op, options.retainReplyMs);
  }

  /** Drops a finished reply kept for a sender (it acknowledged it); true when there was one. */
  forgetReply(from: string, messageId: string): boolean {
    return this.cache.forget(from, messageId);
  }

  /** Decide, before any handler runs, which requests may run; a refusal is a NACK `unauthorized`. */
  authorize(authorizer: Authorizer | undefined): void {
    this.authorizer = authorizer;
  }

  /** The sender's key on a secured node: a member's card key, or a client's key proven by `auth` (PROTOCOL.md §11b). */
  private identify(to: Buffer, request: EnvelopeOf<"request">): { principal?: string | undefined; refused?: string } {
    return this.secured ? this.secured.identify(to, request, () => this.membership.card(request.from)?.curve_key) : {};
  }

  /** Bind, announce and start discovery. Resolves when the inbox is reachable. */
  async start(): Promise<void> {
    // No connection is taken before the ZAP handler can check it.
    await this.secured?.zap.ready;
    const bound = await this.inbox.bind(this.options.bind);
    this.discovery.begin({
      id: this.options.id,
      incarnation: this.incarnation,
      role: this.options.role,
      endpoint: resolveAdvertisedEndpoint(bound, this.options.advertise),
      protocols: [ENVELOPE_VERSION],
      meta: { ...this.options.meta },
      pid: process.pid,
      host: hostname(),
      ...(this.secured ? { curve_key: this.secured.keys.publicKey } : {}),
    });
    this.timers.push(setInterval(() => this.membership.tick(), Math.max(10, Math.floor(this.options.heartbeatMs / 2))));
    this.timers.push(setInterval(() => this.gossipTick().catch((e: unknown) => this.logger.warn({ err: e }, "gossip tick failed")), this.options.gossipMs));
    await this.gossipTick();
    this.logger.info({ endpoint: this.card.endpoint }, "node started");
  }

  /** Replace this node's card metadata and tell every peer. */
  updateMeta(meta: Record<string, unknown>): void {
    this.discovery.updateMeta(meta);
  }

  peers(): PeerView[] {
    return this.membership.view();
  }

  /** Changes whenever peers() would list other peers, states or cards; cache what you derive from it by this. */
  get peersVersion(): number {
    return this.membership.version;
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
    const messageId = options.messageId ?? this.nextId();
    const trace = options.traceId ?? options.via?.traceId ?? newTraceId();
    const fields = { deadline, hops: trail.hops, max_hops: trail.maxHops, path: trail.path, trace };
    const frame = this.outbound.encode(this.outbound.envelope("request", { op, args }, fields, messageId));
    // No spread of a conditional literal: on Node 20 that costs more than the rest of this object.
    return this.requester.request({ peerId, messageId, frame, deadline, attempts: options.attempts ?? this.options.attempts, signal: options.signal });
  }

  /** Graceful stop: BYE, refuse new work, drain in-flight work up to a bound, close sockets. Idempotent. */
  stop(): Promise<void> {
    this.stopPromise ??= this.doStop();
    return this.stopPromise;
  }

  private async doStop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    await stopParts({ id: this.id, options: this.options, logger: this.logger, discovery: this.discovery, membership: this.membership, outbound: this.outbound, bulkhead: this.bulkhead, responder: this.responder, requester: this.requester, inbox: this.inbox, secured: this.secured });
  }

  private openLink(endpoint: string, routingId: string, serverKey?: string, peerId?: string): Link {
    const secured = this.secured && serverKey ? { socketOptions: this.secured.clientSocketOptions(serverKey) } : {};
    return new Link({
      ...secured,
      routingId,
      endpoint,
      // A request or its reply may have been lost with the old connection: send the unanswered ones again
      // now, under their ids (the peer's reply cache answers those it has run), rather than after an attempt's timeout.
      ...(peerId ? { onReconnected: () => this.requester.retransmitTo(peerId), keepAlive: { waiting: () => this.requester.waitingOn(peerId), ping: (link: Link) => this.outbound.onLink(link, "ping", {}) } } : {}),
      sendQueueCapacity: this.options.sendQueueCapacity,
      lingerMs: this.options.lingerMs,
      onFrame: (frame, link) => this.inbound.onLinkFrame(frame, link),
      logger: this.logger.child({ component: "bus:link", endpoint }),
    });
  }

  private sendToPeer<K extends MessageKind>(peerId: string, kind: K, body: BodyOf<K>, extra: EnvelopeExtras = {}): void {
    const link = this.membership.link(peerId);
    if (link) this.outbound.onLink(link, kind, body, extra);
  }

  /** New requests go only to routable peers; re-sends may still reach a peer that is leaving. */
  private transmit(peerId: string, frame: Buffer, first: boolean): "sent" | "busy" | "no_route" {
    const link = first ? this.membership.routableLink(peerId) : this.membership.link(peerId);
    if (!link) return "no_route";
    this.stats.count("requests_sent");
    return link.send(frame) ? "sent" : "busy";
  }

  private async gossipTick(): Promise<void> {
    this.cache.sweep();
    // A key taken out of the keyring cuts its holder off within one gossip period.
    this.secured?.dropRevoked(this.membership);
    await this.discovery.tick();
  }
}
