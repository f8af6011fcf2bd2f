// Whether a handled request was abandoned, and an AbortSignal for it built only if the handler asks:
// an AbortController costs about 2 µs (as much as an Error with its stack) and most handlers never read it.

export class RequestAbort {
  private reason: Error | undefined;
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  /** `deadline` is absolute, epoch ms. */
  constructor(readonly deadline: number) {}

  /** Cancelled, stopped, or past the deadline: the requester no longer waits for the reply. */
  get aborted(): boolean {
    return this.reason !== undefined || Date.now() >= this.deadline;
  }

  /** Aborts at the deadline, on CANCEL, or when the node stops, as an eagerly built signal would. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
      // Once the handler has finished nothing may abort it, and no timer may outlive it.
      else if (!this.disposed) this.timer = setTimeout(() => this.abort(new Error("deadline passed")), Math.max(0, this.deadline - Date.now()));
    }
    return this.controller.signal;
  }

  /** The first reason wins. */
  abort(reason: Error): void {
    if (this.reason || this.disposed) return;
    this.reason = reason;
    this.controller?.abort(reason);
    clearTimeout(this.timer);
  }

  /** The handler finished. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
  }
}
