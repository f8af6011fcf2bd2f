// Pure parts of the bus, tested without sockets: liveness verdicts, reply cache, bulkhead, frames, registry.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { Bulkhead } from "../../bus/bulkhead.js";
import { judgePeer, PeerTable, type PeerRecord } from "../../bus/peer-table.js";
import { readRegistry, removeRegistryEntry, writeRegistryEntry } from "../../bus/registry.js";
import { ReplyCache } from "../../bus/reply-cache.js";
import type { FrameDecodeError} from "../../bus/index.js";
import { checkFrame, encodeFrame, type NodeCard } from "../../bus/index.js";

const limits = { heartbeatMs: 1_000, suspectMs: 3_000, expireMs: 10_000 };
const card = (id: string, incarnation = 1): NodeCard => ({ id, incarnation, role: "node", endpoint: "tcp://127.0.0.1:1", protocols: [1], meta: {} });
const peer = (over: Partial<PeerRecord<null>>): PeerRecord<null> => ({ card: card("p"), state: "alive", lastSeenAt: 0, knownSince: 0, lastPingAt: 0, link: null, ...over });

describe("judgePeer", () => {
  it("pings only a quiet peer, and not twice within a heartbeat", () => {
    expect(judgePeer(peer({ lastSeenAt: 10_000 }), 10_500, limits)).toBe("ok");
    expect(judgePeer(peer({ lastSeenAt: 10_000 }), 11_000, limits)).toBe("ping");
    expect(judgePeer(peer({ lastSeenAt: 10_000, lastPingAt: 11_000 }), 11_500, limits)).toBe("ok");
  });

  it("marks suspect once, then expires", () => {
    expect(judgePeer(peer({ lastSeenAt: 10_000 }), 13_000, limits)).toBe("suspect");
    expect(judgePeer(peer({ lastSeenAt: 10_000, state: "suspect", lastPingAt: 13_000 }), 13_500, limits)).toBe("ok");
    expect(judgePeer(peer({ lastSeenAt: 10_000, state: "suspect" }), 20_000, limits)).toBe("expire");
  });

  it("expires a hearsay peer that never answered, counting from when it was learned", () => {
    expect(judgePeer(peer({ state: "connecting", knownSince: 5_000 }), 14_999, limits)).not.toBe("expire");
    expect(judgePeer(peer({ state: "connecting", knownSince: 5_000 }), 15_000, limits)).toBe("expire");
  });
});

describe("PeerTable tombstones", () => {
  it("buries a dead incarnation but lets a newer one back in", () => {
    const table = new PeerTable<null>();
    table.set(peer({ card: card("p", 5) }));
    table.remove("p", 1_000, 30_000);
    expect(table.isBuried(card("p", 5), 2_000)).toBe(true);
    expect(table.isBuried(card("p", 6), 2_000)).toBe(false);
    expect(table.isBuried(card("p", 5), 31_001)).toBe(false);
  });
});

describe("ReplyCache", () => {
  it("marks a request running, replays it when done, and expires it", () => {
    let now = 0;
    const cache = new ReplyCache(1_000, 10, () => now);
    expect(cache.begin("a", "1", undefined)).toEqual({ state: "new" });
    expect(cache.begin("a", "1", undefined)).toEqual({ state: "running" });
    cache.complete("a", "1", Buffer.from("r"), undefined);
    expect(cache.begin("a", "1", undefined)).toEqual({ state: "done", reply: Buffer.from("r") });
    expect(cache.begin("b", "1", undefined)).toEqual({ state: "new" });
    now = 60_001;
    expect(cache.begin("a", "1", undefined)).toEqual({ state: "new" });
  });

  it("keeps a running entry until the request's own deadline", () => {
    let now = 0;
    const cache = new ReplyCache(1_000, 10, () => now);
    cache.begin("a", "1", 5_000);
    now = 4_000;
    expect(cache.begin("a", "1", 5_000)).toEqual({ state: "running" });
  });

  it("keeps a finished reply until its request's deadline, and at least the grace period", () => {
    let now = 0;
    const cache = new ReplyCache(60_000, 10, () => now);
    cache.begin("a", "1", 20_000);
    cache.complete("a", "1", Buffer.from("r"), 20_000);
    cache.begin("a", "2", 1_000);
    cache.complete("a", "2", Buffer.from("r"), 1_000);
    now = 4_999;
    expect(cache.begin("a", "2", 1_000).state).toBe("done");
    now = 19_999;
    expect(cache.begin("a", "1", 20_000).state).toBe("done");
    now = 20_001;
    expect(cache.begin("a", "1", 20_000).state).toBe("new");
  });

  it("bounds the reply bytes it holds, evicting the oldest", () => {
    const cache = new ReplyCache(60_000, 100, Date.now, 10);
    for (const id of ["1", "2", "3"]) {
      cache.begin("a", id, undefined);
      cache.complete("a", id, Buffer.alloc(4), undefined);
    }
    expect(cache.heldBytes).toBe(8);
    expect(cache.begin("a", "1", undefined).state).toBe("new");
    expect(cache.begin("a", "3", undefined).state).toBe("done");
  });

  it("evicts the oldest entry beyond its bound", () => {
    const cache = new ReplyCache(60_000, 2);
    cache.begin("a", "1", undefined);
    cache.begin("a", "2", undefined);
    cache.begin("a", "3", undefined);
    expect(cache.size).toBe(2);
    expect(cache.begin("a", "1", undefined)).toEqual({ state: "new" });
  });
});

describe("Bulkhead", () => {
  it("runs up to its limit, queues up to its bound, refuses beyond", async () => {
    const bulkhead = new Bulkhead(1, 1);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    expect(bulkhead.submit("a", async () => { await gate; order.push("a"); })).toBe(true);
    expect(bulkhead.submit("b", async () => { order.push("b"); })).toBe(true);
    expect(bulkhead.submit("c", async () => { order.push("c"); })).toBe(false);
    expect([bulkhead.inFlight, bulkhead.queued]).toEqual([1, 1]);
    release();
    await bulkhead.whenIdle();
    expect(order).toEqual(["a", "b"]);
  });

  it("withdraws a queued job", async () => {
    const bulkhead = new Bulkhead(1, 4);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    bulkhead.submit("a", () => gate);
    bulkhead.submit("b", async () => { ran.push("b"); });
    expect(bulkhead.withdraw("b")).toBe(true);
    release();
    await bulkhead.whenIdle();
    expect(ran).toEqual([]);
  });
});

describe("frames", () => {
  it("round-trips a payload and detects a flipped bit", () => {
    const frame = encodeFrame(Buffer.from("payload"));
    expect(checkFrame(frame, 1024)).toEqual({ payload: Buffer.from("payload"), crcOk: true });
    frame[14] = (frame[14] ?? 0) ^ 1;
    expect(checkFrame(frame, 1024).crcOk).toBe(false);
  });

  it("refuses unknown flags and oversize frames with their codes", () => {
    const frame = encodeFrame(Buffer.from("x"));
    frame[3] = 0x80;
    expect(() => checkFrame(frame, 1024)).toThrow(expect.objectContaining({ code: "version_unsupported" }) as FrameDecodeError);
    expect(() => checkFrame(encodeFrame(Buffer.alloc(2048)), 1024)).toThrow(expect.objectContaining({ code: "too_large" }) as FrameDecodeError);
  });
});

describe("registry directory", () => {
  it("writes atomically, lists live entries, prunes dead pids and garbage, removes its own entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-registry-"));
    try {
      await writeRegistryEntry(dir, card("me"));
      const dead = { card: card("dead"), pid: 2 ** 22 + 12345, host: hostname(), updated_at: Date.now() };
      writeFileSync(join(dir, "dead.json"), JSON.stringify(dead));
      const old = { card: card("old"), pid: process.pid, host: "elsewhere", updated_at: Date.now() - 3_600_000 };
      writeFileSync(join(dir, "old.json"), JSON.stringify(old));
      writeFileSync(join(dir, "garbage.json"), "{not json");
      const live = await readRegistry(dir);
      expect(live.map((e) => e.card.id)).toEqual(["me"]);
      expect(readdirSync(dir).sort()).toEqual(["garbage.json", "me.json"]);
      await removeRegistryEntry(dir, "me");
      expect(readdirSync(dir)).toEqual(["garbage.json"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
