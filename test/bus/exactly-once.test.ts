// Retries never execute a request twice: frames are corrupted or dropped by a real proxy between
// two real nodes, and the handler's execution count is checked.
import { afterEach, describe, expect, it } from "vitest";
import { flipPayloadByte, startCorruptingProxy, type FrameFault, type ProxyHandle } from "../../scripts/fault/corrupting-proxy.js";
import type { MeshNode } from "../../bus/index.js";
import { aliveIds, FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";
import { Packr } from "msgpackr";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const unpack = new Packr({ useRecords: false, int64AsType: "number" });
const nodes = new NodeSet();
const proxies: ProxyHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await nodes.stopAll();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function kindOf(frame: Buffer): string | undefined {
  try {
    return (unpack.unpack(frame.subarray(12)) as { kind?: string }).kind;
  } catch {
    return undefined;
  }
}

/** A fault that hits only the first frame of `kind` going in `direction`. */
function once(direction: "to_node" | "from_node", kind: string, action: "corrupt" | "drop"): FrameFault {
  let done = false;
  return (dir, frame) => {
    if (done || dir !== direction || kindOf(frame) !== kind) return frame;
    done = true;
    return action === "drop" ? null : flipPayloadByte(frame);
  };
}

async function pairThroughProxy(fault: FrameFault): Promise<{ a: MeshNode; b: MeshNode; runs: () => number }> {
  // b binds a private ipc path and advertises the proxy, so every peer reaches b through the proxy.
  const dir = mkdtempSync(join(tmpdir(), "mesh-proxy-"));
  dirs.push(dir);
  const bBind = `ipc://${join(dir, "b.sock")}`;
  const proxy = await startCorruptingProxy(bBind, fault);
  proxies.push(proxy);
  const b = await nodes.start({ id: "b", bind: bBind, advertise: proxy.endpoint, ...FAST_LIVENESS });
  const a = await nodes.start({ id: "a", seeds: [proxy.endpoint], ...FAST_LIVENESS });
  let count = 0;
  b.handle("work", (args) => {
    count++;
    return { done: args };
  });
  await expect.poll(() => aliveIds(a)).toContain("b");
  return { a, b, runs: () => count };
}

describe("exactly-once execution under faults", () => {
  it("a corrupted request is NACKed (crc_mismatch), retried, and executed once", async () => {
    const { a, b, runs } = await pairThroughProxy(once("to_node", "request", "corrupt"));
    await expect(a.request("b", "work", 1, { timeoutMs: 3_000 })).resolves.toEqual({ done: 1 });
    expect(runs()).toBe(1);
    expect(b.stats.get("bad_frame_crc_mismatch")).toBe(1);
    expect(a.stats.get("retries")).toBeGreaterThanOrEqual(1);
  });

  it("a lost reply is recovered by a retry answered from the reply cache", async () => {
    const { a, b, runs } = await pairThroughProxy(once("from_node", "reply", "drop"));
    await expect(a.request("b", "work", 2, { timeoutMs: 1_500 })).resolves.toEqual({ done: 2 });
    expect(runs()).toBe(1);
    expect(b.stats.get("duplicate")).toBeGreaterThanOrEqual(1);
  });

  it("a corrupted reply triggers a re-send answered from the cache", async () => {
    const { a, b, runs } = await pairThroughProxy(once("from_node", "reply", "corrupt"));
    await expect(a.request("b", "work", 3, { timeoutMs: 3_000 })).resolves.toEqual({ done: 3 });
    expect(runs()).toBe(1);
    expect(a.stats.get("bad_frame_crc_mismatch")).toBe(1);
    expect(b.stats.get("duplicate")).toBe(1);
  });

  it("a request sent again under the same message id is answered without a second run, until the reply is acknowledged", async () => {
    const server = await nodes.start({ id: "keeper", ...FAST_LIVENESS });
    const client = await nodes.start({ id: "asker", ...FAST_LIVENESS, seeds: [server.endpoint] });
    let runs = 0;
    server.handle("work", () => ++runs, { retainReplyMs: 600_000 });
    server.handle("ack", (args, ctx) => (args as { ids: string[] }).ids.filter((id) => server.forgetReply(ctx.from, id)).length);
    await expect.poll(() => aliveIds(client)).toEqual(["keeper"]);
    await expect(client.request("keeper", "work", {}, { messageId: "j.same" })).resolves.toBe(1);
    await expect(client.request("keeper", "work", {}, { messageId: "j.same" })).resolves.toBe(1);
    expect(runs).toBe(1);
    await expect(client.request("keeper", "ack", { ids: ["j.same"] })).resolves.toBe(1);
    await expect(client.request("keeper", "work", {}, { messageId: "j.same" })).resolves.toBe(2);
  });
});
