import { afterEach, describe, expect, it } from "vitest";
import { PeerUnavailableError, RemoteError, TimeoutError } from "../../bus/index.js";
import { aliveIds, FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";
import { RawPeer, requestEnvelope } from "../helpers/raw-peer.js";

const nodes = new NodeSet();
afterEach(() => nodes.stopAll());

describe("request/reply between two nodes", () => {
  it("answers a request and the built-in ping and peers ops", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    const b = await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    b.handle("echo", (args) => ({ echoed: args }));
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);

    await expect(a.request("b", "echo", { x: 1 })).resolves.toEqual({ echoed: { x: 1 } });
    const health = (await a.request("b", "ping", {})) as { id: string; incarnation: number; in_flight: number };
    expect(health.id).toBe("b");
    expect(health.incarnation).toBe(b.incarnation);
    const peers = (await a.request("b", "peers", {})) as { self: { id: string }; peers: { card: { id: string } }[] };
    expect(peers.self.id).toBe("b");
    expect(peers.peers.map((p) => p.card.id)).toEqual(["a"]);
  });

  it("rebuilds a handler's error on the caller as a RemoteError with its code", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    const b = await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    b.handle("fail", () => {
      throw Object.assign(new Error("index is corrupt"), { code: "pgc_corrupt" });
    });
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);
    const error = await a.request("b", "fail", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ code: "pgc_corrupt", message: "index is corrupt", retryable: false });
  });

  it("NACKs an unknown op and fails fast for an unknown peer", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);
    await expect(a.request("b", "nope", {})).rejects.toMatchObject({ name: "NackError", code: "unknown_op" });
    await expect(a.request("zz", "ping", {})).rejects.toBeInstanceOf(PeerUnavailableError);
  });

  it("times out with a TimeoutError and cancels the handler on the peer", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    const b = await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let aborted = false;
    b.handle("hang", (_args, ctx) => new Promise((resolve) => {
      started();
      ctx.signal.addEventListener("abort", () => { aborted = true; resolve(null); });
    }));
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);
    // Long enough to reach b on a loaded machine (a request arriving past its deadline is dropped, and its
    // handler never runs to be cancelled); the handler is known to run before the deadline is awaited.
    const pending = a.request("b", "hang", {}, { timeoutMs: 2_000 });
    pending.catch(() => undefined); // observed below, after the latch
    await running;
    await expect(pending).rejects.toBeInstanceOf(TimeoutError);
    await expect.poll(() => aborted).toBe(true);
  });

  it("cancels through an AbortSignal", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    const b = await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let aborted = false;
    b.handle("hang", (_args, ctx) => new Promise((resolve) => {
      started();
      ctx.signal.addEventListener("abort", () => { aborted = true; resolve(null); });
    }));
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);
    const controller = new AbortController();
    const pending = a.request("b", "hang", {}, { signal: controller.signal, timeoutMs: 10_000 });
    await running;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "CancelledError" });
    await expect.poll(() => aborted).toBe(true);
  });

  it("a draining node refuses new requests with shutting_down and finishes the running one", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    const b = await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    let finish!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    b.handle("long", () => new Promise((resolve) => { started(); finish = () => resolve("finished"); }));
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);
    const inFlight = a.request("b", "long", {}, { timeoutMs: 10_000 });
    await running;
    const raw = new RawPeer("~late", b.endpoint);
    try {
      const stopping = b.stop();
      const late = requestEnvelope("~late");
      await raw.sendEnvelope(late);
      expect(await raw.receive()).toMatchObject({ kind: "nack", corr: late["id"], body: { code: "shutting_down", retryable: true } });
      finish();
      await expect(inFlight).resolves.toBe("finished");
      await stopping;
    } finally {
      raw.close();
    }
  });
});

describe("peersVersion", () => {
  it("moves when a peer joins, publishes a new card or leaves, and stays put while traffic only flows", async () => {
    const a = await nodes.start({ id: "a", ...FAST_LIVENESS });
    const before = a.peersVersion;
    const b = await nodes.start({ id: "b", seeds: [a.endpoint], ...FAST_LIVENESS });
    b.handle("echo", (args) => args);
    await expect.poll(() => aliveIds(a)).toEqual(["b"]);
    const joined = a.peersVersion;
    expect(joined).toBeGreaterThan(before);

    // Requests, replies and gossip repeating known cards are traffic, not membership: a reader's cache
    // stays valid across them.
    const quiet = a.peersVersion;
    for (let i = 0; i < 5; i++) await a.request("b", "echo", i);
    const afterTraffic = a.peersVersion;
    expect(afterTraffic).toBe(quiet);

    b.updateMeta({ index_revision: "r2" });
    await expect.poll(() => a.peers()[0]?.card.meta["index_revision"]).toBe("r2");
    expect(a.peersVersion).toBeGreaterThan(afterTraffic);

    const beforeLeave = a.peersVersion;
    await b.stop();
    await expect.poll(() => a.peersVersion).toBeGreaterThan(beforeLeave);
  });
});
