// This node's inbox: one ROUTER bound at the node's endpoint, the bounded queue of what goes back out
// through it (replies, NACKs, HELLO answers), and the reader loop handing each [identity, frame] on.
// The ROUTER's counterpart on the other side of every connection is a peer's Link (a DEALER).
import { Router } from "zeromq";
import type { Logger } from "pino";
import { BusConfigError } from "./errors.js";
import { receiveEach } from "./receive-loop.js";
import { SendQueue } from "./send-queue.js";

const ROUTER_HIGH_WATER_MARK = 10_000;

export interface InboxOptions {
  lingerMs: number;
  /** Messages allowed to wait in the send queue before a reply is dropped (its requester retries). */
  sendQueueCapacity: number;
  onFrame: (identity: Buffer, frame: Buffer) => void;
  /** A message with other than two parts (identity, frame) was dropped. */
  onBadPartCount: () => void;
  /** A queued message could not be routed (its peer is gone, or that peer's queue is full). */
  onSendError: (error: unknown) => void;
  logger: Logger;
  /** A secured node's context and CURVE server options (curve.ts). */
  socketOptions?: Record<string, unknown>;
}

export class Inbox {
  readonly queue: SendQueue;
  private readonly router: Router;
  private readerDone: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(private readonly options: InboxOptions) {
    this.router = new Router({ mandatory: true, handover: true, linger: options.lingerMs, sendHighWaterMark: ROUTER_HIGH_WATER_MARK, receiveHighWaterMark: ROUTER_HIGH_WATER_MARK, sendTimeout: 0, ...options.socketOptions });
    this.queue = new SendQueue(this.router, options.sendQueueCapacity, options.onSendError);
  }

  /** Bind and start reading; resolves to the endpoint actually bound (the port chosen for "*"). */
  async bind(address: string): Promise<string> {
    await this.router.bind(address);
    const bound = this.router.lastEndpoint;
    if (!bound) throw new BusConfigError(`binding ${address} gave no endpoint`);
    this.readerDone = this.read().catch((error: unknown) => {
      if (!this.closing) this.options.logger.error({ err: error }, "router reader stopped");
    });
    return bound;
  }

  /** Close the socket (with its finite linger) and wait for the reader to end. */
  async close(): Promise<void> {
    this.closing = true;
    this.router.close();
    await this.readerDone;
  }

  private read(): Promise<void> {
    return receiveEach(this.router, (parts) => {
      const [identity, frame] = parts;
      if (identity === undefined || frame === undefined || parts.length !== 2) return this.options.onBadPartCount();
      this.options.onFrame(identity, frame);
    });
  }
}
