import { describe, expect, it } from "vitest";
import { BOOTING_PER_CORE, launchPolicy, MAX_BOOTING, runPool } from "../../src/fleet/launch-policy.js";

describe("launchPolicy", () => {
  it("lets two processes per core boot at once below a load of 5", () => {
    expect(launchPolicy(2, 0)).toEqual({ booting: 2 * BOOTING_PER_CORE, status: "ok" });
    expect(launchPolicy(2, 3.9)).toEqual({ booting: 4, status: "ok" });
    expect(launchPolicy(2, 4.99)).toEqual({ booting: 4, status: "ok" });
    expect(launchPolicy(1, 0.5).booting).toBe(2);
  });

  it("goes one at a time from a load of 5 (caution) and keeps launching one at a time above 10 (high)", () => {
    expect(launchPolicy(2, 5)).toEqual({ booting: 1, status: "caution" });
    expect(launchPolicy(64, 10)).toEqual({ booting: 1, status: "caution" });
    expect(launchPolicy(2, 10.01)).toEqual({ booting: 1, status: "high" });
    expect(launchPolicy(8, 250)).toEqual({ booting: 1, status: "high" });
  });

  it("caps the pool on large machines and survives odd inputs", () => {
    expect(launchPolicy(128, 1).booting).toBe(MAX_BOOTING);
    expect(launchPolicy(0, 0).booting).toBe(2);
    expect(launchPolicy(Number.NaN, Number.NaN)).toEqual({ booting: 2, status: "ok" });
    expect(launchPolicy(4, -1)).toEqual({ booting: 8, status: "ok" });
  });
});

/** A start whose completion the test decides. */
function controlled() {
  const started: number[] = [];
  const settle = new Map<number, { resolve: (v: number) => void; reject: (e: Error) => void }>();
  const start = (item: number) =>
    new Promise<number>((resolve, reject) => {
      started.push(item);
      settle.set(item, { resolve, reject });
    });
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { started, settle, start, flush };
}

describe("runPool", () => {
  it("keeps at most `limit` running and starts the next as soon as any one finishes (a pool, not batches)", async () => {
    const { started, settle, start, flush } = controlled();
    const done = runPool([1, 2, 3, 4, 5], 2, start);
    await flush();
    expect(started).toEqual([1, 2]);
    settle.get(2)?.resolve(20); // the second finishes first: the third starts without waiting for the first
    await flush();
    expect(started).toEqual([1, 2, 3]);
    settle.get(3)?.resolve(30);
    await flush();
    expect(started).toEqual([1, 2, 3, 4]);
    settle.get(1)?.resolve(10);
    settle.get(4)?.resolve(40);
    await flush();
    settle.get(5)?.resolve(50);
    expect(await done).toEqual({ done: [20, 30, 10, 40, 50] });
  });

  it("starts nothing new after a failure, waits for what is running, and returns what succeeded", async () => {
    const { started, settle, start, flush } = controlled();
    const done = runPool([1, 2, 3, 4], 2, start);
    await flush();
    settle.get(1)?.reject(new Error("worker 1 exited before it was ready"));
    await flush();
    expect(started).toEqual([1, 2]);
    settle.get(2)?.resolve(2);
    const outcome = await done;
    expect(outcome.done).toEqual([2]);
    expect((outcome.error as Error).message).toBe("worker 1 exited before it was ready");
    expect(started).toEqual([1, 2]);
  });

  it("handles an empty list and a limit larger than the list", async () => {
    expect(await runPool([], 4, async (x: number) => x)).toEqual({ done: [] });
    expect(await runPool([1, 2], 8, async (x: number) => x * 2)).toEqual({ done: [2, 4] });
  });

  it("starts items as an async source produces them, and returns a failure of the source with what succeeded", async () => {
    const { started, settle, start, flush } = controlled();
    let release: () => void = () => undefined;
    const secondReady = new Promise<void>((resolve) => (release = resolve));
    async function* source(): AsyncGenerator<number> {
      yield 1;
      await secondReady; // e.g. the second scope is still being checked
      yield 2;
      throw new Error("cannot index scope 3");
    }
    const done = runPool(source(), 4, start);
    await flush();
    expect(started).toEqual([1]); // the first boots while the second is not produced yet
    settle.get(1)?.resolve(1);
    release();
    await expect.poll(() => started).toEqual([1, 2]);
    settle.get(2)?.resolve(2);
    const outcome = await done;
    expect(outcome.done).toEqual([1, 2]);
    expect((outcome.error as Error).message).toBe("cannot index scope 3");
  });
});
