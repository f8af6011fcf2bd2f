// Bounded queues: a peer that cannot be reached fills this node's send queue, and callers get
// BusyError at once instead of an unbounded buffer.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { BusyError } from "../../bus/index.js";
import { FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";

const nodes = new NodeSet();
const dirs: string[] = [];
afterEach(async () => {
  await nodes.stopAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("back-pressure", () => {
  it("a full per-peer send queue answers busy", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-registry-"));
    dirs.push(dir);
    // A registered peer whose endpoint nobody listens on: it stays "connecting" and never drains.
    const ghost = { id: "ghost", incarnation: 1, role: "node", endpoint: `ipc://${join(dir, "nobody.sock")}`, protocols: [1], meta: {} };
    writeFileSync(join(dir, "ghost.json"), JSON.stringify({ card: ghost, pid: process.pid, host: hostname(), updated_at: Date.now() }));
    const node = await nodes.start({ id: "sender", registryDir: dir, sendQueueCapacity: 4, ...FAST_LIVENESS, expireMs: 30_000, suspectMs: 20_000 });
    expect(node.peers().map((p) => p.card.id)).toEqual(["ghost"]);

    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => node.request("ghost", "ping", {}, { attempts: 1, timeoutMs: 300 }).catch((e: unknown) => e)),
    );
    const busy = outcomes.filter((o) => o instanceof BusyError);
    // HELLO waits inside the socket's send; four requests fill the queue; the other four are refused at once.
    expect(busy).toHaveLength(4);
    expect(outcomes.filter((o) => (o as Error).name === "TimeoutError")).toHaveLength(4);
  });
});
