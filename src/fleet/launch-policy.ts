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
 * running one settles. Never rejects: the first failure stops new starts and is returned with what
 * succeeded, so the caller can record (and later stop) the processes that did come up.
 */
export async function runPool<T, R>(items: readonly T[], limit: number, start: (item: T) => Promise<R>): Promise<PoolOutcome<R>> {
  const outcome: PoolOutcome<R> = { done: [] };
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        outcome.done.push(await start(item));
      } catch (error) {
        if (!failed) outcome.error = error;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return outcome;
}
