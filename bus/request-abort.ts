// Why and whether a handled request was abandoned, with an AbortSignal built only if the handler asks.
// An AbortController plus its deadline timer cost about as much as the rest of a small request's
// handling, and most handlers (echo, lookups) never read the signal.

export class RequestAbort {
  private reason: Error | undefined;
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly deadline: number) {}

  /** Cancelled, stopped, or past the deadline: the requester no longer waits for this reply. */
  get aborted(): boolean {
    return this.reason !== undefined || Date.now() >= this.deadline;
  }

  /** Aborted at the deadline, on CANCEL, or when the node stops — whenever it is first read. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
      else this.timer = setTimeout(() => this.abort(new Error("deadline passed")), Math.max(0, this.deadline - Date.now()));
    }
    return this.controller.signal;
  }

  /** Idempotent: the first reason wins. */
  abort(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
    this.dispose();
  }

  /** The handler finished: no deadline timer may outlive it. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
