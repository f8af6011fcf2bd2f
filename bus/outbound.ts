// Building and sending this node's frames: one place that stamps the envelope header, encodes,
// warns about large frames, and queues onto a link (DEALER) or back to an identity (ROUTER).
import type { Logger } from "pino";
import { FrameTooLargeError } from "./errors.js";
import type { Link } from "./link.js";
import type { SendQueue } from "./send-queue.js";
import type { NodeStats } from "./stats.js";
import { encodeEnvelope } from "./wire/codec.js";
import { FRAME_WARN_BYTES } from "./wire/frame.js";
import { isRetryableCode, type NackCode } from "./wire/nack-codes.js";
import { ENVELOPE_VERSION, type BodyOf, type Envelope, type MessageKind } from "./wire/schema.js";

export interface OutboundDeps {
  id: string;
  incarnation: number;
  maxFrameBytes: number;
  nextId: () => string;
  routerQueue: SendQueue;
  stats: NodeStats;
  logger: Logger;
}

export type EnvelopeExtras = Partial<Pick<Envelope, "corr" | "deadline" | "hops" | "max_hops" | "path" | "trace">>;

export class Outbound {
  constructor(private readonly deps: OutboundDeps) {}

  header(kind: MessageKind, id = this.deps.nextId()): { v: number; kind: MessageKind; id: string; from: string; inc: number } {
    return { v: ENVELOPE_VERSION, kind, id, from: this.deps.id, inc: this.deps.incarnation };
  }

  encode(envelope: Envelope): Buffer {
    const frame = encodeEnvelope(envelope, this.deps.maxFrameBytes);
    if (frame.length > FRAME_WARN_BYTES) this.deps.logger.warn({ kind: envelope.kind, bytes: frame.length }, "large frame");
    return frame;
  }

  /**
   * Header, `extra`, body: the wire order. Object.assign, not `{ ...header, ...extra, body }`: on Node 20
   * a literal that opens with a spread costs about 0.5 µs per property after it (3.4 µs for a request).
   */
  envelope<K extends MessageKind>(kind: K, body: BodyOf<K>, extra: EnvelopeExtras = {}, id = this.deps.nextId()): Envelope {
    return Object.assign(this.header(kind, id), extra, { body }) as Envelope;
  }

  build<K extends MessageKind>(kind: K, body: BodyOf<K>, extra: EnvelopeExtras = {}): Buffer {
    return this.encode(this.envelope(kind, body, extra));
  }

  onLink<K extends MessageKind>(link: Link, kind: K, body: BodyOf<K>, extra: EnvelopeExtras = {}): boolean {
    return link.send(this.build(kind, body, extra));
  }

  toIdentity<K extends MessageKind>(identity: Buffer, kind: K, body: BodyOf<K>, extra: EnvelopeExtras = {}): void {
    this.deps.routerQueue.push([identity, this.build(kind, body, extra)]);
  }

  /** Send a reply; a result too large for a frame becomes a `too_large` error reply. Returns the frame sent. */
  reply(to: Buffer, request: Envelope, body: BodyOf<"reply">): Buffer {
    const extra = { corr: request.id, trace: request.trace };
    let frame: Buffer;
    try {
      frame = this.build("reply", body, extra);
    } catch (error) {
      if (!(error instanceof FrameTooLargeError)) throw error;
      frame = this.build("reply", { error: { code: "too_large", message: error.message, retryable: false } }, extra);
    }
    this.deps.routerQueue.push([to, frame]);
    return frame;
  }

  nack(to: Buffer, code: NackCode, detail: string, corr: string | undefined, retryAfterMs?: number): void {
    this.deps.stats.count(`nack_sent_${code}`);
    const body: BodyOf<"nack"> = { code, detail, retryable: isRetryableCode(code), ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }) };
    this.toIdentity(to, "nack", body, corr === undefined ? {} : { corr });
  }
}
