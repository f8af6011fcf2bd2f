// Pure parts of the bus, tested without sockets: liveness verdicts, reply cache, bulkhead, frames, registry.
import { afterEach, describe, expect, it, vi } from "vitest";
import CRC32 from "crc-32";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { Bulkhead } from "../../bus/bulkhead.js";
import { resolveAdvertisedEndpoint } from "../../bus/endpoint.js";
import { Discovery } from "../../bus/discovery.js";
import { Outbound, type OutboundDeps } from "../../bus/outbound.js";
import type { Link } from "../../bus/link.js";
import { Membership, sameCard } from "../../bus/membership.js";
import { judgePeer, PeerTable, type PeerRecord } from "../../bus/peer-table.js";
import { readRegistry, removeRegistryEntry, writeRegistryEntry } from "../../bus/registry.js";
import { REPLY_GRACE_MS, ReplyCache } from "../../bus/reply-cache.js";
import { RequestAbort } from "../../bus/request-abort.js";
import { Requester, RETRANSMIT_FIRST_MS, RETRY_MIN_BACKOFF_MS } from "../../bus/requester.js";
import type { FrameDecodeError} from "../../bus/index.js";
import { checkFrame, crc32, decodeEnvelope, encodeEnvelope, encodeFrame, type Envelope, type NodeCard } from "../../bus/index.js";

const limits = { heartbeatMs: 1_000, suspectMs: 3_000, expireMs: 10_000 };
const card = (id: string, incarnation = 1): NodeCard => ({ id, incarnation, role: "node", endpoint: "tcp://127.0.0.1:1", protocols: [1], meta: {} });
const peer = (over: Partial<PeerRecord<null>>): PeerRecord<null> => ({ card: card("p"), state: "alive", lastSeenAt: 0, knownSince: 0, lastPingAt: 0, firstHand: false, link: null, ...over });

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

describe("sameCard", () => {
  it("compares what a card says, so gossip repeating it does not count as a membership change", () => {
    const a = { ...card("p"), meta: { scope: "mm", scope_paths: ["mm/"], documents: 3 } };
    expect(sameCard(a, { ...a, meta: { scope_paths: ["mm/"], scope: "mm", documents: 3 } })).toBe(true);
    expect(sameCard(a, { ...a, meta: { ...a.meta, documents: 4 } })).toBe(false);
    expect(sameCard(a, { ...a, meta: { ...a.meta, scope_paths: ["mm/", "include/"] } })).toBe(false);
    expect(sameCard(a, { ...a, meta: { scope: "mm", scope_paths: ["mm/"] } })).toBe(false);
    expect(sameCard(a, { ...a, endpoint: "tcp://127.0.0.1:2" })).toBe(false);
    expect(sameCard(a, { ...a, rev: 1 })).toBe(false);
    // Nested values are not compared: they count as a change, which only costs a cache rebuild.
    const nested = { ...card("p"), meta: { counts: { files: 1 } } };
    expect(sameCard(nested, { ...nested, meta: { counts: { files: 1 } } })).toBe(false);
  });
});

/** A membership whose links are stand-ins: its bookkeeping alone, no frame is sent. */
function quietMembership(openLink: (card: NodeCard) => Link): Membership {
  return new Membership(
    {
      selfId: "me",
      openLink,
      sendHello: () => undefined,
      sendPing: () => undefined,
      failPending: () => undefined,
      events: { joined: () => undefined, left: () => undefined, stateChanged: () => undefined },
      logger: pino({ level: "silent" }),
    },
    limits,
  );
}

describe("Membership: whose word changes a card", () => {
  // Links are stand-ins: this is the table's bookkeeping, no frame is sent.
  const membership = () => quietMembership(() => ({ close: () => Promise.resolve() }) as unknown as Link);
  const worker = (revision: string, rev?: number): NodeCard => ({ ...card("w"), role: "worker", meta: { index_revision: revision }, ...(rev === undefined ? {} : { rev }) });
  const revisionOf = (m: Membership) => m.card("w")?.meta["index_revision"];

  it("takes a later revision of a card from anyone, and an earlier one from no one", () => {
    const m = membership();
    m.learn(worker("r1", 1), "registry");
    m.learn(worker("r2", 2), "hello", "w");
    expect(revisionOf(m)).toBe("r2");
    const version = m.version;
    m.learn(worker("r1", 1), "gossip", "other-node"); // a stale copy relayed by a third node
    m.learn(worker("r1", 1), "registry"); // or read before the peer rewrote its entry
    expect(revisionOf(m)).toBe("r2");
    expect(m.version).toBe(version);
    m.learn(worker("r3", 3), "gossip", "other-node"); // newer news travels through anyone
    expect(revisionOf(m)).toBe("r3");
    expect(m.version).toBeGreaterThan(version);
  });

  it("for cards without a revision, takes hearsay only until the peer speaks for itself", () => {
    const m = membership();
    m.learn(worker("r1"), "registry");
    m.learn(worker("r2"), "gossip", "other-node");
    expect(revisionOf(m)).toBe("r2");
    m.learn(worker("r3"), "hello", "w");
    m.learn(worker("r2"), "gossip", "other-node");
    expect(revisionOf(m)).toBe("r3");
    m.learn(worker("r4"), "gossip", "w"); // its own card in its own gossip is first-hand
    expect(revisionOf(m)).toBe("r4");
  });
});

describe("Discovery: who gets gossip", () => {
  it("gossips only to live members: not to a peer that said BYE, nor to one still connecting, and says HELLO to the seeds when none is left", async () => {
    const links = new Map<string, Link>();
    const membership = quietMembership((c) => {
      const link = { endpoint: c.endpoint, id: c.id, close: () => Promise.resolve() } as unknown as Link;
      links.set(c.id, link);
      return link;
    });
    const sent: { to: string; kind: string }[] = [];
    const seedLink = { id: "seed" } as unknown as Link;
    const outbound = { onLink: (link: Link, kind: string) => void sent.push({ to: (link as unknown as { id: string }).id, kind }) } as unknown as Outbound;
    const discovery = new Discovery({ membership, outbound, seeds: ["tcp://127.0.0.1:9"], registry: undefined, openSeedLink: () => seedLink, isStopping: () => false });
    discovery.begin(card("me"));
    membership.learn(card("leaver"), "hello", "leaver");
    membership.seen("leaver", 1);
    membership.learn(card("quiet"), "gossip", "leaver");
    membership.leave("leaver");
    sent.length = 0;
    for (let i = 0; i < 20; i++) await discovery.tick();
    expect(sent.filter((s) => s.kind === "gossip")).toEqual([]);
    expect(sent.every((s) => s.kind === "hello" && s.to === "seed")).toBe(true);
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
    now = 1_001;
    expect(cache.begin("a", "1", undefined)).toEqual({ state: "new" });
  });

  it("keeps a reply retained for its op past its deadline, until the sender acknowledges it (forget) or the retention passes", () => {
    let now = 0;
    const cache = new ReplyCache(60_000, 10, () => now);
    cache.begin("manager", "j.1", 20_000);
    cache.complete("manager", "j.1", Buffer.from("r1"), 20_000, 600_000);
    cache.begin("manager", "j.2", 20_000);
    cache.complete("manager", "j.2", Buffer.from("r2"), 20_000, 600_000);
    now = 300_000; // long past the deadline: a restarted manager asks again under the same ids
    expect(cache.begin("manager", "j.1", 400_000)).toEqual({ state: "done", reply: Buffer.from("r1") });
    cache.forget("manager", "j.2"); // acknowledged
    expect(cache.begin("manager", "j.2", 400_000).state).toBe("new");
    now = 600_001;
    expect(cache.begin("manager", "j.1", 700_000).state).toBe("new");
  });

  it("keeps a running entry until the request's own deadline", () => {
    let now = 0;
    const cache = new ReplyCache(1_000, 10, () => now);
    cache.begin("a", "1", 5_000);
    now = 4_000;
    expect(cache.begin("a", "1", 5_000)).toEqual({ state: "running" });
  });

  it("keeps a finished reply until its request's deadline, not a fixed TTL", () => {
    let now = 0;
    const cache = new ReplyCache(60_000, 10, () => now);
    cache.begin("a", "1", 20_000);
    cache.complete("a", "1", Buffer.from("r"), 20_000);
    now = 19_999;
    expect(cache.begin("a", "1", 20_000).state).toBe("done");
    now = 20_000;
    expect(cache.begin("a", "1", 20_000).state).toBe("new");
  });

  it("keeps a finished reply for the grace when the deadline is nearer, and past the TTL when it is further", () => {
    let now = 0;
    const cache = new ReplyCache(60_000, 10, () => now);
    cache.complete("a", "near", Buffer.from("r"), 1_000);
    cache.complete("a", "far", Buffer.from("r"), 120_000);
    now = REPLY_GRACE_MS - 1;
    expect(cache.begin("a", "near", 1_000).state).toBe("done");
    now = REPLY_GRACE_MS;
    cache.sweep();
    expect(cache.size).toBe(1);
    now = 119_999;
    expect(cache.begin("a", "far", 120_000).state).toBe("done");
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
    cache.forget("a", "3");
    expect(cache.heldBytes).toBe(4);
  });

  it("frees bytes by dropping replies, never the mark of a request still running", () => {
    const cache = new ReplyCache(60_000, 100, Date.now, 10);
    cache.begin("a", "running", undefined);
    for (const id of ["1", "2", "3"]) cache.complete("a", id, Buffer.alloc(4), undefined);
    expect(cache.begin("a", "running", undefined).state).toBe("running");
    expect(cache.begin("a", "1", undefined).state).toBe("new");
    expect(cache.heldBytes).toBe(8);
  });

  it("keeps the reply just written even when it alone exceeds the byte bound", () => {
    const cache = new ReplyCache(60_000, 100, Date.now, 10);
    cache.complete("a", "1", Buffer.alloc(4), undefined);
    cache.complete("a", "2", Buffer.alloc(16), undefined);
    expect(cache.begin("a", "2", undefined).state).toBe("done");
    expect(cache.size).toBe(1);
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

describe("RequestAbort", () => {
  afterEach(() => vi.useRealTimers());

  it("builds no signal and no timer until asked, yet knows when it is abandoned", () => {
    vi.useFakeTimers({ now: 0 });
    const abort = new RequestAbort(1_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(abort.aborted).toBe(false);
    vi.setSystemTime(1_000);
    expect(abort.aborted).toBe(true);
  });

  it("aborts a signal read before or after the cancel, and at the deadline", () => {
    vi.useFakeTimers({ now: 0 });
    const early = new RequestAbort(1_000);
    const signal = early.signal;
    early.abort(new Error("cancelled"));
    expect(signal.aborted).toBe(true);
    const late = new RequestAbort(1_000);
    late.abort(new Error("cancelled"));
    expect(late.signal.reason).toEqual(new Error("cancelled"));
    const timed = new RequestAbort(1_000);
    expect(timed.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(timed.signal.aborted).toBe(true);
  });

  it("leaves no timer behind once the handler finished", () => {
    vi.useFakeTimers({ now: 0 });
    const read = new RequestAbort(1_000);
    void read.signal;
    read.dispose();
    const readLate = new RequestAbort(1_000);
    readLate.dispose();
    expect(readLate.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("Requester retries", () => {
  afterEach(() => vi.useRealTimers());

  it("backs off before the second attempt, then answers under the same message id", async () => {
    vi.useFakeTimers({ now: 0 });
    const sent: number[] = [];
    const requester = new Requester({
      transmit: () => (sent.push(Date.now()), sent.length === 1 ? "busy" : "sent"),
      cancel: () => undefined,
      logger: pino({ level: "silent" }),
      countRetry: () => undefined,
    });
    const reply = requester.request({ peerId: "p", messageId: "m.1", frame: Buffer.alloc(0), deadline: 10_000, attempts: 3 });
    await vi.advanceTimersByTimeAsync(RETRY_MIN_BACKOFF_MS - 1);
    expect(sent).toEqual([0]);
    await vi.advanceTimersByTimeAsync(RETRY_MIN_BACKOFF_MS + 1);
    expect(sent).toHaveLength(2);
    requester.onReply({ v: 1, kind: "reply", id: "r.1", from: "p", inc: 1, corr: "m.1", body: { result: "ok" } });
    await expect(reply).resolves.toBe("ok");
  });

  it("fails at once, without a retry, on a non-retryable NACK", async () => {
    let retries = 0;
    const requester = new Requester({ transmit: () => "sent", cancel: () => undefined, logger: pino({ level: "silent" }), countRetry: () => retries++ });
    const reply = requester.request({ peerId: "p", messageId: "m.1", frame: Buffer.alloc(0), deadline: Date.now() + 10_000, attempts: 3 });
    requester.onNack("p", { v: 1, kind: "nack", id: "n.1", from: "p", inc: 1, corr: "m.1", body: { code: "unknown_op", detail: "x", retryable: false } });
    await expect(reply).rejects.toMatchObject({ code: "unknown_op" });
    expect(retries).toBe(0);
    expect(requester.inFlight).toBe(0);
  });
});

describe("Requester timing (one timer per request)", () => {
  afterEach(() => vi.useRealTimers());

  it("re-sends an unanswered request after 1 s, then 2 s later, under its id, and ends the attempt at its share of the deadline", async () => {
    vi.useFakeTimers({ now: 0 });
    const sent: [number, boolean][] = [];
    let retransmits = 0;
    const requester = new Requester({
      transmit: (_peer, _frame, first) => (sent.push([Date.now(), first]), "sent"),
      cancel: () => undefined,
      logger: pino({ level: "silent" }),
      countRetry: () => undefined,
      countRetransmit: () => retransmits++,
    });
    const reply = requester.request({ peerId: "p", messageId: "m.1", frame: Buffer.alloc(0), deadline: 9_000, attempts: 1 });
    await vi.advanceTimersByTimeAsync(RETRANSMIT_FIRST_MS * 3 + 1);
    expect(sent).toEqual([[0, true], [RETRANSMIT_FIRST_MS, false], [RETRANSMIT_FIRST_MS * 3, false]]);
    expect(retransmits).toBe(2);
    requester.onReply({ v: 1, kind: "reply", id: "r.1", from: "p", inc: 1, corr: "m.1", body: { result: "late but fine" } });
    await expect(reply).resolves.toBe("late but fine");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fails with a TimeoutError at the deadline and sends CANCEL, leaving no timer behind", async () => {
    vi.useFakeTimers({ now: 0 });
    const cancelled: string[] = [];
    const requester = new Requester({ transmit: () => "sent", cancel: (_peer, id) => cancelled.push(id), logger: pino({ level: "silent" }), countRetry: () => undefined });
    const reply = requester.request({ peerId: "p", messageId: "m.1", frame: Buffer.alloc(0), deadline: 500, attempts: 1 });
    const outcome = expect(reply).rejects.toMatchObject({ name: "TimeoutError" });
    await vi.advanceTimersByTimeAsync(499);
    expect(cancelled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(cancelled).toEqual(["m.1"]);
    expect([requester.inFlight, vi.getTimerCount()]).toEqual([0, 0]);
  });

  it("times an attempt out at its share of the deadline and tries again under the same id", async () => {
    vi.useFakeTimers({ now: 0 });
    const sent: number[] = [];
    const requester = new Requester({ transmit: () => (sent.push(Date.now()), "sent"), cancel: () => undefined, logger: pino({ level: "silent" }), countRetry: () => undefined });
    const reply = requester.request({ peerId: "p", messageId: "m.1", frame: Buffer.alloc(0), deadline: 900, attempts: 3 });
    await vi.advanceTimersByTimeAsync(299);
    expect(sent).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1 + 2 * RETRY_MIN_BACKOFF_MS);
    expect(sent).toHaveLength(2);
    requester.onReply({ v: 1, kind: "reply", id: "r.1", from: "p", inc: 1, corr: "m.1", body: { result: 2 } });
    await expect(reply).resolves.toBe(2);
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

  it("computes the crc-32 package's value, the fallback where zlib has no crc32", () => {
    for (const size of [0, 1, 7, 1_024, 65_537]) {
      const payload = randomBytes(size);
      expect(crc32(payload)).toBe(CRC32.buf(payload) >>> 0);
    }
  });

  it("refuses unknown flags and oversize frames with their codes", () => {
    const frame = encodeFrame(Buffer.from("x"));
    frame[3] = 0x80;
    expect(() => checkFrame(frame, 1024)).toThrow(expect.objectContaining({ code: "version_unsupported" }) as FrameDecodeError);
    expect(() => checkFrame(encodeFrame(Buffer.alloc(2048)), 1024)).toThrow(expect.objectContaining({ code: "too_large" }) as FrameDecodeError);
  });
});

describe("encoded frames", () => {
  it("never share a buffer that msgpackr grew for a large message, so a kept reply cannot hold megabytes", () => {
    const envelope = (chars: number): Envelope => ({ v: 1, kind: "request", id: `a.${chars}`, from: "n1", inc: 1, body: { op: "echo", args: "z".repeat(chars) } });
    for (const chars of [100, 2_000_000, 100, 1_000]) {
      const frame = encodeEnvelope(envelope(chars), 1 << 24);
      expect(frame.buffer.byteLength).toBeLessThanOrEqual(Math.max(16 * 1024, frame.length));
      expect(decodeEnvelope(frame, 1 << 24).body).toEqual({ op: "echo", args: "z".repeat(chars) });
    }
  });
});

describe("Outbound envelopes", () => {
  it("stamp the header, then the fields, then the body: the wire order", () => {
    const outbound = new Outbound({ id: "n1", incarnation: 7, maxFrameBytes: 1 << 20, nextId: () => "q.1" } as OutboundDeps);
    const fields = { deadline: 5, hops: 1, max_hops: 6, path: ["n1"], trace: "t" };
    const envelope = outbound.envelope("request", { op: "ping", args: {} }, fields);
    expect(Object.keys(envelope)).toEqual(["v", "kind", "id", "from", "inc", "deadline", "hops", "max_hops", "path", "trace", "body"]);
    expect(envelope).toMatchObject({ v: 1, kind: "request", id: "q.1", from: "n1", inc: 7, body: { op: "ping", args: {} } });
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

describe("resolveAdvertisedEndpoint", () => {
  it("publishes the bound endpoint, an explicit one, or an advertised host with the bound port for *", () => {
    expect(resolveAdvertisedEndpoint("tcp://127.0.0.1:5555", undefined)).toBe("tcp://127.0.0.1:5555");
    expect(resolveAdvertisedEndpoint("tcp://0.0.0.0:5555", "tcp://hostb.example:7000")).toBe("tcp://hostb.example:7000");
    expect(resolveAdvertisedEndpoint("tcp://0.0.0.0:41234", "tcp://hostb.example:*")).toBe("tcp://hostb.example:41234");
    expect(() => resolveAdvertisedEndpoint("ipc:///tmp/x.sock", "tcp://hostb.example:*")).toThrow(/only a tcp endpoint has a port/);
  });
});
