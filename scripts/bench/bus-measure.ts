// The two measurements of the bus benchmark, written once for any client: sequential round-trip
// latency and pipelined throughput with a fixed window of requests in flight.
import { performance } from "node:perf_hooks";
import { percentile, sortedAscending } from "./stats.js";

const MICROSECONDS_PER_MS = 1_000;
const MS_PER_SECOND = 1_000;

export type Call = () => Promise<void>;

export interface LatencyFigures {
  p50Us: number;
  p99Us: number;
}

/** One request at a time: each sample is the full round trip of one request, in microseconds. */
export async function measureSequential(call: Call, count: number): Promise<LatencyFigures> {
  const samplesUs = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call();
    samplesUs[i] = (performance.now() - start) * MICROSECONDS_PER_MS;
  }
  const sorted = sortedAscending(samplesUs);
  return { p50Us: percentile(sorted, 0.5), p99Us: percentile(sorted, 0.99) };
}

/**
 * `total` requests with `window` of them always in flight (each finished one is replaced at once),
 * to one peer; returns completed requests per second over the whole batch.
 */
export async function measurePipelined(call: Call, total: number, window: number): Promise<number> {
  let issued = 0;
  const lane = async (): Promise<void> => {
    while (issued < total) {
      issued++;
      await call();
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(window, total) }, lane));
  return total / ((performance.now() - start) / MS_PER_SECOND);
}
