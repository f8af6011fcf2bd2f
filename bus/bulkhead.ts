// A per-node bulkhead: at most `maxConcurrent` handlers run, at most `maxQueued` wait; beyond that, busy.
export const DEFAULT_MAX_CONCURRENT = 64;
export const DEFAULT_MAX_QUEUED = 256;

/** A job returns a promise while it runs on, or nothing when it finished before returning. */
type Run = () => Promise<void> | undefined;

interface Job {
  key: string;
  run: Run;
}

export class Bulkhead {
  private running = 0;
  private readonly queue: Job[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Run or queue a job; false when both the slots and the queue are full. */
  submit(key: string, run: Run): boolean {
    if (this.running < this.maxConcurrent) {
      this.start(run);
      return true;
    }
    if (this.queue.length >= this.maxQueued) return false;
    this.queue.push({ key, run });
    return true;
  }

  /** Remove a job that has not started yet; true when it was still queued. */
  withdraw(key: string): boolean {
    const index = this.queue.findIndex((job) => job.key === key);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    return true;
  }

  /** Drop every queued job (the node is stopping) and return their keys. */
  clearQueue(): string[] {
    return this.queue.splice(0).map((job) => job.key);
  }

  /** Resolve when nothing is running or queued. */
  whenIdle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private start(run: Run): void {
    this.running++;
    let pending: Promise<void> | undefined;
    try {
      pending = run();
    } catch {
      pending = undefined; // a job's own failure is the job's business; its slot is freed all the same
    }
    // One shared settler keeps the slot accounting exact.
    if (pending) pending.then(this.finished, this.finished);
    else this.finished();
  }

  private readonly finished = (): void => {
    this.running--;
    const next = this.queue.shift();
    if (next) this.start(next.run);
    else if (this.running === 0) this.notifyIdle();
  };

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
