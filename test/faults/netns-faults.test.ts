// The fault-injection suite, the part that needs root: two hosts as Linux network namespaces joined by a
// veth pair (created here and deleted at the end; no traffic leaves them), the manager and the scopes
// net, drivers and kernel on host A, the scope mm on host B (`mesh join`), every byte between them
// through user-space TCP proxies the test runs on the hosts' segment. Faults: delay with jitter, loss and
// corruption in the proxies, the link taken down and brought up (`ip link set down`), host B's namespace
// torn down and recreated, and the manager — the seed host B joined through — SIGKILLed mid-task. Every task must end with a result or a clear error,
// none may run twice, the liveness verdicts must come within the documented times, and the mesh must heal
// without restarting anything the fault did not kill. Skipped, with the reason, where namespaces cannot
// be made (not root, or no `ip netns`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DEFAULT_EXPIRE_MS, DEFAULT_HEARTBEAT_MS, DEFAULT_SUSPECT_MS } from "../../bus/peer-table.js";
import { MESH_BIN, processAlive, type CliRun } from "../helpers/processes.js";
import { startTcpProxy, type TcpProxy } from "../../scripts/fault/tcp-proxy.js";
import { clearError, delegateTask, ranTwice, runLinesOf, splitDemoKernel, writeFaultAgent } from "./fault-fleet.js";

const tag = String(process.pid % 100_000);
const NS_A = `lm-a-${tag}`;
const NS_B = `lm-b-${tag}`;
const LINK_A = `lmA${tag}`;
const LINK_B = `lmB${tag}`;
const BRIDGE = "lmbr0";
const subnet = `10.231.${20 + (process.pid % 200)}`;
const ADDR_A = `${subnet}.1`;
const ADDR_B = `${subnet}.2`;
/** The test's own address on host A's bridge, where the fault proxies listen. */
const ADDR_PROXY = `${subnet}.3`;
const LINK_ROOT = `lmR${tag}`;
const LINK_ROOT_PEER = `lmP${tag}`;
/** Host B's worker listens on a fixed port for the same reason as the manager. */
const WORKER_B = `tcp://${ADDR_B}:7500`;
/** A fixed port is safe: host A's namespace is new and holds nothing but this fleet. */
const MANAGER = `tcp://${ADDR_A}:7400`;

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Why namespaces cannot be made here, or null when they can. */
function unavailable(): string | null {
  if (process.getuid?.() !== 0) return "not root";
  const probe = `lm-probe-${tag}`;
  try {
    ip("netns", "add", probe);
    ip("netns", "del", probe);
    return null;
  } catch (error) {
    return `ip netns does not work here: ${((error as { stderr?: Buffer }).stderr?.toString() ?? String(error)).trim()}`;
  }
}

const skipReason = unavailable();
if (skipReason) process.stderr.write(`netns fault suite skipped: ${skipReason}\n`);

/**
 * Host A's namespace: its address is on a bridge, as a host's is on its own interface, so it outlives the
 * link to B. The test joins the bridge too (a veth from its own namespace), so that the fault proxies it
 * runs sit on the path between the hosts.
 */
function makeHostA(): void {
  ip("netns", "add", NS_A);
  ip("-n", NS_A, "link", "add", BRIDGE, "type", "bridge");
  ip("-n", NS_A, "addr", "add", `${ADDR_A}/24`, "dev", BRIDGE);
  for (const link of ["lo", BRIDGE]) ip("-n", NS_A, "link", "set", link, "up");
  ip("link", "add", LINK_ROOT, "type", "veth", "peer", "name", LINK_ROOT_PEER, "netns", NS_A);
  ip("-n", NS_A, "link", "set", LINK_ROOT_PEER, "master", BRIDGE);
  ip("-n", NS_A, "link", "set", LINK_ROOT_PEER, "up");
  ip("addr", "add", `${ADDR_PROXY}/24`, "dev", LINK_ROOT);
  ip("link", "set", LINK_ROOT, "up");
}

/** Host B's namespace and the link to host A's bridge (made again after it was torn down). */
function makeHostB(): void {
  ip("netns", "add", NS_B);
  ip("link", "add", LINK_A, "netns", NS_A, "type", "veth", "peer", "name", LINK_B, "netns", NS_B);
  ip("-n", NS_A, "link", "set", LINK_A, "master", BRIDGE);
  ip("-n", NS_B, "addr", "add", `${ADDR_B}/24`, "dev", LINK_B);
  ip("-n", NS_A, "link", "set", LINK_A, "up");
  for (const link of ["lo", LINK_B]) ip("-n", NS_B, "link", "set", link, "up");
}

/** Every process in a namespace SIGKILLed, then the namespace deleted (its end of the link goes with it). */
function tearDown(ns: string): void {
  let pids: number[] = [];
  try {
    pids = execFileSync("ip", ["netns", "pids", ns], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return;
  }
  for (const pid of pids) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  try {
    ip("netns", "del", ns);
  } catch {
    // Already gone.
  }
}

describe.skipIf(skipReason !== null)("faults between two hosts as network namespaces", () => {
  const base = mkdtempSync(join(tmpdir(), "mesh-netns-"));
  const hostA = { home: join(base, "a"), root: join(base, "a-code") };
  const hostB = { home: join(base, "b"), root: join(base, "b-code") };
  const envA = { ...process.env, MESH_HOME: hostA.home };
  const envB = { ...process.env, MESH_HOME: hostB.home };
  const runs = join(base, "runs.log");
  const EXEC = writeFaultAgent(join(base, "agent.mjs"), runs, 1_500);
  let joinArgs: string[] = [];
  let toManager: TcpProxy;
  let toWorker: TcpProxy;

  /** `mesh ARGS…` run inside a namespace, to completion, never throwing. */
  async function mesh(ns: string, env: NodeJS.ProcessEnv, args: string[]): Promise<CliRun> {
    try {
      const { stdout, stderr } = await promisify(execFile)("ip", ["netns", "exec", ns, process.execPath, MESH_BIN, ...args], { env, timeout: 120_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  /** The manager's verdict on host B's worker, from `mesh agents` on host A. */
  async function verdictOnB(): Promise<string> {
    const run = await mesh(NS_A, envA, ["agents", "--json"]);
    if (run.code !== 0) return `agents failed: ${run.stderr.trim()}`;
    const { agents } = JSON.parse(run.stdout) as { agents: { scope: string; state: string }[] };
    return agents.find((a) => a.scope === "mm")?.state ?? "gone";
  }

  const table: string[] = [];

  /** Runs tasks at once from host A; each must end with a result or a clear error, and none run twice. `during` says what it saw. */
  async function batch(label: string, count: number, during?: () => Promise<string>): Promise<{ completed: number; errors: string[] }> {
    const ids = Array.from({ length: count }, (_, i) => `${label} #${i + 1}`);
    const answers = Promise.all(ids.map((task) => delegateTask(task, envA, ["ip", "netns", "exec", NS_A])));
    const seen = (await during?.()) ?? "-";
    const finished = await answers;
    const errors = finished.map(clearError).filter((e): e is string => e !== null);
    for (const error of errors) expect(error).not.toMatch(/^unclear failure/);
    const twice = ranTwice(runs, ids);
    table.push(`| ${label} | ${count} | ${count - errors.length} | ${errors.length} | ${twice} | ${Math.max(...finished.map((r) => r.ms))} | ${seen} |`);
    expect(twice).toBe(0);
    return { completed: count - errors.length, errors };
  }

  const started = (label: string) => () => runLinesOf(runs).some((l) => l.startsWith(`start [${label}`));
  const managerPid = () => (JSON.parse(readFileSync(join(hostA.home, "fleets", readdirSync(join(hostA.home, "fleets"))[0] as string, "fleet.json"), "utf8")) as { manager: { pid: number } }).manager.pid;

  beforeAll(async () => {
    splitDemoKernel(hostA.root, hostB.root);
    makeHostA();
    makeHostB();
    // Every byte between the hosts passes through the test's proxies: host B dials the manager through one,
    // the manager dials host B's worker through the other (each advertises the proxy in front of it).
    toManager = await startTcpProxy(MANAGER, { listen: `tcp://${ADDR_PROXY}:0`, seed: 5 });
    toWorker = await startTcpProxy(WORKER_B, { listen: `tcp://${ADDR_PROXY}:0`, seed: 9 });
    const up = await mesh(NS_A, envA, ["up", hostA.root, "--exec", EXEC, "--listen", MANAGER, "--advertise", toManager.endpoint, "--json"]);
    expect(up.code, up.stderr).toBe(0);
    const seed = `${toManager.endpoint}#${(JSON.parse(up.stdout) as { public_key: string }).public_key}`;
    joinArgs = ["join", seed, "--root", hostB.root, "--scope", "mm", "--exec", EXEC, "--listen", WORKER_B, "--advertise", toWorker.endpoint, "--json"];
    const refused = await mesh(NS_B, envB, joinArgs);
    const key = /-- \S+ '(\S{40})'/.exec(refused.stderr)?.[1];
    expect(key, refused.stderr).toBeDefined();
    expect((await mesh(NS_A, envA, ["keys", "add", "--fleet", hostA.root, "--", "hostb", key as string])).code).toBe(0);
    const joined = await mesh(NS_B, envB, joinArgs);
    expect(joined.code, joined.stderr).toBe(0);
  }, 180_000);

  afterAll(async () => {
    if (table.length > 0) process.stdout.write(`\n${["| fault | tasks | completed | clear errors | ran twice | slowest (ms) | seen |", "|---|---|---|---|---|---|---|", ...table].join("\n")}\n`);
    await mesh(NS_B, envB, ["down", hostB.root]);
    await mesh(NS_A, envA, ["down", hostA.root]);
    await toManager?.close();
    await toWorker?.close();
    tearDown(NS_B);
    tearDown(NS_A);
    rmSync(base, { recursive: true, force: true });
  }, 60_000);

  it("across the link: host B's worker is alive on host A's manager, and every task completes once", { timeout: 60_000 }, async () => {
    await expect.poll(verdictOnB, { timeout: 30_000 }).toBe("alive");
    const o = await batch("netns none", 2);
    expect(o.errors).toEqual([]);
    // Both ways between the hosts go through the proxies.
    for (const proxy of [toManager, toWorker]) expect(proxy.stats.chunks).toBeGreaterThan(0);
  });

  for (const [label, faults, count] of [
    ["delay 100±30 ms", { delayMs: 100, jitterMs: 30 }, 2],
    ["1% loss", { loss: 0.01 }, 4],
    ["1% corrupted", { corrupt: 0.01 }, 8],
  ] as const) {
    it(`${label} between the hosts (the test's proxies): every task completes once`, { timeout: 90_000 }, async () => {
      for (const proxy of [toManager, toWorker]) proxy.setFaults(faults);
      try {
        expect((await batch(label, count)).errors).toEqual([]);
      } finally {
        for (const proxy of [toManager, toWorker]) proxy.setFaults({});
      }
    });
  }

  it("the link down for 5 s (ip link set down): host B's worker is suspected, the link heals, and the task in flight completes once", { timeout: 90_000 }, async () => {
    const o = await batch("link down 5 s", 1, async () => {
      await expect.poll(started("link down 5 s"), { timeout: 20_000 }).toBe(true);
      const cut = Date.now();
      ip("-n", NS_B, "link", "set", LINK_B, "down");
      await expect.poll(verdictOnB, { timeout: DEFAULT_SUSPECT_MS + 3 * DEFAULT_HEARTBEAT_MS, interval: 100 }).toBe("suspect");
      const suspected = Date.now() - cut;
      expect(suspected).toBeGreaterThanOrEqual(DEFAULT_SUSPECT_MS - DEFAULT_HEARTBEAT_MS);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 5_000 - (Date.now() - cut))));
      ip("-n", NS_B, "link", "set", LINK_B, "up");
      await expect.poll(verdictOnB, { timeout: 20_000, interval: 200 }).toBe("alive");
      return `suspect after ${(suspected / 1000).toFixed(1)} s; alive ${((Date.now() - cut) / 1000).toFixed(1)} s after the cut`;
    });
    expect(o.errors).toEqual([]);
  });

  it("host B's namespace torn down mid-task and made again: the task ends with a clear error, none runs twice, and mesh join there brings the worker back", { timeout: 120_000 }, async () => {
    const o = await batch("namespace torn down", 1, async () => {
      await expect.poll(started("namespace torn down"), { timeout: 20_000 }).toBe(true);
      const cut = Date.now();
      tearDown(NS_B);
      await expect.poll(verdictOnB, { timeout: DEFAULT_EXPIRE_MS + 10 * DEFAULT_HEARTBEAT_MS, interval: 250 }).not.toMatch(/alive|suspect/);
      return `gone after ${((Date.now() - cut) / 1000).toFixed(1)} s`;
    });
    expect(o.errors).toHaveLength(1);
    expect(o.errors[0]).toMatch(/mm/);
    // Its run was cut before it ended: nothing ran to the end twice.
    expect(runLinesOf(runs).filter((l) => l.startsWith("end [namespace torn down"))).toHaveLength(0);
    makeHostB();
    const rejoined = await mesh(NS_B, envB, joinArgs);
    expect(rejoined.code, rejoined.stderr).toBe(0);
    await expect.poll(verdictOnB, { timeout: 30_000 }).toBe("alive");
    expect((await batch("after the namespace's return", 1)).errors).toEqual([]);
  });

  it("the seed (the manager host B joined through) SIGKILLed mid-task: its supervisor restarts it at the same address, host B's worker finds it again, and the task completes once", { timeout: 120_000 }, async () => {
    const before = managerPid();
    const o = await batch("seed killed", 1, async () => {
      await expect.poll(started("seed killed"), { timeout: 20_000 }).toBe(true);
      const killed = Date.now();
      process.kill(before, "SIGKILL");
      await expect.poll(() => managerPid() !== before && processAlive(managerPid()), { timeout: 30_000, interval: 100 }).toBe(true);
      return `manager back ${((Date.now() - killed) / 1000).toFixed(1)} s after the kill`;
    });
    expect(o.errors).toEqual([]);
    await expect.poll(verdictOnB, { timeout: 30_000 }).toBe("alive");
  });
});
