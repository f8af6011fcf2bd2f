// The manager's supervisor: its backoff, the environment of a restart, and a real supervisor process
// that gives up on a manager that cannot start and one that restarts a killed manager and stops it on SIGTERM.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HEALTHY_AFTER_MS, MAX_FAILED_STARTS, RESTART_BASE_MS, RESTART_MAX_MS, restartDelay, restartEnv } from "../../src/fleet/supervisor.js";
import { CRASH_AT_ENV } from "../../agents/manager/crash-points.js";
import { MESH_BIN, processAlive } from "../helpers/processes.js";

describe("restartDelay", () => {
  it("doubles from the base for each death in a row, up to the cap", () => {
    expect(restartDelay(1)).toBe(RESTART_BASE_MS);
    expect(restartDelay(2)).toBe(2 * RESTART_BASE_MS);
    expect(restartDelay(3)).toBe(4 * RESTART_BASE_MS);
    expect(restartDelay(40)).toBe(RESTART_MAX_MS);
    expect(HEALTHY_AFTER_MS).toBeGreaterThan(RESTART_MAX_MS);
  });
});

describe("restartEnv", () => {
  it("drops a test's crash point, so a restarted manager does not die at it again, and keeps the rest", () => {
    const env = restartEnv({ [CRASH_AT_ENV]: "after_reply", MESH_HOME: "/x" });
    expect(env[CRASH_AT_ENV]).toBeUndefined();
    expect(env["MESH_HOME"]).toBe("/x");
  });
});

describe("a supervisor process", () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function supervise(dir: string, managerArgs: string[]): { child: ChildProcess; lines: () => Record<string, unknown>[]; exited: Promise<number | null> } {
    const child = spawn(process.execPath, [MESH_BIN, "supervise", "--fleet-dir", dir, "--log-level", "silent", "--", "manager", ...managerArgs], { stdio: ["ignore", "pipe", "ignore"] });
    children.push(child);
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const lines = () => out.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    return { child, lines, exited };
  }

  it("gives up, exit 1, when the manager dies before it is ready every time", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-supervise-"));
    dirs.push(dir);
    // No --audit: the manager refuses to start, every time.
    const run = supervise(dir, ["--registry", join(dir, "registry")]);
    expect(await run.exited).toBe(1);
    const events = run.lines();
    expect(events.filter((e) => e["event"] === "manager_died")).toHaveLength(MAX_FAILED_STARTS - 1);
    expect(events.at(-1)).toMatchObject({ event: "gave_up", failed_starts: MAX_FAILED_STARTS });
    expect(events.some((e) => e["event"] === "ready")).toBe(false);
  });

  it("restarts a killed manager, names the new one in the fleet file, and stops it on SIGTERM", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-supervise-"));
    dirs.push(dir);
    mkdirSync(join(dir, "registry"));
    const args = ["--id", "manager", "--registry", join(dir, "registry"), "--audit", join(dir, "audit")];
    const run = supervise(dir, args);
    await expect.poll(() => run.lines().find((e) => e["event"] === "ready"), { timeout: 30_000 }).toBeDefined();
    const ready = run.lines().find((e) => e["event"] === "ready") as { pid: number; endpoint: string; supervisor: number };
    expect(ready.supervisor).toBe(run.child.pid);
    // As mesh up would have recorded it.
    writeFileSync(join(dir, "fleet.json"), JSON.stringify({ root: dir, started_at: new Date().toISOString(), scopes: [], workers: [], manager: { id: "manager", pid: ready.pid, endpoint: ready.endpoint, log: "", supervisor: ready.supervisor } }));
    process.kill(ready.pid, "SIGKILL");
    await expect.poll(() => run.lines().find((e) => e["event"] === "restarted"), { timeout: 30_000 }).toBeDefined();
    const restarted = run.lines().find((e) => e["event"] === "restarted") as { pid: number; endpoint: string };
    expect(restarted.pid).not.toBe(ready.pid);
    expect(run.lines().find((e) => e["event"] === "manager_died")).toMatchObject({ pid: ready.pid, signal: "SIGKILL", restart_in_ms: RESTART_BASE_MS });
    const fleet = JSON.parse(readFileSync(join(dir, "fleet.json"), "utf8")) as { manager: { pid: number; endpoint: string; supervisor: number } };
    expect(fleet.manager).toMatchObject({ pid: restarted.pid, endpoint: restarted.endpoint, supervisor: ready.supervisor });

    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(processAlive(restarted.pid)).toBe(false);
  });
});
