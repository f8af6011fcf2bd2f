// Nothing accepted is lost when the manager dies: a task running in a 3 s agent command survives a
// SIGKILLed manager — the manager's supervisor (started by `mesh up`) restarts it, and it resumes the task
// from its journal under the same message id, the worker answers from its reply cache, the waiting `mesh delegate` gets the result from
// the new manager, and the agent ran exactly once. Real processes throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN, meshCli, processAlive } from "../helpers/processes.js";
import pino from "pino";
import { FleetLink } from "../../src/fleet/fleet-link.js";
import { buildTask } from "../../src/delegation.js";

const home = mkdtempSync(join(tmpdir(), "mesh-home-durable-"));
const root = join(home, "code");
const counter = join(home, "runs.log");
const agent = join(home, "slow-agent.mjs");
const env = { ...process.env, MESH_HOME: home };
const mesh = meshCli(env);
const EXEC = `${process.execPath} ${agent} ${counter}`;

interface Fleet {
  workers: { pid: number }[];
  manager: { pid: number; supervisor?: number } | null;
}
const fleetDir = () => join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
const fleetFile = () => JSON.parse(readFileSync(join(fleetDir(), "fleet.json"), "utf8")) as Fleet;
const runs = () => (existsSync(counter) ? readFileSync(counter, "utf8").split("\n").filter(Boolean) : []);
const pids = new Set<number>();

beforeAll(async () => {
  cpSync(C_KERNEL_DIR, root, { recursive: true });
  writeFileSync(
    agent,
    `import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const [counter, workspace] = [process.argv[2], process.argv.at(-1)];
appendFileSync(counter, "start " + process.pid + "\\n");
await new Promise((resolve) => setTimeout(resolve, 3000));
writeFileSync(join(workspace, "OUTPUT.md"), "# Task Complete: " + process.env.MESH_TASK_ID + "\\n\\n**Status:** completed\\n**Agent:** slow\\n\\n## Summary\\nDone slowly, once.\\n\\n## Key Findings\\n- it took three seconds\\n");
appendFileSync(counter, "end " + process.pid + "\\n");
`,
  );
  chmodSync(agent, 0o755);
  const up = await mesh(["up", root, "--exec", EXEC, "--json"]);
  expect(up.code, up.stderr).toBe(0);
  for (const w of fleetFile().workers) pids.add(w.pid);
  pids.add(fleetFile().manager?.supervisor as number);
}, 180_000);

/** The manager's pid once its supervisor has restarted it in place of `dead`. */
async function restartedAfter(dead: number): Promise<number> {
  await expect.poll(() => processAlive(dead)).toBe(false);
  await expect.poll(() => fleetFile().manager?.pid, { timeout: 30_000 }).not.toBe(dead);
  const next = fleetFile().manager?.pid as number;
  pids.add(next);
  return next;
}

afterAll(async () => {
  await mesh(["down", root]);
  for (const pid of pids) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

describe("a manager killed mid-task", () => {
  it("is restarted by its supervisor, resumes the task from its journal, and the waiting client gets the result of one run", { timeout: 120_000 }, async () => {
    const client = spawn(process.execPath, [MESH_BIN, "delegate", "--scope", "mm", "--task", "Where is kmalloc defined?", "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    client.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    client.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => client.once("exit", resolve));

    // The agent has started on the task: kill the manager that dispatched it.
    await expect.poll(() => runs().length, { timeout: 30_000 }).toBe(1);
    const first = fleetFile().manager?.pid as number;
    const supervisor = fleetFile().manager?.supervisor as number;
    pids.add(first);
    process.kill(first, "SIGKILL");
    const second = await restartedAfter(first);
    expect(processAlive(second)).toBe(true);
    expect(fleetFile().manager?.supervisor).toBe(supervisor);

    expect(await exited, stderr).toBe(0);
    const result = JSON.parse(stdout) as { response: { status: string; result: string }; verdict: { status: string } };
    expect(result.response.status).toBe("completed");
    expect(result.response.result).toMatch(/Done slowly, once\./);
    // One run of the agent, from start to end.
    expect(runs().filter((l) => l.startsWith("start"))).toHaveLength(1);
    expect(runs().filter((l) => l.startsWith("end"))).toHaveLength(1);
    // The new manager says it took over and resumed; the journal holds nothing unfinished.
    const log = readdirSync(join(fleetDir(), "logs")).filter((f) => f.startsWith("manager")).map((f) => readFileSync(join(fleetDir(), "logs", f), "utf8")).join("\n");
    expect(log).toMatch(/took over the manager lock/);
    expect(log).toMatch(/resuming a task a previous manager accepted/);
    const journal = readFileSync(join(fleetDir(), "audit", "journal.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { op: string });
    expect(journal.map((l) => l.op)).toEqual(["accepted", "dispatched", "dispatched", "done"]);
  });

  /**
   * Stops the fleet's supervised manager and starts a new one (mesh up) whose first incarnation dies (as if
   * SIGKILLed) at `point`, then delegates one task: the supervisor restarts the manager without the crash point.
   */
  async function crashAt(point: string): Promise<void> {
    const current = fleetFile().manager as { pid: number; supervisor: number };
    process.kill(current.supervisor, "SIGTERM");
    await expect.poll(() => processAlive(current.supervisor) || processAlive(current.pid), { timeout: 30_000 }).toBe(false);
    const armed = await mesh(["up", root, "--exec", EXEC, "--json"], { ...env, MESH_CRASH_AT: point });
    expect(armed.code, armed.stderr).toBe(0);
    const doomed = fleetFile().manager?.pid as number;
    pids.add(doomed);
    pids.add(fleetFile().manager?.supervisor as number);
    rmSync(counter, { force: true });

    const client = spawn(process.execPath, [MESH_BIN, "delegate", "--scope", "mm", "--task", `Where is kmalloc defined? (${point})`, "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    client.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    client.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => client.once("exit", resolve));
    await expect.poll(() => processAlive(doomed), { timeout: 30_000 }).toBe(false);
    // Where it died: before the worker had the task, or after the agent had run and the worker replied.
    expect(runs().filter((l) => l.startsWith("start"))).toHaveLength(point === "after_journal" ? 0 : 1);

    await restartedAfter(doomed);
    expect(await exited, stderr).toBe(0);
    const result = JSON.parse(stdout) as { response: { status: string; result: string } };
    expect(result.response.status).toBe("completed");
    expect(result.response.result).toMatch(/Done slowly, once\./);
    expect(runs().filter((l) => l.startsWith("start"))).toHaveLength(1);
  }

  it("dies between journaling a task and sending it: the next manager sends it, and the agent runs once", { timeout: 120_000 }, async () => {
    await crashAt("after_journal");
  });

  it("dies between the worker's reply and recording it: the next manager gets it from the worker's reply cache, and the agent ran once", { timeout: 120_000 }, async () => {
    await crashAt("after_reply");
  });

  it("a long-lived client (the MCP server's fleet link) follows the fleet to the new manager too", { timeout: 120_000 }, async () => {
    process.env["MESH_HOME"] = home; // the link finds the fleet as the other commands do
    const link = new FleetLink(root, pino({ level: "silent" }));
    rmSync(counter, { force: true });
    try {
      const task = buildTask({ task: "Where is kfree defined? (through the fleet link)" });
      const answer = link.request("delegate", { scope: "mm", task }, { recover: { op: "delegation", args: { task_id: task.id } } });
      await expect.poll(() => runs().length, { timeout: 30_000 }).toBe(1);
      const first = fleetFile().manager?.pid as number;
      process.kill(first, "SIGKILL");
      await restartedAfter(first);
      const result = (await answer) as { response: { status: string; result: string } };
      expect(result.response.status).toBe("completed");
      expect(result.response.result).toMatch(/Done slowly, once\./);
      expect(runs().filter((l) => l.startsWith("start"))).toHaveLength(1);
    } finally {
      await link.close();
    }
  });

  it("dies with a question accepted and not answered: the client asks the restarted manager again under the same id", { timeout: 120_000 }, async () => {
    const current = fleetFile().manager as { pid: number; supervisor: number };
    process.kill(current.supervisor, "SIGTERM");
    await expect.poll(() => processAlive(current.supervisor) || processAlive(current.pid), { timeout: 30_000 }).toBe(false);
    const armed = await mesh(["up", root, "--exec", EXEC, "--json"], { ...env, MESH_CRASH_AT: "before_answer" });
    expect(armed.code, armed.stderr).toBe(0);
    const doomed = fleetFile().manager?.pid as number;
    pids.add(doomed);
    pids.add(fleetFile().manager?.supervisor as number);
    const asked = await mesh(["ask", "How does kmalloc allocate memory?", "--json"]);
    expect(asked.code, asked.stderr).toBe(0);
    // The manager that accepted it died at once; its successor answered under the id the client drew.
    expect(processAlive(doomed)).toBe(false);
    const result = JSON.parse(asked.stdout) as { id: string; outcome: string };
    expect(result.id).toMatch(/^q-\d{8}-[0-9a-f]{8}$/);
    const replay = await mesh(["trace", result.id, "--json"]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(result.id);
  });

  it("mesh down stops the supervisor before the manager, so nothing restarts it", { timeout: 60_000 }, async () => {
    const { pid, supervisor } = fleetFile().manager as { pid: number; supervisor: number };
    const down = await mesh(["down", root]);
    expect(down.code, down.stderr).toBe(0);
    expect(processAlive(supervisor)).toBe(false);
    expect(processAlive(pid)).toBe(false);
    expect(fleetFile().manager).toBeNull();
  });
});
