// A client of one node: not a mesh member (its routing id starts with "~"), it only sends requests
// and reads replies. The CLI uses it to inspect and ping a mesh without joining it.
import pino, { type Logger } from "pino";
import { AuthRefusedError, FrameDecodeError } from "./errors.js";
import { createMessageIdSource, newClientId, newTraceId } from "./ids.js";
import { authMac, sharedSecret } from "./auth.js";
import { curveClientOptions, type CurveKeys } from "./curve.js";
import { Link } from "./link.js";
import { DEFAULT_MAX_HOPS } from "./request-context.js";
import { DEFAULT_ATTEMPTS, DEFAULT_REQUEST_TIMEOUT_MS, Requester } from "./requester.js";
import { decodeEnvelope, encodeEnvelope } from "./wire/codec.js";
import { DEFAULT_MAX_FRAME_BYTES } from "./wire/frame.js";
import { ENVELOPE_VERSION, type Envelope } from "./wire/schema.js";

export interface ClientOptions {
  endpoint: string;
  timeoutMs?: number;
  attempts?: number;
  maxFrameBytes?: number;
  logger?: Logger;
  /** A secured node: this client's key pair (its public key must be in the node's keyring) and the node's public key. */
  curve?: CurveKeys & { serverKey: string };
}

const CLIENT_QUEUE_CAPACITY = 1_000;
const CLIENT_LINGER_MS = 0;

export class MeshClient {
  readonly id = newClientId();
  private readonly incarnation = Date.now();
  private readonly nextId = createMessageIdSource();
  private readonly link: Link;
  private readonly requester: Requester;
  private readonly maxFrameBytes: number;
  /** On a secured node: the X25519 secret shared with it, which signs each request's `auth` (PROTOCOL.md §11b). */
  private readonly authSecret: Buffer | undefined;

  constructor(private readonly options: ClientOptions) {
    const logger = (options.logger ?? pino({ level: "silent" })).child({ component: "bus:client" });
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.authSecret = options.curve ? sharedSecret(options.curve, options.curve.serverKey) : undefined;
    this.link = new Link({
      routingId: this.id,
      endpoint: options.endpoint,
      sendQueueCapacity: CLIENT_QUEUE_CAPACITY,
      lingerMs: CLIENT_LINGER_MS,
      onFrame: (frame) => this.onFrame(frame),
      logger,
      // The connection dropped and is back: the unanswered requests go again under their ids.
      onReconnected: () => this.requester.retransmitTo(options.endpoint),
      // While requests wait: a ping when the node is quiet, a redial when it stays so (PROTOCOL.md §8).
      keepAlive: { waiting: () => this.requester.inFlight > 0, ping: (link) => link.send(this.encode(Object.assign(this.header("ping"), { body: {} }) as Envelope)) },
      ...(options.curve
        ? {
            socketOptions: curveClientOptions(options.curve, options.curve.serverKey),
            // A key the node does not admit fails the waiting requests at once, rather than at their deadline.
            onAuthRefused: () => this.requester.failPeer(options.endpoint, this.refusedError()),
          }
        : {}),
    });
    this.requester = new Requester({
      transmit: (_peer, frame) => (this.link.send(frame) ? "sent" : "busy"),
      cancel: (_peer, corr) => this.link.send(this.encode(Object.assign(this.header("cancel"), { corr, body: {} }) as Envelope)),
      logger,
      countRetry: () => undefined,
    });
  }

  private refusedError(): AuthRefusedError {
    return new AuthRefusedError(`${this.options.endpoint} refused this client's CURVE key: it is not in the node's keyring`);
  }

  async request(op: string, args: unknown = {}, options: { timeoutMs?: number; signal?: AbortSignal; maxHops?: number } = {}): Promise<unknown> {
    // The node refused our key in the handshake, and libzmq will not try again: a new client may.
    if (this.link.authRefused) throw this.refusedError();
    const deadline = Date.now() + (options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    const messageId = this.nextId();
    const trace = newTraceId();
    const auth = this.authSecret && this.options.curve ? { auth: { key: this.options.curve.publicKey, mac: authMac(this.authSecret, { id: messageId, from: this.id, trace, op }) } } : {};
    // Object.assign rather than a leading spread: see Outbound.envelope.
    const envelope = Object.assign(this.header("request", messageId), {
      deadline,
      hops: 1,
      max_hops: options.maxHops ?? DEFAULT_MAX_HOPS,
      path: [this.id],
      trace,
      ...auth,
      body: { op, args },
    }) as Envelope;
    return this.requester.request({
      peerId: this.options.endpoint,
      messageId,
      frame: this.encode(envelope),
      deadline,
      attempts: this.options.attempts ?? DEFAULT_ATTEMPTS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  close(): Promise<void> {
    this.requester.failAll("client closed");
    return this.link.close();
  }

  private header(kind: Envelope["kind"], id = this.nextId()) {
    return { v: ENVELOPE_VERSION, kind, id, from: this.id, inc: this.incarnation };
  }

  private encode(envelope: Envelope): Buffer {
    return encodeEnvelope(envelope, this.maxFrameBytes);
  }

  private onFrame(frame: Buffer): void {
    let envelope: Envelope;
    try {
      envelope = decodeEnvelope(frame, this.maxFrameBytes);
    } catch (error) {
      if (error instanceof FrameDecodeError) this.requester.retransmitTo(this.options.endpoint);
      return;
    }
    if (envelope.kind === "reply") this.requester.onReply(envelope);
    else if (envelope.kind === "nack") this.requester.onNack(this.options.endpoint, envelope);
  }
}
