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

type Entry = { state: "running"; expiresAt: number } | { state: "done"; reply: Buffer; expiresAt: number };

export type CacheLookup = { state: "new" } | { state: "running" } | { state: "done"; reply: Buffer };

export class ReplyCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Finished entries in the order they were written (the order the Map holds them in), oldest at `doneHead`:
   * eviction by bytes takes them from here in O(1) instead of walking the Map from its start, which after
   * many deletions at the head skips every hole left there (a quarter of the server's time under load).
   * An item whose key now holds another entry (forgotten, expired, begun anew) is skipped.
   */
  private doneOrder: { key: string; entry: Entry }[] = [];
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
    if (entry && entry.expiresAt > now) return entry.state === "done" ? { state: "done", reply: entry.reply } : { state: "running" };
    // A running entry lives at least until the request's own deadline, so late duplicates stay suppressed.
    this.set(key, { state: "running", expiresAt: Math.max(now + this.ttlMs, deadline ?? 0) });
    return { state: "new" };
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
    const entry: Entry = { state: "done", reply, expiresAt };
    this.doneOrder.push({ key, entry });
    this.set(key, entry);
  }

  /** Forget a request whose outcome must not be replayed (a retryable failure, a cancel). */
  forget(from: string, id: string): boolean {
    return this.delete(ReplyCache.key(from, id));
  }

  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.delete(key);
    this.doneOrder = this.doneOrder.slice(this.doneHead).filter((item) => this.entries.get(item.key) === item.entry);
    this.doneHead = 0;
  }

  private delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry?.state === "done") this.bytes -= entry.reply.length;
    return this.entries.delete(key);
  }

  private set(key: string, entry: Entry): void {
    this.delete(key);
    this.entries.set(key, entry);
    if (entry.state === "done") this.bytes += entry.reply.length;
    if (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) this.evict(key);
  }

  /**
   * Oldest first (a Map iterates in insertion order), never the entry just written. Replies go before
   * running marks: dropping a running mark would let a retry run the handler while the first run goes on.
   * (Deleting the entry being visited is safe during Map iteration.)
   */
  private evict(keep: string): void {
    while (this.doneHead < this.doneOrder.length && (this.entries.size > this.maxEntries || this.bytes > this.maxBytes)) {
      const oldest = this.doneOrder[this.doneHead] as { key: string; entry: Entry };
      const live = this.entries.get(oldest.key) === oldest.entry;
      if (live && oldest.key === keep) break; // the reply just written is the newest: no older one is left
      this.doneHead++;
      if (live) this.delete(oldest.key);
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
