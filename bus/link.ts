// An outbound link: one DEALER connected to one peer's ROUTER inbox, with its own reader loop and
// bounded send queue. Zyre-style, the DEALER's routing id is this node's id (or "~…" for a client).
import { Dealer } from "zeromq";
import type { Logger } from "pino";
import { SendQueue } from "./send-queue.js";

export interface LinkOptions {
  routingId: string;
  endpoint: string;
  /** Messages allowed to wait in this link's send queue before callers get `busy`. */
  sendQueueCapacity: number;
  lingerMs: number;
  /** Called with each frame the peer sends back on this connection. */
  onFrame: (frame: Buffer, link: Link) => void;
  logger: Logger;
  /** A secured node's context and CURVE client options for this peer (curve.ts). */
  socketOptions?: Record<string, unknown>;
  /** Called when the peer refuses this link's CURVE key in the handshake (it is not in the peer's keyring). */
  onAuthRefused?: () => void;
  /**
   * Called when the connection is up again after it dropped (a peer restart, a network cut, a connection
   * reset by a corrupted segment): whatever was in flight on the old connection may be lost.
   */
  onReconnected?: () => void;
}

export const LINK_RECONNECT_MS = 100;
export const LINK_RECONNECT_MAX_MS = 2_000;
/**
 * ZMTP heartbeats on every connection (PING every ZMTP_HEARTBEAT_MS; no traffic for ZMTP_HEARTBEAT_TIMEOUT_MS
 * closes it). A CURVE frame that a corrupted segment made undecryptable stops libzmq's session without
 * closing the TCP connection: both ends would wait on it forever. The heartbeat finds such a connection
 * dead and closes it, the link connects again, and the requests lost with it are sent again (onReconnected).
 */
export const ZMTP_HEARTBEAT_MS = 1_000;
export const ZMTP_HEARTBEAT_TIMEOUT_MS = 3_000;
// libzmq's own queue below ours; ours is the one that reports back-pressure.
const SOCKET_HIGH_WATER_MARK = 10_000;

export class Link {
  readonly endpoint: string;
  private readonly socket: Dealer;
  private readonly queue: SendQueue;
  private readonly readerDone: Promise<void>;
  private closing = false;

  constructor(private readonly options: LinkOptions) {
    this.endpoint = options.endpoint;
    this.socket = new Dealer({
      routingId: options.routingId,
      linger: options.lingerMs,
      sendHighWaterMark: SOCKET_HIGH_WATER_MARK,
      receiveHighWaterMark: SOCKET_HIGH_WATER_MARK,
      reconnectInterval: LINK_RECONNECT_MS,
      reconnectMaxInterval: LINK_RECONNECT_MAX_MS,
      heartbeatInterval: ZMTP_HEARTBEAT_MS,
      heartbeatTimeout: ZMTP_HEARTBEAT_TIMEOUT_MS,
      // Queue only to a live connection: while the peer is unreachable, our bounded queue fills and
      // callers get `busy`, instead of frames piling up in libzmq for a peer that may never return.
      immediate: true,
      ...options.socketOptions,
    });
    this.socket.connect(options.endpoint);
    this.queue = new SendQueue(this.socket, options.sendQueueCapacity, (error) => {
      // A send still waiting when the link closes fails by design; only report real failures.
      if (!this.closing) options.logger.warn({ err: error, endpoint: options.endpoint }, "send on link failed");
    });
    if (options.onAuthRefused || options.onReconnected) void this.watchConnection();
    this.readerDone = this.readLoop().catch((error: unknown) => {
      if (!this.closing) options.logger.error({ err: error, endpoint: options.endpoint }, "link reader stopped");
    });
  }

  /** The peer refused this link's key in its last handshake (and none succeeded since). */
  authRefused = false;

  /**
   * libzmq reports a refused CURVE handshake as an event, and does not try that connection again: the
   * link remembers it, so that later requests fail at once too. A handshake after a disconnect is a
   * connection re-established, which the link reports (onReconnected).
   */
  private async watchConnection(): Promise<void> {
    let dropped = false;
    try {
      for await (const event of this.socket.events) {
        if (event.type === "disconnect") dropped = true;
        else if (event.type === "handshake") {
          this.authRefused = false;
          if (dropped) {
            dropped = false;
            this.options.onReconnected?.();
          }
        } else if (event.type === "handshake:error:auth") {
          this.authRefused = true;
          this.options.onAuthRefused?.();
        }
      }
    } catch (error) {
      if (!this.closing) this.options.logger.debug({ err: error, endpoint: this.endpoint }, "link event watch stopped");
    }
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Queue a frame; false when the queue is full (the caller reports `busy`). */
  send(frame: Buffer): boolean {
    return this.queue.push(frame);
  }

  /** Resolve when the send queue has been handed to the socket, or after `timeoutMs`. */
  async flush(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([this.queue.whenEmpty(), timeout]);
    clearTimeout(timer);
  }

  /** Close the socket with its finite linger; idempotent. */
  async close(): Promise<void> {
    if (this.closing) return this.readerDone;
    this.closing = true;
    this.queue.close();
    this.socket.close();
    return this.readerDone;
  }

  private async readLoop(): Promise<void> {
    for await (const parts of this.socket) {
      const frame = parts[0];
      if (frame === undefined || parts.length !== 1) {
        this.options.logger.warn({ endpoint: this.endpoint, parts: parts.length }, "dropped a message with an unexpected part count");
        continue;
      }
      this.options.onFrame(frame, this);
    }
  }
}
