// How many fleet processes may be booting at once (seed 004's load-aware spawning), as a pure function
// of the core count and the 1-minute load average, and the pool that keeps that many booting.
//
// A worker costs CPU only while it boots (loading modules, opening its index); once it has printed its
// ready line it idles. So the bound is on processes *booting*, not on processes started: the next one
// starts as soon as any booting one is ready. Below a load of 5 (seed 004: "parallel allowed") two per
// core boot at once; from 5 on one at a time (seed 004: "sequential only" up to 10; above 10 the seed
// works inline, which a fleet cannot, so it still comes up, one process at a time).

export const PARALLEL_BELOW_LOAD = 5;
export const HIGH_LOAD = 10;
export const BOOTING_PER_CORE = 2;
/** Whatever the core count: more booting processes than this only contend for the disk and the registry. */
export const MAX_BOOTING = 16;

export type LoadStatus = "ok" | "caution" | "high";

export interface LaunchPolicy {
  /** Processes allowed to be booting at once (≥ 1). */
  booting: number;
  status: LoadStatus;
}

export function launchPolicy(cores: number, load1: number): LaunchPolicy {
  const load = Number.isFinite(load1) && load1 > 0 ? load1 : 0;
  const status: LoadStatus = load < PARALLEL_BELOW_LOAD ? "ok" : load <= HIGH_LOAD ? "caution" : "high";
  if (status !== "ok") return { booting: 1, status };
  const usableCores = Number.isFinite(cores) && cores >= 1 ? Math.floor(cores) : 1;
  return { booting: Math.min(MAX_BOOTING, BOOTING_PER_CORE * usableCores), status };
}

export interface PoolOutcome<R> {
  /** Results of the starts that succeeded, in the order they finished. */
  done: R[];
  /** The first failure; no new start begins after it (those already booting are awaited). */
  error?: unknown;
}

/**
 * Run `start` over `items` with at most `limit` running at once, starting the next item as soon as any
 * running one settles. `items` may be produced while the pool runs (an async iterable): `mesh up` checks
 * scope after scope while the workers of the scopes checked so far boot. Never rejects: the first failure
 * (of a start, or of producing the next item) stops new starts and is returned with what succeeded, so
 * the caller can record (and later stop) the processes that did come up.
 */
export async function runPool<T, R>(items: Iterable<T> | AsyncIterable<T>, limit: number, start: (item: T) => Promise<R>): Promise<PoolOutcome<R>> {
  const outcome: PoolOutcome<R> = { done: [] };
  const source: AsyncIterator<T> | Iterator<T> = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  let failed = false;
  const fail = (error: unknown) => {
    if (!failed) outcome.error = error;
    failed = true;
  };
  // Async generators queue concurrent next() calls, so lanes never take the same item.
  const lane = async (): Promise<void> => {
    while (!failed) {
      let next: IteratorResult<T>;
      try {
        next = await source.next();
      } catch (error) {
        fail(error);
        return;
      }
      if (next.done === true || failed) return;
      try {
        outcome.done.push(await start(next.value));
      } catch (error) {
        fail(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, lane));
  return outcome;
}
