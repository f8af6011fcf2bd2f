// A bounded FIFO in front of one socket: zeromq.js allows one send() at a time per socket (EBUSY otherwise).
export interface SendableSocket {
  send(message: Buffer | Buffer[]): Promise<void>;
}

export class SendQueue {
  private readonly items: (Buffer | Buffer[])[] = [];
  private draining = false;
  private closed = false;
  private emptyWaiters: (() => void)[] = [];

  constructor(
    private readonly socket: SendableSocket,
    /** Maximum messages waiting; push() refuses beyond it so callers see back-pressure, not growth. */
    readonly capacity: number,
    private readonly onSendError: (error: unknown, message: Buffer | Buffer[]) => void,
  ) {}

  get length(): number {
    return this.items.length;
  }

  /** Queue a message; false when the queue is full or closed. */
  push(message: Buffer | Buffer[]): boolean {
    if (this.closed || this.items.length >= this.capacity) return false;
    this.items.push(message);
    if (!this.draining) void this.drain();
    return true;
  }

  /** Resolve once every queued message has been handed to the socket (or the queue closed). */
  whenEmpty(): Promise<void> {
    if (this.items.length === 0 && !this.draining) return Promise.resolve();
    return new Promise((resolve) => this.emptyWaiters.push(resolve));
  }

  /** Drop whatever is still waiting; later pushes are refused. */
  close(): number {
    this.closed = true;
    const dropped = this.items.length;
    this.items.length = 0;
    const waiters = this.emptyWaiters;
    this.emptyWaiters = [];
    for (const resolve of waiters) resolve();
    return dropped;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.items.length > 0 && !this.closed) {
        const message = this.items.shift() as Buffer | Buffer[];
        try {
          await this.socket.send(message);
        } catch (error) {
          this.onSendError(error, message);
        }
      }
    } finally {
      this.draining = false;
      const waiters = this.emptyWaiters;
      this.emptyWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
