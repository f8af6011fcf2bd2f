// A connection that drops and comes back (a network cut, a reset) loses what was in flight on it: the
// request or its reply. The link sees the new connection and sends every unanswered request again under
// its id at once, so the caller gets its reply within moments of the heal — not at its attempt's timeout —
// and the handler still runs once. A connection that goes quiet without closing is redialled by the link's
// keep-alive. Real nodes and a real TCP proxy between them.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keyring, MeshClient, newCurveKeys, type MeshNode } from "../../bus/index.js";
import { startTcpProxy, type TcpProxy } from "../../scripts/fault/tcp-proxy.js";
import { aliveIds, FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";

const nodes = new NodeSet();
const proxies: TcpProxy[] = [];
const clients: MeshClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await nodes.stopAll();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A handler that runs until `release` is called, counting its runs. */
function slowHandler(node: MeshNode): { runs: () => number; release: () => void; started: Promise<void> } {
  let runs = 0;
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const startedP = new Promise<void>((resolve) => (started = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  node.handle("work", async () => {
    runs++;
    started();
    await gate;
    return { ok: true };
  });
  return { runs: () => runs, release: () => release(), started: startedP };
}

/**
 * The handler has started on `reply`'s request: the connection is cut, the reply goes out into it, and the
 * cut heals 300 ms later. The reply must arrive within seconds of the heal (its attempt lasts 60 s), from
 * one run of the handler.
 */
async function expectAnsweredAcrossCut(reply: Promise<unknown>, work: ReturnType<typeof slowHandler>, proxy: TcpProxy): Promise<void> {
  await work.started;
  proxy.partition();
  work.release();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const healed = Date.now();
  proxy.heal();
  await expect(reply).resolves.toEqual({ ok: true });
  expect(Date.now() - healed).toBeLessThan(10_000);
  expect(work.runs()).toBe(1);
}

/** A node with a slow `work` handler, a TCP proxy in front of it, and a client of one 60 s attempt through the proxy. */
async function clientThroughProxy(id: string): Promise<{ proxy: TcpProxy; work: ReturnType<typeof slowHandler>; client: MeshClient }> {
  const server = await nodes.start({ id, bind: "tcp://127.0.0.1:*" });
  const proxy = await startTcpProxy(server.endpoint);
  proxies.push(proxy);
  const client = new MeshClient({ endpoint: proxy.endpoint, timeoutMs: 60_000, attempts: 1 });
  clients.push(client);
  return { proxy, work: slowHandler(server), client };
}

describe("requests across a connection that drops and comes back", () => {
  it("a client's request whose reply was lost in the cut is answered after the heal, once, long before its attempt timeout", { timeout: 30_000 }, async () => {
    // One attempt of 60 s: without a resend on reconnect, the reply lost in the cut would cost all of it.
    const { proxy, work, client } = await clientThroughProxy("server");
    await expectAnsweredAcrossCut(client.request("work", {}), work, proxy);
  });

  it("a node's request to a peer across a cut is answered after the heal, once", { timeout: 30_000 }, async () => {
    // b binds a private ipc path and advertises the proxy: every peer reaches b through it.
    const dir = mkdtempSync(join(tmpdir(), "mesh-reconnect-"));
    dirs.push(dir);
    const bBind = `ipc://${join(dir, "b.sock")}`;
    const proxy = await startTcpProxy(bBind);
    proxies.push(proxy);
    const bBehind = await nodes.start({ id: "b", bind: bBind, advertise: proxy.endpoint, ...FAST_LIVENESS });
    const a = await nodes.start({ id: "a", seeds: [proxy.endpoint], ...FAST_LIVENESS });
    await expect.poll(() => aliveIds(a)).toContain("b");
    const work = slowHandler(bBehind);
    await expectAnsweredAcrossCut(a.request("b", "work", {}, { timeoutMs: 60_000, attempts: 1 }), work, proxy);
  });

  it("a client's connection that goes quiet without closing is redialled, and its waiting request answered once", { timeout: 30_000 }, async () => {
    const { proxy, work, client } = await clientThroughProxy("quiet");
    expect(await client.request("ping")).toBeDefined();
    // Everything on the open connection is held for a minute, as a receiver waiting on a corrupted length
    // field would hold it: nothing closes, nothing passes. A new connection passes at once.
    proxy.setFaults({ delayMs: 60_000 });
    const connections = proxy.stats.connections;
    const reply = client.request("work", {});
    // The keep-alive pings after 1 s of silence, and redials after 3 s: a second connection through the proxy.
    await expect.poll(() => proxy.stats.connections, { timeout: 10_000, interval: 100 }).toBeGreaterThan(connections);
    proxy.setFaults({});
    await work.started;
    work.release();
    await expect(reply).resolves.toEqual({ ok: true });
    expect(work.runs()).toBe(1);
  });

  it("a secured client's request (CURVE) whose connection is cut mid-reply, and one whose bytes are corrupted, are answered once", { timeout: 30_000 }, async () => {
    const server = newCurveKeys();
    const friend = newCurveKeys();
    const node = await nodes.start({ id: "secure", bind: "tcp://127.0.0.1:*", curve: { ...server, keyring: new Keyring([server.publicKey, friend.publicKey]) } });
    const proxy = await startTcpProxy(node.endpoint);
    proxies.push(proxy);
    const work = slowHandler(node);
    const client = new MeshClient({ endpoint: proxy.endpoint, timeoutMs: 60_000, attempts: 1, curve: { ...friend, serverKey: server.publicKey } });
    clients.push(client);
    await expectAnsweredAcrossCut(client.request("work", {}), work, proxy);
    // Every segment corrupted for a moment: CURVE refuses the bytes, the connection is dropped and made again.
    proxy.setFaults({ corrupt: 1 });
    const second = client.request("work", { again: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.setFaults({});
    await expect(second).resolves.toEqual({ ok: true });
    expect(work.runs()).toBe(2);
  });
});
