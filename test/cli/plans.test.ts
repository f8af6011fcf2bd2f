// Delegation plans over a fleet of real worker processes whose executor is a scripted agent (--exec):
// each strategy through `mesh delegate --plan`, a failure in a middle stage, a plan cancelled with Ctrl-C
// that leaves no agent process behind, 20 parallel steps spread over replicas, and the MCP tool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN, processAlive } from "../helpers/processes.js";
import type { PlanResult } from "../../src/plans/index.js";

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), "mesh-home-plans-"));
const env = { ...process.env, MESH_HOME: home } as Record<string, string>;
const AGENT = `${process.execPath} ${join(process.cwd(), "test", "fixtures", "executors", "agent-plan.mjs")} --model {model}`;
let fleetDir = "";

async function planRun(plan: unknown): Promise<{ code: number; result: PlanResult; stderr: string }> {
  const file = join(home, `plan-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(plan));
  try {
    const { stdout, stderr } = await run(process.execPath, [MESH_BIN, "delegate", "--plan", file, "--json"], { env, timeout: 120_000 });
    return { code: 0, result: JSON.parse(stdout) as PlanResult, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, result: (e.stdout ? JSON.parse(e.stdout) : null) as PlanResult, stderr: e.stderr };
  }
}

const finding = (result: PlanResult, id: string, prefix: string) => result.steps.find((s) => s.id === id)?.key_findings.find((f) => f.startsWith(prefix));

beforeAll(async () => {
  await run(process.execPath, [MESH_BIN, "up", C_KERNEL_DIR, "--replicas", "2", "--exec", AGENT], { env, timeout: 240_000 });
  fleetDir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
}, 300_000);
afterAll(async () => {
  await run(process.execPath, [MESH_BIN, "down", C_KERNEL_DIR], { env, timeout: 60_000 }).catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
});

describe("mesh delegate --plan", () => {
  it("runs a small independent plan in parallel, with the model hint reaching the agent's command line and environment", async () => {
    const { code, result } = await planRun({ tasks: [{ id: "a", scope: "mm", task: "Where is kmalloc?" }, { id: "b", scope: "net", task: "Where is dev_queue_xmit?" }] });
    expect(code).toBe(0);
    expect(result.status).toBe("completed");
    expect(result.strategy).toMatchObject({ mode: "parallel", model_hint: "haiku", auto_calculated: true });
    expect(finding(result, "a", "strategy:")).toBe("strategy: parallel model haiku argv --model haiku");
    const handoff = readFileSync(join(result.steps[0]?.workspace as string, "HANDOFF.md"), "utf8");
    expect(handoff).toContain("## Execution Strategy\n- **Mode**: parallel\n- **Complexity**: ");
    expect(handoff).toContain("- **Model Hint**: haiku\n- **Auto-calculated**: true");
  });

  it("runs a sequential plan in dependency order, each step handed the findings of what it follows", async () => {
    const { result } = await planRun({ tasks: [{ id: "first", scope: "drivers", task: "Find e1000_setup_ring" }, { id: "second", scope: "kernel", task: "Explain dma_alloc_coherent", depends_on: ["first"] }] });
    expect(result.strategy.mode).toBe("sequential");
    expect(finding(result, "first", "handed:")).toBe("handed: none");
    expect(finding(result, "second", "handed:")).toBe("handed: first");
    expect(result.steps.map((s) => s.status)).toEqual(["completed", "completed"]);
  });

  it("runs a pipeline stage by stage, and a failure in the middle stage blocks what follows it with the reason", async () => {
    const { code, result } = await planRun({
      strategy: "pipeline",
      tasks: [
        { id: "s1", scope: "drivers", task: "Stage one: e1000_setup_ring" },
        { id: "s2", scope: "kernel", task: "Stage two: dma_alloc_coherent [fail]", depends_on: ["s1"] },
        { id: "s3", scope: "mm", task: "Stage three: kmalloc", depends_on: ["s2"] },
        { id: "side", scope: "net", task: "Independent: dev_queue_xmit" },
      ],
    });
    expect(code).toBe(1);
    expect(result.status).toBe("partial");
    expect(result.strategy).toMatchObject({ mode: "pipeline", auto_calculated: false });
    expect(Object.fromEntries(result.steps.map((s) => [s.id, s.status]))).toEqual({ s1: "completed", s2: "failed", s3: "blocked", side: "completed" });
    // A stage takes the whole previous stage.
    expect(finding(result, "s2", "handed:")).toBe("handed: s1,side");
    expect(result.steps.find((s) => s.id === "s3")?.reason).toMatch(/^step s2 \(kernel\) failed: its (agent answered failed|answer was rejected)/);
    // One MANIFEST.jsonl line per step, the blocked one too.
    const manifest = readFileSync(join(fleetDir, "audit", "MANIFEST.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; status: string; needs_followup: string[] });
    for (const step of result.steps) expect(manifest.some((m) => m.id === step.task_id), step.id).toBe(true);
    expect(manifest.find((m) => m.id === result.steps[2]?.task_id)).toMatchObject({ status: "blocked", needs_followup: [expect.stringMatching(/^step s2/)] });
  });

  it("fans out and in: the branches run, the last step is handed all of them, and the result aggregates their findings", async () => {
    const { result } = await planRun({
      strategy: "fan-out-fan-in",
      tasks: [
        { id: "n", scope: "net", task: "Branch: dev_queue_xmit" },
        { id: "d", scope: "drivers", task: "Branch: e1000_setup_ring" },
        { id: "k", scope: "kernel", task: "Branch: dma_alloc_coherent" },
        { id: "all", scope: "mm", task: "Join them at kmalloc", depends_on: ["n", "d", "k"] },
      ],
    });
    expect(result.status).toBe("completed");
    expect(finding(result, "all", "handed:")).toBe("handed: n,d,k");
    expect(result.aggregate?.summary).toMatch(/^n \(net\):\n- step /);
    expect(result.aggregate?.summary).toContain("all (mm):");
  });

  it("spreads 20 parallel steps over the replicas of 4 scopes", async () => {
    const scopes = ["net", "drivers", "kernel", "mm"];
    const about = ["dev_queue_xmit", "e1000_setup_ring", "dma_alloc_coherent", "kmalloc"];
    const { result } = await planRun({ tasks: Array.from({ length: 20 }, (_, i) => ({ id: `p${i}`, scope: scopes[i % 4], task: `Parallel step ${i}: ${about[i % 4]}` })) });
    expect(result.status).toBe("completed");
    expect(result.strategy.mode).toBe("parallel");
    const perAgent = new Map<string, number>();
    for (const step of result.steps) perAgent.set(step.agent as string, (perAgent.get(step.agent as string) ?? 0) + 1);
    // Each scope has two replicas, and the least-loaded choice gives both of them work.
    expect([...perAgent.keys()].sort()).toEqual(["drivers-1", "drivers-2", "kernel-1", "kernel-2", "mm-1", "mm-2", "net-1", "net-2"]);
    const outputs = result.steps.map((s) => JSON.parse(readFileSync(join(fleetDir, "audit", "outputs", `${s.task_id}.json`), "utf8")) as { agent: string });
    expect(new Set(outputs.map((o) => o.agent)).size).toBe(8);
  });

  it("opens each step of an agent's plan with the delegation preamble one level deeper, and refuses one past depth 3", async () => {
    const { result } = await planRun({ delegation_depth: 1, delegation_chain: ["primary"], delegated_by: "planner", tasks: [{ id: "a", scope: "mm", task: "Where is kmalloc?" }] });
    const handoff = readFileSync(join(result.steps[0]?.workspace as string, "HANDOFF.md"), "utf8");
    expect(handoff.split("\n").slice(0, 4)).toEqual(["[AI-TO-AI DELEGATION]", "From: planner", "Chain: human -> primary -> planner -> you", "Max-Depth: 3 | Your-Depth: 2 | Can-Spawn: YES"]);
    const deep = await planRun({ delegation_depth: 3, delegation_chain: ["p", "q", "r"], delegated_by: "s", tasks: [{ id: "a", scope: "mm", task: "x" }] });
    expect(deep.code).toBe(65);
    expect(deep.stderr).toMatch(/past the maximum of 3 \(seed 004\): do the work inline \(DELEGATION_DEPTH_EXCEEDED\)/);
  });

  it("refuses a plan with a cycle before anything runs, naming the steps", async () => {
    const { code, stderr } = await planRun({ tasks: [{ id: "x", scope: "mm", task: "a", depends_on: ["y"] }, { id: "y", scope: "mm", task: "b", depends_on: ["x"] }] });
    expect(code).toBe(65);
    expect(stderr).toMatch(/the steps depend on each other in a cycle: (x → y → x|y → x → y) \(dependency_cycle\)/);
  });

  it("cancels the running steps on Ctrl-C and leaves no agent process behind", async () => {
    const file = join(home, "slow-plan.json");
    writeFileSync(file, JSON.stringify({ tasks: [{ id: "slow", scope: "mm", task: "Wait at kmalloc [slow]" }, { id: "after", scope: "net", task: "Then dev_queue_xmit", depends_on: ["slow"] }] }));
    const child = spawn(process.execPath, [MESH_BIN, "delegate", "--plan", file, "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const agents = () => (readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((pid) => {
      try {
        // The scripted agent of this fleet (not a worker, whose --exec names it too): node agent-plan.mjs … WORKSPACE.
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
        return argv[1]?.endsWith("agent-plan.mjs") === true && argv.at(-1)?.startsWith(fleetDir) === true;
      } catch {
        return false;
      }
    }).map(Number));
    await expect.poll(() => agents().length, { timeout: 30_000 }).toBeGreaterThan(0);
    const pids = agents();
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as PlanResult;
    expect(result.steps.map((s) => s.status)).toEqual(["cancelled", "cancelled"]);
    await expect.poll(() => pids.filter(processAlive), { timeout: 20_000 }).toEqual([]);
  });
});

describe("delegate_plan over MCP", () => {
  it("runs a plan, reports progress per step, and refuses an unknown scope naming the step", async () => {
    const client = new Client({ name: "plans-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MESH_BIN, "mcp"], env, stderr: "pipe" }));
    try {
      const progress: string[] = [];
      const ok = (await client.callTool({ name: "delegate_plan", arguments: { tasks: [{ id: "a", scope: "mm", task: "One: kmalloc" }, { id: "b", scope: "kernel", task: "Two: dma_alloc_coherent", depends_on: ["a"] }] } }, undefined, { onprogress: (p) => void progress.push(p.message ?? "") })) as CallToolResult;
      expect((ok.structuredContent as unknown as PlanResult).status).toBe("completed");
      expect(progress).toContain("a started on mm");
      const bad = (await client.callTool({ name: "delegate_plan", arguments: { tasks: [{ id: "a", scope: "memory", task: "One" }] } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(bad.content[0]).toMatchObject({ text: expect.stringMatching(/^\[unknown_scope\] steps name scopes the fleet does not serve: a \(memory\)/) });
    } finally {
      await client.close();
    }
    expect(existsSync(fleetDir)).toBe(true);
  });
});
