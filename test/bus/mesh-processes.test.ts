// A mesh of real OS processes: convergence from one seed, loss of the seed, a killed peer, a restart
// under a new incarnation, and clean exits on SIGTERM.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PeerUnavailableError, type MeshNode } from "../../bus/index.js";
import { aliveIds, NodeSet } from "../helpers/nodes.js";
import { ProcessSet, type NodeProcess } from "../helpers/processes.js";

const processes = new ProcessSet();
const nodes = new NodeSet();
const dirs: string[] = [];
afterEach(async () => {
  await nodes.stopAll();
  processes.killAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FAST = { heartbeatMs: 150, suspectMs: 500, expireMs: 1_500, gossipMs: 300 } as const;

async function peersOf(observer: MeshNode, id: string): Promise<string[]> {
  const view = (await observer.request(id, "peers", {}, { timeoutMs: 2_000 })) as { peers: { card: { id: string }; state: string }[] };
  return view.peers.filter((p) => p.state === "alive").map((p) => p.card.id).sort();
}

describe("a mesh of processes", () => {
  it("ten nodes converge from one seed, and survive the loss of the seed", { timeout: 60_000 }, async () => {
    const seed = await processes.startNode("n0");
    const others: NodeProcess[] = [];
    for (let i = 1; i < 10; i++) others.push(await processes.startNode(`n${i}`, ["--seed", seed.endpoint]));
    const observer = await nodes.start({ id: "observer", seeds: [seed.endpoint], ...FAST });
    const all = ["n0", ...others.map((o) => o.id)];
    await expect.poll(() => aliveIds(observer), { timeout: 15_000 }).toEqual(all);
    for (const id of all) {
      const expected = [...all.filter((x) => x !== id), "observer"].sort();
      await expect.poll(() => peersOf(observer, id), { timeout: 15_000 }).toEqual(expected);
    }

    seed.child.kill("SIGKILL");
    const survivors = others.map((o) => o.id);
    await expect.poll(() => aliveIds(observer), { timeout: 10_000 }).toEqual(survivors);
    for (const id of survivors) {
      await expect.poll(() => peersOf(observer, id), { timeout: 10_000 }).toEqual([...survivors.filter((x) => x !== id), "observer"].sort());
      await expect(observer.request(id, "ping", {})).resolves.toMatchObject({ id });
    }
  });

  it("a killed peer fails its pending requests fast; its restart is used again", { timeout: 60_000 }, async () => {
    const peer = await processes.startNode("worker", ["--diagnostic-ops"]);
    const caller = await nodes.start({ id: "caller", seeds: [peer.endpoint], ...FAST });
    await expect.poll(() => aliveIds(caller)).toEqual(["worker"]);

    const pending = caller.request("worker", "sleep", { ms: 120_000 }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await expect.poll(() => caller.stats.get("requests_sent")).toBeGreaterThan(0);
    peer.child.kill("SIGKILL");
    const error = await pending;
    // Failed through expiry, well before its 60 s deadline would have produced a TimeoutError.
    expect(error).toBeInstanceOf(PeerUnavailableError);

    const restarted = await processes.startNode("worker", ["--diagnostic-ops", "--seed", caller.endpoint]);
    expect(restarted.incarnation).toBeGreaterThan(peer.incarnation);
    await expect.poll(() => caller.peerCard("worker")?.incarnation).toBe(restarted.incarnation);
    await expect(caller.request("worker", "ping", {})).resolves.toMatchObject({ incarnation: restarted.incarnation });
  });

  it("a restart under a new incarnation fails the old incarnation's requests at once", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-restart-"));
    dirs.push(dir);
    const endpoint = `ipc://${dir}/w.sock`;
    const first = await processes.startNode("worker", ["--diagnostic-ops", "--bind", endpoint]);
    const caller = await nodes.start({ id: "caller", seeds: [endpoint], ...FAST, expireMs: 60_000, suspectMs: 30_000 });
    await expect.poll(() => aliveIds(caller)).toEqual(["worker"]);
    const pending = caller.request("worker", "sleep", { ms: 120_000 }, { timeoutMs: 50_000 }).catch((e: unknown) => e);
    await expect.poll(() => caller.stats.get("requests_sent")).toBeGreaterThan(0);
    first.child.kill("SIGKILL");
    await first.exited;
    const second = await processes.startNode("worker", ["--diagnostic-ops", "--bind", endpoint]);
    // Expiry is 60 s here, so only the new incarnation's HELLO can have failed the request.
    const error = await pending;
    expect(error).toBeInstanceOf(PeerUnavailableError);
    expect((error as Error).message).toMatch(/restarted/);
    await expect(caller.request("worker", "ping", {})).resolves.toMatchObject({ incarnation: second.incarnation });
  });

  it("every node process exits 0 on SIGTERM after saying stopped", { timeout: 30_000 }, async () => {
    const a = await processes.startNode("a");
    const b = await processes.startNode("b", ["--seed", a.endpoint]);
    const observer = await nodes.start({ id: "observer", seeds: [a.endpoint], ...FAST });
    await expect.poll(() => aliveIds(observer)).toEqual(["a", "b"]);
    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
    expect(b.events.at(-1)).toMatchObject({ event: "stopped", id: "b" });
    // BYE: the observer forgets b at once instead of waiting for expiry.
    await expect.poll(() => aliveIds(observer)).toEqual(["a"]);
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
  });
});
