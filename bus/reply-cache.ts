// De-duplication of requests: (sender, message id) → running, or done with the encoded reply.
// A retried request is answered from here and never executed twice.
/** How long an entry lives when its request carries no deadline; a running entry lives at least this long. */
export const DEFAULT_REPLY_CACHE_TTL_MS = 60_000;
export const DEFAULT_REPLY_CACHE_MAX_ENTRIES = 20_000;
/** Bound on the reply bytes held; beyond it the oldest replies go first. */
export const DEFAULT_REPLY_CACHE_MAX_BYTES = 8 * 1024 * 1024;
/**
 * A finished reply is kept until its request's deadline, and at least this long: a retry can only come
 * before the deadline (after it the deadline guard refuses the request before the cache is asked).
 * Replies kept for a fixed minute were the largest source of old-generation garbage under load.
 */
export const REPLY_GRACE_MS = 5_000;

/** One request's mark; a running mark turns into its finished reply in place (no second Map write). */
interface Entry {
  readonly key: string;
  state: "running" | "done";
  reply: Buffer | undefined;
  expiresAt: number;
  /** Taken out of the Map (forgotten, expired, evicted, begun anew): what doneOrder asks, without a lookup. */
  removed: boolean;
}

export type CacheLookup = { state: "new" } | { state: "running" } | { state: "done"; reply: Buffer };

const NEW: CacheLookup = Object.freeze({ state: "new" });
const RUNNING: CacheLookup = Object.freeze({ state: "running" });

export class ReplyCache {
  /** By key, in the order requests began (a running mark's place is where its reply stays). */
  private readonly entries = new Map<string, Entry>();
  /**
   * Finished entries in the order they finished, oldest at `doneHead`: eviction by bytes takes them from
   * here in O(1) instead of walking the Map from its start, which after many deletions at its head skips
   * every hole left there (a quarter of the server's time under load). An entry no longer in the Map
   * (forgotten, expired, begun anew) is skipped.
   */
  private doneOrder: Entry[] = [];
  private doneHead = 0;
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
    private readonly maxBytes: number = DEFAULT_REPLY_CACHE_MAX_BYTES,
  ) {}

  get heldBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  private static key(from: string, id: string): string {
    return `${from}\u0000${id}`;
  }

  /** Look a request up; a new one is marked running in the same step, so a duplicate sees it. */
  begin(from: string, id: string, deadline: number | undefined): CacheLookup {
    const key = ReplyCache.key(from, id);
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry && entry.expiresAt > now) return entry.state === "done" ? { state: "done", reply: entry.reply as Buffer } : RUNNING;
    if (entry) this.remove(entry);
    // A running entry lives at least until the request's own deadline, so late duplicates stay suppressed.
    this.entries.set(key, { key, state: "running", reply: undefined, expiresAt: Math.max(now + this.ttlMs, deadline ?? 0), removed: false });
    if (this.entries.size > this.maxEntries) this.evict(key);
    return NEW;
  }

  /**
   * A finished request's reply, kept until its deadline (at least REPLY_GRACE_MS), or `retainMs` when
   * that is longer: an op whose sender may come back under a new incarnation to ask again (a manager
   * resuming its journal) keeps its replies until the sender acknowledges them (`forget`) or that age passes.
   */
  complete(from: string, id: string, reply: Buffer, deadline: number | undefined, retainMs = 0): void {
    const now = this.now();
    const expiresAt = Math.max(deadline === undefined ? now + this.ttlMs : Math.max(deadline, now + REPLY_GRACE_MS), now + retainMs);
    const key = ReplyCache.key(from, id);
    let entry = this.entries.get(key);
    if (entry) {
      if (entry.reply) this.bytes -= entry.reply.length;
      entry.state = "done";
      entry.reply = reply;
      entry.expiresAt = expiresAt;
    } else {
      entry = { key, state: "done", reply, expiresAt, removed: false };
      this.entries.set(key, entry);
    }
    this.bytes += reply.length;
    this.doneOrder.push(entry);
    if (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) this.evict(key);
  }

  /** Forget a request whose outcome must not be replayed (a retryable failure, a cancel). */
  forget(from: string, id: string): boolean {
    return this.delete(ReplyCache.key(from, id));
  }

  sweep(): void {
    const now = this.now();
    for (const entry of this.entries.values()) if (entry.expiresAt <= now) this.remove(entry);
    this.doneOrder = this.doneOrder.slice(this.doneHead).filter((entry) => !entry.removed);
    this.doneHead = 0;
  }

  private delete(key: string): boolean {
    const entry = this.entries.get(key);
    return entry ? this.remove(entry) : false;
  }

  private remove(entry: Entry): boolean {
    if (entry.reply) this.bytes -= entry.reply.length;
    entry.removed = true;
    return this.entries.delete(entry.key);
  }

  /**
   * Oldest first, never the entry just written. Replies go before running marks: dropping a running mark
   * would let a retry run the handler while the first run goes on. (Deleting the entry being visited is
   * safe during Map iteration.)
   */
  private evict(keep: string): void {
    while (this.doneHead < this.doneOrder.length && (this.entries.size > this.maxEntries || this.bytes > this.maxBytes)) {
      const oldest = this.doneOrder[this.doneHead] as Entry;
      if (!oldest.removed && oldest.key === keep) break; // the reply just written is the newest: no older one is left
      this.doneHead++;
      if (!oldest.removed) this.remove(oldest);
    }
    this.compactDoneOrder();
    // Asking a Map for its first key walks the holes at its head too: only when running marks must go.
    if (this.entries.size <= this.maxEntries) return;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) return;
      if (key !== keep) this.delete(key);
    }
  }

  /** Drops the consumed head of doneOrder once it is most of the array (amortized O(1) per entry). */
  private compactDoneOrder(): void {
    if (this.doneHead > 1_024 && this.doneHead * 2 > this.doneOrder.length) {
      this.doneOrder = this.doneOrder.slice(this.doneHead);
      this.doneHead = 0;
    }
  }
}
