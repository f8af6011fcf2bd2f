// The fleet benchmark, interrupted: its workers and manager are detached processes that would outlive it,
// so on SIGTERM it waits for the `mesh` command under way, stops the fleet and removes its directory.
// Real processes: the built benchmark launches a real fleet of five workers.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { pidAlive } from "../../src/fleet/fleet-dir.js";

const BENCH_SCRIPT = fileURLToPath(new URL("../../dist/scripts/bench/fleet.js", import.meta.url));
const RUN_TIMEOUT_MS = 240_000;

/** Processes whose command line holds `text` (the run's directory: every worker and the manager name it). */
function processesNaming(text: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The pids of every fleet under the run's MESH_HOME, once one has workers. */
function fleetPids(runDir: string): number[] {
  const fleets = join(runDir, "home", "fleets");
  if (!existsSync(fleets)) return [];
  return readdirSync(fleets).flatMap((dir) => {
    try {
      const fleet = JSON.parse(readFileSync(join(fleets, dir, "fleet.json"), "utf8")) as { workers: { pid: number }[]; manager: { pid: number } | null };
      return [...fleet.workers.map((w) => w.pid), ...(fleet.manager ? [fleet.manager.pid] : [])];
    } catch {
      return [];
    }
  });
}

describe("bench:fleet", () => {
  const outDir = mkdtempSync(join(tmpdir(), "mesh-fleet-bench-test-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("stops the fleet it launched and removes its directory when interrupted, exiting 143", { timeout: RUN_TIMEOUT_MS }, async () => {
    const tmp = join(outDir, "tmp");
    mkdirSync(tmp, { recursive: true });
    const child = spawn(process.execPath, [BENCH_SCRIPT, "--quick", "--json"], { cwd: outDir, env: { ...process.env, TMPDIR: tmp }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    // Once a fleet of the run is up: its five workers and its manager alive.
    const runDir = (): string => join(tmp, readdirSync(tmp).find((name) => name.startsWith("mesh-bench-fleet-")) ?? "none");
    await expect.poll(() => done || (fleetPids(runDir()).length >= 6 && fleetPids(runDir()).every(pidAlive)), { timeout: RUN_TIMEOUT_MS - 30_000, interval: 50 }).toBe(true);
    expect(done, `the benchmark ended before its fleet was up: ${stderr}`).toBe(false);
    const dir = runDir();
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(stderr).toContain("SIGTERM: stopping the fleet");
    // Every process of the run is gone, those the fleet file named and any a launch under way started.
    await expect.poll(() => processesNaming(dir), { timeout: 30_000, interval: 100 }).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});
