// The manager against misbehaving workers: a worker that fabricates citations is caught, a legacy
// worker's answer triggers re-assignment, and a replica killed mid-task is replaced so the task
// completes exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { MeshNode } from "../../../bus/index.js";
import { Manager } from "../../../agents/manager/manager.js";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { knowledgeFromPgc } from "../../../agents/worker/pgc-knowledge.js";
import { createPgcExecutor } from "../../../agents/worker/pgc-executor.js";
import { serveWorker, workerMeta } from "../../../agents/worker/worker.js";
import type { ScopeKnowledge } from "../../../agents/worker/knowledge.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";
import { expected, TestFleet } from "../../helpers/fleet.js";

const AGENT = fileURLToPath(new URL("../../fixtures/executors/agent.mjs", import.meta.url));
const logger = pino({ level: "silent" });
const fleet = new TestFleet();
let manager: Manager;
const extraNodes: MeshNode[] = [];

async function inProcessWorker(id: string, scope: string, tamper: (k: ScopeKnowledge) => ScopeKnowledge, protocols?: string[]): Promise<MeshNode> {
  const paths = expected.scopes.find((s) => s.name === scope)?.paths ?? [];
  const pgc = new Pgc(scope, paths, await openPgc({ scope, root: C_KERNEL_DIR, scopePaths: paths, cacheRoot: fleet.cache, logger }));
  const knowledge = tamper(knowledgeFromPgc(pgc));
  const executor = createPgcExecutor(knowledge);
  const info = { name: scope, root: pgc.root, paths };
  const meta = { ...workerMeta(info, knowledge, executor), ...(protocols ? { protocol_versions: protocols } : {}) };
  const node = new MeshNode({ id, role: "worker", registryDir: fleet.registry, meta, gossipMs: 200 });
  serveWorker({ node, scope: info, knowledge, executor, logger });
  extraNodes.push(node);
  await node.start();
  return node;
}

beforeAll(async () => {
  // mm: only a worker that fabricates citations (every sha256 replaced).
  await inProcessWorker("mm-fabricator", "mm", (k) => ({ ...k, query: async (t, o) => (await k.query(t, o)).map((c) => ({ ...c, sha256: "f".repeat(64) })) }));
  // net: a legacy worker (sorted first among equals) and a real protocol 2.0 worker.
  const legacy = await inProcessWorker("net-0-legacy", "net", (k) => k, ["1.0-legacy"]);
  legacy.handle("task", (args) => ({ task_id: (args as { id: string }).id, status: "completed", result: "done, trust me", protocol_version: "1.0-legacy" }));
  await fleet.startWorker("net");
  // drivers: two replicas running a scripted agent that hangs on its first task only.
  process.env["MESH_TEST_AGENT_MODE"] = "slow-once";
  process.env["MESH_TEST_SLOW_MARKER"] = join(fleet.dir, "slow-once");
  writeFileSync(join(fleet.dir, "slow-once"), "");
  for (let i = 0; i < 2; i++) await fleet.startWorker("drivers", ["--exec", `${process.execPath} ${AGENT}`, "--workspace", fleet.dir]);
  delete process.env["MESH_TEST_AGENT_MODE"];
  const node = await fleet.node("manager");
  await fleet.untilWorkers(node, 5);
  manager = new Manager({ node, auditDir: join(fleet.dir, "audit"), root: C_KERNEL_DIR, logger });
}, 120_000);

afterAll(async () => {
  await manager.audit.flush();
  await Promise.all(extraNodes.map((n) => n.stop()));
  // Agents orphaned by the killed replica are stopped by their own pids.
  const workspaces = join(fleet.dir, ".agent-workspaces");
  for (const name of existsSync(workspaces) ? readdirSync(workspaces) : []) {
    const pids = join(workspaces, name, "pids.json");
    if (existsSync(pids)) for (const pid of JSON.parse(readFileSync(pids, "utf8")) as number[]) try { process.kill(pid, "SIGKILL"); } catch { /* gone */ }
  }
  await fleet.stop();
});

const grounded = { strategy: "pgc_cite" as const, evidence_required: true };

describe("the manager against misbehaving workers", () => {
  it("rejects a worker that fabricates citations, naming the citation", async () => {
    const result = await manager.delegate({ id: "T-fab", task: "alloc_pages", acceptance_criteria: [], grounding: grounded }, { scope: "mm" });
    expect(result.agent.id).toBe("mm-fabricator");
    expect(result.verdict).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION" });
    expect(result.verdict.reasons[0]).toMatch(/stale or fabricated/);
  });

  it("re-assigns a legacy worker's evidence-free answer to a protocol 2.0 worker", async () => {
    const result = await manager.delegate({ id: "T-legacy", task: "sock_sendmsg", acceptance_criteria: [], grounding: grounded }, { scope: "net" });
    expect(result.reassigned_from).toBe("net-0-legacy");
    expect(result.agent.id).not.toBe("net-0-legacy");
    expect(result.response.protocol_version).toBe("2.0");
    expect(result.verdict.status).not.toBe("rejected");
  });

  it("replaces a replica killed mid-task; the task completes once", { timeout: 60_000 }, async () => {
    const pending = manager.delegate({ id: "T-failover", task: "Explain the transmit path", acceptance_criteria: [], grounding: { strategy: "pgc_first" } }, { scope: "drivers", timeoutMs: 30_000 });
    await expect.poll(() => manager.listAgents().find((a) => a.scope === "drivers" && a.load > 0)?.id, { timeout: 10_000 }).toBeDefined();
    const busy = manager.listAgents().find((a) => a.scope === "drivers" && a.load > 0);
    await expect.poll(() => existsSync(join(fleet.dir, ".agent-workspaces", "T-failover", "pids.json")), { timeout: 10_000 }).toBe(true);
    fleet.workers.get(busy?.id as string)?.child.kill("SIGKILL");
    const result = await pending;
    expect(result.failovers.map((f) => f.agent)).toEqual([busy?.id]);
    expect(result.agent.id).not.toBe(busy?.id);
    expect(result.response.status).toBe("completed");
    const manifest = readFileSync(join(fleet.dir, "audit", "MANIFEST.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string });
    expect(manifest.filter((e) => e.id === "T-failover")).toHaveLength(1);
  });
});
