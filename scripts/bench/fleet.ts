// Fleet benchmark: `mesh up` of 20, 50 and 100 workers over a synthetic corpus (one tiny C file per
// scope, so indexing is small and measured apart), time to the first and to every routable worker,
// memory per worker 3 s after the launch and once idle (PSS, private, RSS from /proc/PID/smaps_rollup),
// manager memory, and the latency of `mesh agents`, and the load average the launcher saw.
// Usage: node dist/scripts/bench/fleet.js [--quick] [--json] [--sizes 20,50] [--no-settle]
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { launchPolicy, PARALLEL_BELOW_LOAD } from "../../src/fleet/launch-policy.js";
import { exitOnSignals } from "./signals.js";
import { benchEnvironment, formatTable, median, roundTo, writeJsonFile } from "./stats.js";

const run = promisify(execFile);
const MESH_BIN = fileURLToPath(new URL("../../../bin/mesh.js", import.meta.url));
const RESULT_FILE = "bench-results/fleet.json";

interface Memory {
  pss_mb: number;
  private_mb: number;
  rss_mb: number;
}

function memoryOf(pid: number): Memory | null {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
    return { pss_mb: kb("Pss") / 1024, private_mb: (kb("Private_Clean") + kb("Private_Dirty")) / 1024, rss_mb: kb("Rss") / 1024 };
  } catch {
    return null;
  }
}

function corpus(dir: string, scopes: number): string {
  const root = join(dir, "src");
  const spec = { scopes: [] as { name: string; paths: string[] }[] };
  for (let i = 0; i < scopes; i++) {
    const name = `s${String(i).padStart(3, "0")}`;
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, "unit.c"), `/** Entry point of ${name}. */\nint ${name}_entry(int x)\n{\n\treturn s${String((i + 1) % scopes).padStart(3, "0")}_entry(x - 1);\n}\n`);
    spec.scopes.push({ name, paths: [`${name}/`] });
  }
  writeFileSync(join(dir, "scopes.json"), JSON.stringify(spec));
  return root;
}

function runMesh(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<{ stdout: string }> {
  return run(process.execPath, [MESH_BIN, ...args], { env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
}

/** The run in progress: the fleet its MESH_HOME and root name, and the `mesh` command it is waiting on. */
const live: { env: NodeJS.ProcessEnv; root: string; dir: string } = { env: {}, root: "", dir: "" };
let inFlight: Promise<unknown> = Promise.resolve();
/** Set by SIGINT/SIGTERM: no more `mesh` commands start, and the signal handler stops the fleet. */
let interrupted = false;

async function mesh(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  if (interrupted) throw new Error("interrupted");
  const running = runMesh(env, args);
  inFlight = running.catch(() => undefined);
  return (await running).stdout;
}

/**
 * On SIGINT or SIGTERM: the fleet's workers and manager are detached processes, which outlive the
 * benchmark. Wait for the `mesh` command under way (a `mesh up` still launching has then written every
 * worker it started into its fleet file), stop the fleet with `mesh down`, remove the run's directory, exit.
 */
function stopOnSignals(): void {
  exitOnSignals(
    (signal) => {
      interrupted = true;
      process.stderr.write(`[bench:fleet] ${signal}: stopping the fleet\n`);
    },
    async () => {
      const { env, root, dir } = live;
      await inFlight;
      if (dir === "") return;
      if (existsSync(join(env.MESH_HOME as string, "fleets"))) await runMesh(env, ["down", root]).catch((error: unknown) => process.stderr.write(`[bench:fleet] could not stop the fleet: ${(error as Error).message}\n`));
      rmSync(dir, { recursive: true, force: true });
    },
  );
}

/** ms after `since` at which the first worker printed its ready line (the .out files' mtimes). */
function firstReadyMs(logs: string, since: number): number | null {
  const times = readdirSync(logs)
    .filter((f) => f.endsWith(".out") && f !== "manager.out")
    .map((f) => join(logs, f))
    .filter((f) => readFileSync(f, "utf8").includes('"event":"ready"'))
    .map((f) => statSync(f).mtimeMs - since);
  return times.length > 0 ? Math.min(...times) : null;
}

const SETTLE_MAX_MS = 180_000;

/**
 * V8 gives an idle process's memory back (its memory reducer: a full collection that also shrinks the new
 * space) about 8 s after it goes quiet, so a worker's memory 3 s after the launch is that of one still
 * warm. A worker is measured idle once this long has passed since the launch and the workers' median
 * private memory has stopped moving (two samples a second apart within 1%), at most IDLE_MAX_MS.
 */
const IDLE_AFTER_MS = 12_000;
const IDLE_MAX_MS = 40_000;

function medianPrivate(pids: readonly number[]): number {
  return median(pids.map(memoryOf).filter((m): m is Memory => m !== null).map((m) => m.private_mb));
}

/** The workers' memory once idle, and when (ms after `start`) it was read. */
async function idleMemory(pids: readonly number[], start: number): Promise<{ memory: Memory[]; at_ms: number }> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await pause(Math.max(0, start + IDLE_AFTER_MS - Date.now()));
  let last = medianPrivate(pids);
  while (Date.now() - start < IDLE_MAX_MS) {
    await pause(1_000);
    const now = medianPrivate(pids);
    if (Math.abs(now - last) <= 0.01 * last) break;
    last = now;
  }
  return { memory: pids.map(memoryOf).filter((m): m is Memory => m !== null), at_ms: Date.now() - start };
}

/**
 * The cold `mesh up` that builds the caches raises the 1-minute load average for a minute or more, and
 * the launcher reads it; unless --no-settle, wait (bounded) until it is back under the parallel
 * threshold, so the timed launch measures the launcher and not the lag of the previous one.
 */
async function settleLoad(enabled: boolean): Promise<number> {
  const start = Date.now();
  while (enabled && (loadavg()[0] ?? 0) >= PARALLEL_BELOW_LOAD && Date.now() - start < SETTLE_MAX_MS) await new Promise((resolve) => setTimeout(resolve, 1_000));
  return Date.now() - start;
}

async function measure(size: number, settle: boolean): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `mesh-bench-fleet-${size}-`));
  const env = { ...process.env, MESH_HOME: join(dir, "home") };
  const root = corpus(dir, size);
  Object.assign(live, { env, root, dir });
  try {
    // Index once (cached), stop, then time a launch with warm caches: indexing is excluded.
    const indexStart = Date.now();
    await mesh(env, "up", root, "--scopes", join(dir, "scopes.json"), "--json");
    const indexAndLaunchMs = Date.now() - indexStart;
    await mesh(env, "down", root);
    const fleetDir = join(env.MESH_HOME, "fleets", readdirSync(join(env.MESH_HOME, "fleets"))[0] as string);
    const logs = join(fleetDir, "logs");
    for (const f of readdirSync(logs)) rmSync(join(logs, f));
    const settledMs = await settleLoad(settle);
    // The launcher reads the same 1-minute load average to choose how many workers boot at once.
    const loadAtLaunch = loadavg()[0] ?? 0;
    const policy = launchPolicy(cpus().length, loadAtLaunch);
    const start = Date.now();
    const up = JSON.parse(await mesh(env, "up", root, "--scopes", join(dir, "scopes.json"), "--json")) as { workers: { pid: number }[]; manager: { pid: number } };
    const allRoutableMs = Date.now() - start;
    const firstMs = firstReadyMs(logs, start);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // let the workers settle to idle
    const workerMemory = up.workers.map((w) => memoryOf(w.pid)).filter((m): m is Memory => m !== null);
    const managerMemory = memoryOf(up.manager.pid);
    const agentLatencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = Date.now();
      const listed = JSON.parse(await mesh(env, "agents", "--json")) as { agents: unknown[] };
      agentLatencies.push(Date.now() - t);
      if (listed.agents.length !== size) throw new Error(`mesh agents listed ${listed.agents.length} of ${size}`);
    }
    const idle = await idleMemory(up.workers.map((w) => w.pid), start);
    await mesh(env, "down", root);
    return {
      workers: size,
      load_at_launch: roundTo(loadAtLaunch, 2),
      load_settle_ms: settledMs,
      booting_at_once: policy.booting,
      first_routable_ms: firstMs === null ? null : Math.round(firstMs),
      all_routable_ms: allRoutableMs,
      index_and_launch_cold_ms: indexAndLaunchMs,
      worker_pss_mb: roundTo(median(workerMemory.map((m) => m.pss_mb)), 1),
      worker_private_mb: roundTo(median(workerMemory.map((m) => m.private_mb)), 1),
      worker_rss_mb: roundTo(median(workerMemory.map((m) => m.rss_mb)), 1),
      worker_idle_private_mb: roundTo(median(idle.memory.map((m) => m.private_mb)), 1),
      worker_idle_pss_mb: roundTo(median(idle.memory.map((m) => m.pss_mb)), 1),
      worker_idle_at_ms: idle.at_ms,
      manager_rss_mb: managerMemory ? roundTo(managerMemory.rss_mb, 1) : null,
      manager_private_mb: managerMemory ? roundTo(managerMemory.private_mb, 1) : null,
      mesh_agents_ms: Math.round(median(agentLatencies)),
    };
  } finally {
    // Interrupted, the signal handler stops the fleet and removes the directory (it may be doing so now).
    if (!interrupted) {
      if (existsSync(join(env.MESH_HOME, "fleets"))) await mesh(env, "down", root).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      Object.assign(live, { env: {}, root: "", dir: "" });
    }
  }
}

async function main(): Promise<void> {
  stopOnSignals();
  const { values } = parseArgs({ options: { quick: { type: "boolean" }, json: { type: "boolean" }, sizes: { type: "string" }, "no-settle": { type: "boolean" } } });
  const sizes = (values.sizes ?? (values.quick ? "5" : "20,50,100")).split(",").map(Number);
  const results = [];
  for (const size of sizes) {
    process.stderr.write(`[bench:fleet] ${size} workers …\n`);
    results.push(await measure(size, values["no-settle"] !== true && values.quick !== true));
  }
  const output = { results, targets: { all_routable_ms_at_100: 8_000, first_routable_ms: 300, worker_idle_private_mb: 15 }, environment: benchEnvironment(), date: new Date().toISOString() };
  writeJsonFile(RESULT_FILE, output);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return;
  }
  const rows = results.map((r) => [String(r["workers"]), `${String(r["load_at_launch"])}/${String(r["booting_at_once"])}`, String(r["first_routable_ms"]), String(r["all_routable_ms"]), String(r["worker_private_mb"]), String(r["worker_idle_private_mb"]), String(r["worker_pss_mb"]), String(r["worker_rss_mb"]), String(r["manager_rss_mb"]), String(r["mesh_agents_ms"])]);
  process.stdout.write(`${formatTable(["workers", "load/booting", "first ms", "all ms", "priv MB (3 s)", "priv MB (idle)", "PSS MB", "RSS MB", "mgr RSS", "agents ms"], rows)}\n(JSON in ${RESULT_FILE})\n`);
}

main().catch((error: unknown) => {
  if (interrupted) return; // the signal handler exits
  process.stderr.write(`bench:fleet failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
