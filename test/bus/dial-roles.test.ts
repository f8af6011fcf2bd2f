// dialRoles (a fleet's workers dial only the manager) and the incremental registry reader, with real
// sockets and a real registry directory.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import type { Link } from "../../bus/link.js";
import { Membership } from "../../bus/membership.js";
import { LocalRegistry } from "../../bus/registry.js";
import { BusConfigError, type NodeCard } from "../../bus/index.js";
import { aliveIds, FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";

const nodes = new NodeSet();
const dirs: string[] = [];
afterEach(async () => {
  await nodes.stopAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mesh-dial-"));
  dirs.push(dir);
  return dir;
}

const ids = (node: { peers(): { card: { id: string } }[] }) => node.peers().map((p) => p.card.id).sort();

describe("dialRoles", () => {
  it("workers that dial only the manager form a star through a shared registry: N links, not N²", async () => {
    const registryDir = tempDir();
    const hub = await nodes.start({ id: "hub", role: "manager", registryDir, ...FAST_LIVENESS });
    const w1 = await nodes.start({ id: "w1", role: "worker", registryDir, dialRoles: ["manager"], ...FAST_LIVENESS });
    const w2 = await nodes.start({ id: "w2", role: "worker", registryDir, dialRoles: ["manager"], ...FAST_LIVENESS });
    await expect.poll(() => aliveIds(hub)).toEqual(["w1", "w2"]);
    // w3 reads w1's and w2's registry entries when it starts, and the hub's HELLO answer gossips them too.
    const w3 = await nodes.start({ id: "w3", role: "worker", registryDir, dialRoles: ["manager"], ...FAST_LIVENESS });
    await expect.poll(() => aliveIds(hub)).toEqual(["w1", "w2", "w3"]);
    w3.handle("echo", (args) => args);
    // A round trip on the same connection as the hub's HELLO answer and gossip: both were handled before it.
    await expect(w3.request("hub", "ping", {})).resolves.toMatchObject({ id: "hub" });
    await expect(hub.request("w3", "echo", { x: 1 })).resolves.toEqual({ x: 1 });
    for (const worker of [w1, w2, w3]) expect(ids(worker)).toEqual(["hub"]);
    expect(ids(hub)).toEqual(["w1", "w2", "w3"]);
  });

  it("still takes in a peer of another role that says HELLO itself, and answers it", async () => {
    const worker = await nodes.start({ id: "w", role: "worker", dialRoles: ["manager"], ...FAST_LIVENESS });
    const other = await nodes.start({ id: "x", role: "node", seeds: [worker.endpoint], ...FAST_LIVENESS });
    other.handle("echo", (args) => args);
    await expect.poll(() => aliveIds(worker)).toEqual(["x"]);
    await expect(worker.request("x", "echo", { y: 2 })).resolves.toEqual({ y: 2 });
    await expect(other.request("w", "ping", {})).resolves.toMatchObject({ id: "w" });
  });

  it("without dialRoles every node still links to every node (the full mesh)", async () => {
    const registryDir = tempDir();
    const a = await nodes.start({ id: "a", role: "worker", registryDir, ...FAST_LIVENESS });
    const b = await nodes.start({ id: "b", role: "worker", registryDir, ...FAST_LIVENESS });
    const c = await nodes.start({ id: "c", role: "manager", registryDir, ...FAST_LIVENESS });
    await expect.poll(() => aliveIds(a)).toEqual(["b", "c"]);
    await expect.poll(() => aliveIds(b)).toEqual(["a", "c"]);
    await expect.poll(() => aliveIds(c)).toEqual(["a", "b"]);
  });

  it("a worker stops reading the registry while its manager is alive, and reads it again once it left", async () => {
    const registryDir = tempDir();
    const hub = await nodes.start({ id: "hub", role: "manager", registryDir, ...FAST_LIVENESS });
    const worker = await nodes.start({ id: "w", role: "worker", registryDir, dialRoles: ["manager"], ...FAST_LIVENESS });
    await expect.poll(() => aliveIds(worker)).toEqual(["hub"]);
    const other = { ...hub.card, id: "m2", endpoint: "tcp://127.0.0.1:1", incarnation: 1 };
    writeFileSync(join(registryDir, "m2.json"), JSON.stringify({ card: other, pid: process.pid, host: hostname(), updated_at: Date.now() }));
    await hub.stop(); // BYE: the worker's manager is leaving, so the registry is worth reading again
    await expect.poll(() => ids(worker)).toContain("m2");
  });

  it("rejects an empty list", async () => {
    await expect(nodes.start({ id: "e", dialRoles: [] })).rejects.toBeInstanceOf(BusConfigError);
  });
});

const card = (id: string, incarnation = 1, role = "node"): NodeCard => ({ id, incarnation, role, endpoint: "tcp://127.0.0.1:1", protocols: [1], meta: {} });

describe("Membership with dialRoles", () => {
  // Membership's bookkeeping alone; the links it would open are inert stand-ins (no socket is involved).
  const inertLink = { close: async () => undefined, flush: async () => undefined } as unknown as Link;
  const membership = (dialRoles?: string[]) =>
    new Membership(
      { selfId: "me", openLink: () => inertLink, sendHello: () => undefined, sendPing: () => undefined, failPending: () => undefined, dialRoles, events: { joined: () => undefined, left: () => undefined, stateChanged: () => undefined }, logger: pino({ level: "silent" }) },
      { heartbeatMs: 1_000, suspectMs: 3_000, expireMs: 10_000 },
    );

  it("ignores hearsay about roles it does not dial, takes a HELLO from any role, and reads the registry only until a dialed peer is alive", () => {
    const m = membership(["manager"]);
    expect(m.wantsRegistry()).toBe(true);
    m.learn(card("w2", 1, "worker"), "registry");
    m.learn(card("w3", 1, "worker"), "gossip");
    expect(m.size).toBe(0);
    m.learn(card("mgr", 1, "manager"), "registry");
    expect(m.size).toBe(1);
    expect(m.wantsRegistry()).toBe(true); // learned, not heard from yet
    m.seen("mgr", 1);
    expect(m.wantsRegistry()).toBe(false);
    m.learn(card("w4", 1, "worker"), "hello");
    expect(m.records().map((r) => r.card.id).sort()).toEqual(["mgr", "w4"]);
    m.leave("mgr");
    expect(m.wantsRegistry()).toBe(true);
  });

  it("without dialRoles takes every card and always reads the registry", () => {
    const m = membership();
    m.learn(card("w2", 1, "worker"), "registry");
    m.learn(card("mgr", 1, "manager"), "gossip");
    m.seen("mgr", 1);
    expect(m.size).toBe(2);
    expect(m.wantsRegistry()).toBe(true);
  });
});

describe("LocalRegistry", () => {
  it("rewrites its own entry only when the card changes or the refresh interval passed", async () => {
    const dir = tempDir();
    const registry = new LocalRegistry(dir, { refreshMs: 60_000 });
    const first = card("me");
    expect(await registry.announce(first)).toBe(true);
    expect(await registry.announce(first)).toBe(false);
    expect(await registry.announce({ ...first, meta: { scope: "mm" } })).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "me.json"), "utf8")).card.meta).toEqual({ scope: "mm" });
    const eager = new LocalRegistry(dir, { refreshMs: 1 });
    const again = card("other");
    expect(await eager.announce(again)).toBe(true);
    await expect.poll(() => eager.announce(again)).toBe(true);
  });

  it("re-reads only the entries whose file changed, sees replaced and removed entries, and prunes the stale", async () => {
    const dir = tempDir();
    const writer = new LocalRegistry(dir);
    const reader = new LocalRegistry(dir);
    await writer.announce(card("a"));
    await new LocalRegistry(dir).announce(card("b"));
    const path = join(dir, "b.json");
    const second = Math.floor(Date.now() / 1000); // whole seconds, so the mtime can be put back exactly
    utimesSync(path, second, second);
    expect((await reader.read()).map((e) => e.card.id).sort()).toEqual(["a", "b"]);

    // Same inode, size and mtime: the reader keeps what it parsed before and does not read the file again.
    writeFileSync(path, "x".repeat(statSync(path).size));
    utimesSync(path, second, second);
    expect((await reader.read()).map((e) => e.card.id).sort()).toEqual(["a", "b"]);

    // A replaced entry (rename: a new file) is read again; a removed one is gone.
    await writer.announce(card("a", 2));
    await new LocalRegistry(dir).remove("b");
    const entries = await reader.read();
    expect(entries.map((e) => [e.card.id, e.card.incarnation])).toEqual([["a", 2]]);

    // An entry past the stale age is deleted by the reader.
    writeFileSync(join(dir, "old.json"), JSON.stringify({ card: card("old"), pid: process.pid, host: "elsewhere", updated_at: Date.now() - 3_600_000 }));
    expect((await reader.read()).map((e) => e.card.id)).toEqual(["a"]);
    expect(() => statSync(join(dir, "old.json"))).toThrow();
  });
});
