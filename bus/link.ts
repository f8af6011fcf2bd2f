// An outbound link: one DEALER connected to one peer's ROUTER inbox, with its own reader loop and
// bounded send queue. Zyre-style, the DEALER's routing id is this node's id (or "~…" for a client).
import { Dealer } from "zeromq";
import type { Logger } from "pino";
import { receiveEach } from "./receive-loop.js";
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
  /**
   * The link's own keep-alive, for a connection that goes quiet without closing: while `waiting()` says
   * answers are due on it, a link that hears nothing for KEEPALIVE_PING_MS sends `ping` (answered on the
   * same connection), and one that hears nothing for KEEPALIVE_REDIAL_MS redials.
   */
  keepAlive?: { waiting: () => boolean; ping: (link: Link) => void };
}

export const KEEPALIVE_PING_MS = 1_000;
export const KEEPALIVE_REDIAL_MS = 3_000;

export const LINK_RECONNECT_MS = 100;
export const LINK_RECONNECT_MAX_MS = 2_000;
// libzmq's own queue below ours; ours is the one that reports back-pressure.
const SOCKET_HIGH_WATER_MARK = 10_000;

/**
 * A connection can go quiet without closing: a segment corrupted in a ZMTP length field leaves libzmq's
 * decoder waiting for bytes that never come, on a TCP connection that stays open. The mesh finds such a
 * connection by its own keep-alive (a ping when answers are due and nothing came back for 1 s, a redial
 * after 3 s: PROTOCOL.md §8) and redials it (`redial`). libzmq's ZMTP heartbeats would find it too, but in libzmq 4.3.5 a heartbeat timer that
 * fires after a connection's input stopped aborts the process (`Assertion failed: !_io_error`,
 * stream_engine_base.cpp:310; zeromq/libzmq#4364), so no socket of the mesh enables them.
 */
export class Link {
  readonly endpoint: string;
  private socket: Dealer;
  private readonly queue: SendQueue;
  /** The read loops still running: the current socket's, and a dropped one's until it ends. */
  private readonly readers = new Set<Promise<void>>();
  private closing = false;
  private lastHeardAt = Date.now();
  private lastPingAt = 0;
  private readonly keepAliveTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LinkOptions) {
    this.endpoint = options.endpoint;
    this.socket = this.dial(false);
    // Sends go to whichever socket is current: a redial does not lose the queue.
    this.queue = new SendQueue({ send: (message) => this.socket.send(message) }, options.sendQueueCapacity, (error) => {
      // A send still waiting when the link closes (or its old socket is dropped) fails by design; only report real failures.
      if (!this.closing) options.logger.debug({ err: error, endpoint: options.endpoint }, "send on link failed");
    });
    if (options.keepAlive) {
      this.keepAliveTimer = setInterval(() => this.checkQuiet(options.keepAlive as NonNullable<LinkOptions["keepAlive"]>), KEEPALIVE_PING_MS / 4);
      this.keepAliveTimer.unref();
    }
  }

  private checkQuiet(keepAlive: NonNullable<LinkOptions["keepAlive"]>): void {
    const now = Date.now();
    if (!keepAlive.waiting()) {
      this.lastHeardAt = now;
      return;
    }
    const quiet = now - this.lastHeardAt;
    if (quiet >= KEEPALIVE_REDIAL_MS) {
      this.lastHeardAt = now;
      this.redial();
    } else if (quiet >= KEEPALIVE_PING_MS && now - this.lastPingAt >= KEEPALIVE_PING_MS) {
      this.lastPingAt = now;
      keepAlive.ping(this);
    }
  }

  private dial(redialed: boolean): Dealer {
    const socket = new Dealer({
      routingId: this.options.routingId,
      linger: this.options.lingerMs,
      sendHighWaterMark: SOCKET_HIGH_WATER_MARK,
      receiveHighWaterMark: SOCKET_HIGH_WATER_MARK,
      reconnectInterval: LINK_RECONNECT_MS,
      reconnectMaxInterval: LINK_RECONNECT_MAX_MS,
      // Queue only to a live connection: while the peer is unreachable, our bounded queue fills and
      // callers get `busy`, instead of frames piling up in libzmq for a peer that may never return.
      immediate: true,
      ...this.options.socketOptions,
    });
    socket.connect(this.options.endpoint);
    if (this.options.onAuthRefused || this.options.onReconnected) void this.watchConnection(socket, redialed);
    const reader: Promise<void> = this.readLoop(socket)
      .catch((error: unknown) => {
        if (!this.closing && socket === this.socket) this.options.logger.error({ err: error, endpoint: this.endpoint }, "link reader stopped");
      })
      .finally(() => this.readers.delete(reader));
    this.readers.add(reader);
    return socket;
  }

  /**
   * Drop the connection and dial the peer anew, keeping the send queue: for a connection that went quiet
   * without closing. The first handshake of the new connection counts as a reconnection (onReconnected),
   * so what was in flight on the old one is sent again.
   */
  redial(): void {
    if (this.closing) return;
    const old = this.socket;
    this.socket = this.dial(true);
    old.linger = 0;
    old.close();
    this.options.logger.info({ endpoint: this.endpoint }, "redialled a quiet connection");
  }

  /** The peer refused this link's key in its last handshake (and none succeeded since). */
  authRefused = false;

  /**
   * libzmq reports a refused CURVE handshake as an event, and does not try that connection again: the
   * link remembers it, so that later requests fail at once too. A handshake after a disconnect is a
   * connection re-established, which the link reports (onReconnected).
   */
  private async watchConnection(socket: Dealer, redialed: boolean): Promise<void> {
    let dropped = redialed;
    try {
      for await (const event of socket.events) {
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
    if (!this.closing) {
      this.closing = true;
      clearInterval(this.keepAliveTimer);
      this.queue.close();
      this.socket.close();
    }
    await Promise.all([...this.readers]);
  }

  private readLoop(socket: Dealer): Promise<void> {
    return receiveEach(socket, (parts) => {
      const frame = parts[0];
      if (frame === undefined || parts.length !== 1) {
        this.options.logger.warn({ endpoint: this.endpoint, parts: parts.length }, "dropped a message with an unexpected part count");
        return;
      }
      this.lastHeardAt = Date.now();
      this.options.onFrame(frame, this);
    });
  }
}
