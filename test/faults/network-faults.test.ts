// The fault-injection suite, the part that needs no privileges: a fleet on two "hosts" (two $MESH_HOMEs
// and two copies of the code; the scope mm lives only on host B, joined with `mesh join`), every byte
// between host B and the manager passing through user-space TCP proxies (scripts/fault/tcp-proxy.ts) that
// delay, stall, corrupt and partition it. Under each fault a batch of tasks is delegated to mm, whose
// agent command logs each run: every task must end with a result or a clear error, and none may run twice;
// a partition must bring the liveness verdicts the documentation promises, and heal without a restart.
// Prints a table of fault × outcome (docs/BENCHMARKS.md, "Faults").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { MeshClient } from "../../bus/index.js";
import { DEFAULT_EXPIRE_MS, DEFAULT_HEARTBEAT_MS, DEFAULT_SUSPECT_MS } from "../../bus/peer-table.js";
import { fleetClientCurve } from "../../src/security.js";
import { startTcpProxy, type TcpProxy } from "../../scripts/fault/tcp-proxy.js";
import { meshCli, processAlive } from "../helpers/processes.js";
import { delegateTask, ranTwice, runLinesOf, splitDemoKernel, writeFaultAgent } from "./fault-fleet.js";

const base = mkdtempSync(join(tmpdir(), "mesh-faults-"));
const hostA = { home: join(base, "a"), root: join(base, "a-code") };
const hostB = { home: join(base, "b"), root: join(base, "b-code") };
const envA = { ...process.env, MESH_HOME: hostA.home };
const onA = meshCli(envA);
const onB = meshCli({ ...process.env, MESH_HOME: hostB.home });
const runs = join(base, "runs.log");
const EXEC = writeFaultAgent(join(base, "agent.mjs"), runs);
const pids = new Set<number>();
let toManager: TcpProxy;
let toWorker: TcpProxy;
let direct: MeshClient;
/** `mesh join …` as host B runs it. */
let joinArgs: string[] = [];

const fleetDirOf = (home: string) => join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
const fleetOf = (home: string, file: string) => JSON.parse(readFileSync(join(fleetDirOf(home), file), "utf8")) as { workers: { id: string; pid: number }[]; manager?: { pid: number; supervisor?: number } | null };
const runLines = () => runLinesOf(runs);

interface Outcome {
  fault: string;
  tasks: number;
  completed: number;
  clear_errors: number;
  ran_twice: number;
  max_ms: number;
  chunks: number;
  stalled: number;
  corrupted: number;
  verdicts: string;
  /** The first line of each clear error. */
  errors: string[];
}
const table: Outcome[] = [];

/** Runs `count` tasks at once and checks each ended with a result or a clear error, none run twice. */
async function batch(fault: string, count: number, during?: () => Promise<string>): Promise<Outcome> {
  const before = { ...toManager.stats };
  const beforeW = { ...toWorker.stats };
  const ids = Array.from({ length: count }, (_, i) => `${fault} #${i + 1}`);
  const answers = Promise.all(ids.map((task) => delegateTask(task, envA)));
  const verdicts = during ? await during() : "";
  const results = await answers;
  let completed = 0;
  let clear = 0;
  const errors: string[] = [];
  for (const r of results) {
    if (r.code === 0) {
      expect((JSON.parse(r.stdout) as { response: { status: string } }).response.status).toBe("completed");
      completed++;
    } else {
      // A clear error: a CLI message with what happened, never a crash or a silent hang.
      expect(r.stderr, r.stdout).toMatch(/^mesh: .+/m);
      errors.push(/^mesh: (.+)$/m.exec(r.stderr)?.[1] ?? "");
      clear++;
    }
  }
  const twice = ranTwice(runs, ids);
  const sum = (key: "chunks" | "lost" | "corrupted") => toManager.stats[key] - before[key] + toWorker.stats[key] - beforeW[key];
  const outcome: Outcome = { fault, tasks: count, completed, clear_errors: clear, ran_twice: twice, max_ms: Math.max(...results.map((r) => r.ms)), chunks: sum("chunks"), stalled: sum("lost"), corrupted: sum("corrupted"), verdicts, errors };
  table.push(outcome);
  expect(completed + clear).toBe(count);
  expect(twice).toBe(0);
  return outcome;
}

/** The manager's verdict on B's worker, asked on the manager's own port (the proxies may be cut). */
async function verdictOnB(): Promise<string> {
  const agents = (await direct.request("agents", {})) as { id: string; scope: string; state: string }[];
  return agents.find((a) => a.scope === "mm")?.state ?? "gone";
}

beforeAll(async () => {
  splitDemoKernel(hostA.root, hostB.root);
  // The manager listens on a private ipc path and advertises the proxy in front of it: every peer reaches it through the proxy.
  const managerBind = `ipc://${join(base, "manager.sock")}`;
  toManager = await startTcpProxy(managerBind, { seed: 7 });
  const up = await onA(["up", hostA.root, "--exec", EXEC, "--listen", managerBind, "--advertise", toManager.endpoint, "--json"]);
  expect(up.code, up.stderr).toBe(0);
  const printed = JSON.parse(up.stdout) as { public_key: string; workers: { pid: number }[]; manager: { pid: number; supervisor: number } };
  for (const pid of [...printed.workers.map((w) => w.pid), printed.manager.pid, printed.manager.supervisor]) pids.add(pid);
  direct = new MeshClient({ endpoint: managerBind, timeoutMs: 5_000, logger: pino({ level: "silent" }), ...fleetClientCurve(fleetDirOf(hostA.home)) });
  // Host B's worker binds a private ipc path and advertises the proxy in front of it.
  const workerBind = `ipc://${join(base, "b-worker.sock")}`;
  toWorker = await startTcpProxy(workerBind, { seed: 11 });
  const seed = `${toManager.endpoint}#${printed.public_key}`;
  joinArgs = ["join", seed, "--root", hostB.root, "--scope", "mm", "--exec", EXEC, "--listen", workerBind, "--advertise", toWorker.endpoint, "--json"];
  const refused = await onB(joinArgs);
  const key = /-- \S+ '(\S{40})'/.exec(refused.stderr)?.[1];
  expect(key, refused.stderr).toBeDefined();
  expect((await onA(["keys", "add", "--fleet", hostA.root, "--", "hostb", key as string])).code).toBe(0);
  const joined = await onB(joinArgs);
  expect(joined.code, joined.stderr).toBe(0);
  for (const w of (JSON.parse(joined.stdout) as { workers: { pid: number }[] }).workers) pids.add(w.pid);
}, 180_000);

afterAll(async () => {
  await direct?.close();
  await onB(["down", hostB.root]);
  await onA(["down", hostA.root]);
  await toManager?.close();
  await toWorker?.close();
  for (const pid of pids) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  if (table.length > 0) {
    const header = "| fault | tasks | completed | clear errors | ran twice | slowest (ms) | chunks | stalled | corrupted | verdicts |";
    const rows = table.map((o) => `| ${o.fault} | ${o.tasks} | ${o.completed} | ${o.clear_errors} | ${o.ran_twice} | ${o.max_ms} | ${o.chunks} | ${o.stalled} | ${o.corrupted} | ${o.verdicts || "-"} |`);
    process.stdout.write(`\n${[header, "|---|---|---|---|---|---|---|---|---|---|", ...rows].join("\n")}\n`);
  }
  rmSync(base, { recursive: true, force: true });
});

describe("network faults between two hosts of a fleet", () => {
  it("without faults: every task completes once", { timeout: 60_000 }, async () => {
    const o = await batch("none", 4);
    expect(o.completed).toBe(4);
    expect(toWorker.stats.connections).toBeGreaterThan(0);
  });

  it("100 ms delay with 30 ms jitter each way: every task completes once", { timeout: 60_000 }, async () => {
    for (const proxy of [toManager, toWorker]) proxy.setFaults({ delayMs: 100, jitterMs: 30 });
    const o = await batch("delay 100±30 ms", 4);
    expect(o.completed).toBe(4);
  });

  it("1% of segments lost (each stalls a retransmission timeout): every task completes once", { timeout: 60_000 }, async () => {
    for (const proxy of [toManager, toWorker]) proxy.setFaults({ loss: 0.01 });
    const o = await batch("1% loss", 8);
    expect(o.completed).toBe(8);
  });

  it("1% of segments corrupted (CURVE refuses them; a connection left waiting is redialled): every task completes once", { timeout: 90_000 }, async () => {
    for (const proxy of [toManager, toWorker]) proxy.setFaults({ corrupt: 0.01 });
    for (const round of [1, 2]) {
      const o = await batch(`1% corrupted #${round}`, 8);
      expect(o.completed).toBe(8);
    }
  });

  it("a 5 s partition: the manager suspects host B's worker, the link heals, and the task in flight completes once", { timeout: 90_000 }, async () => {
    for (const proxy of [toManager, toWorker]) proxy.setFaults({});
    await expect.poll(verdictOnB, { timeout: 15_000 }).toBe("alive");
    const o = await batch("partition 5 s", 2, async () => {
      await expect.poll(() => runLines().filter((l) => l.startsWith("start [partition 5 s")).length, { timeout: 20_000 }).toBeGreaterThan(0);
      const cut = Date.now();
      toManager.partition();
      toWorker.partition();
      // Suspect after DEFAULT_SUSPECT_MS without a heartbeat (checked once per heartbeat period).
      await expect.poll(verdictOnB, { timeout: DEFAULT_SUSPECT_MS + 2 * DEFAULT_HEARTBEAT_MS, interval: 100 }).toBe("suspect");
      const suspectedAfter = Date.now() - cut;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 5_000 - (Date.now() - cut))));
      toManager.heal();
      toWorker.heal();
      await expect.poll(verdictOnB, { timeout: 15_000, interval: 100 }).toBe("alive");
      return `suspect after ${(suspectedAfter / 1000).toFixed(1)} s; alive ${((Date.now() - cut) / 1000).toFixed(1)} s after the cut`;
    });
    expect(o.completed).toBe(2);
  });

  it("a partition past the expiry time: the worker is declared gone, the waiting task gets a clear error, and the worker rejoins after the heal", { timeout: 120_000 }, async () => {
    await expect.poll(verdictOnB, { timeout: 15_000 }).toBe("alive");
    const o = await batch("partition 12 s", 1, async () => {
      await expect.poll(() => runLines().filter((l) => l.startsWith("start [partition 12 s")).length, { timeout: 20_000 }).toBeGreaterThan(0);
      const cut = Date.now();
      toManager.partition();
      toWorker.partition();
      await expect.poll(verdictOnB, { timeout: DEFAULT_EXPIRE_MS + 3 * DEFAULT_HEARTBEAT_MS, interval: 200 }).not.toMatch(/alive|suspect/);
      const goneAfter = Date.now() - cut;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 12_000 - (Date.now() - cut))));
      toManager.heal();
      toWorker.heal();
      await expect.poll(verdictOnB, { timeout: 30_000, interval: 200 }).toBe("alive");
      return `gone after ${(goneAfter / 1000).toFixed(1)} s; alive ${((Date.now() - cut) / 1000).toFixed(1)} s after the cut, no restart`;
    });
    expect(o.tasks).toBe(1);
    // It ended soon after the heal, not at the CLI's timeout: with the error that the scope's worker was
    // lost, or — when that error was itself lost in the cut and the client sent the task again — with
    // the result the worker had kept under the task's message id (batch() checked it ran once).
    for (const error of o.errors) expect(error).toMatch(/mm/);
    expect(o.max_ms).toBeLessThan(60_000);
    process.stdout.write(`partition 12 s: ${o.errors[0] ? `the task ended with "${o.errors[0]}"` : "the task completed from the worker's kept reply"}\n`);
    // The worker process on host B was never restarted.
    for (const w of fleetOf(hostB.home, "join.json").workers) expect(processAlive(w.pid)).toBe(true);
  });

  it("host B's worker SIGKILLed mid-task: its agent stops with it, the task ends with a clear error, none runs twice, and mesh join brings the worker back", { timeout: 120_000 }, async () => {
    await expect.poll(verdictOnB, { timeout: 15_000 }).toBe("alive");
    const worker = fleetOf(hostB.home, "join.json").workers[0] as { pid: number };
    const o = await batch("worker SIGKILL", 1, async () => {
      const line = () => runLines().find((l) => l.startsWith("pid [worker SIGKILL"));
      await expect.poll(line, { timeout: 20_000 }).toBeDefined();
      const agentPid = Number((line() as string).split(" ").at(-1));
      const killed = Date.now();
      process.kill(worker.pid, "SIGKILL");
      // The orphan guard stops the agent's process group as soon as its worker is gone.
      await expect.poll(() => processAlive(agentPid), { timeout: 10_000, interval: 50 }).toBe(false);
      return `agent stopped ${((Date.now() - killed) / 1000).toFixed(1)} s after its worker`;
    });
    expect(o.errors).toHaveLength(1);
    expect(o.errors[0]).toMatch(/mm/);
    // The interrupted run never finished: it is not a second execution of anything.
    expect(runLines().filter((l) => l.startsWith("end [worker SIGKILL"))).toHaveLength(0);
    const rejoined = await onB(joinArgs);
    expect(rejoined.code, rejoined.stderr).toBe(0);
    for (const w of (JSON.parse(rejoined.stdout) as { workers: { pid: number }[] }).workers) pids.add(w.pid);
    await expect.poll(verdictOnB, { timeout: 30_000 }).toBe("alive");
    const after = await batch("after the worker's return", 2);
    expect(after.completed).toBe(2);
  });
});
