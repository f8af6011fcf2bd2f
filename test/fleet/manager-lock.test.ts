// One manager per fleet: the lock refuses a second manager while the holder lives, takes over from a
// holder that is gone (or whose pid now belongs to another process), and lets exactly one of two
// managers starting at once over a stale lock win. Real files, real processes.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { acquireManagerLock, MANAGER_LOCK_FILE, ManagerLockedError } from "../../src/fleet/manager-lock.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), "mesh-lock-"));
  dirs.push(dir);
  return dir;
}
/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

describe("the manager lock", () => {
  it("is held by one manager: a second is refused with the holder named, and release frees it", () => {
    const dir = fresh();
    const lock = acquireManagerLock(dir, 1);
    expect(JSON.parse(readFileSync(join(dir, MANAGER_LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid, host: hostname(), incarnation: 1 });
    expect(() => acquireManagerLock(dir, 2)).toThrow(ManagerLockedError);
    expect(() => acquireManagerLock(dir, 2)).toThrow(new RegExp(`pid ${process.pid}`));
    lock.release();
    expect(existsSync(join(dir, MANAGER_LOCK_FILE))).toBe(false);
    acquireManagerLock(dir, 3).release();
  });

  it("is taken over from a manager that is gone, and from a pid now used by another process", () => {
    const dir = fresh();
    const gone = deadPid();
    writeFileSync(join(dir, MANAGER_LOCK_FILE), JSON.stringify({ pid: gone, started: 1, host: hostname(), incarnation: 7, acquired_at: "2026-01-01T00:00:00Z" }));
    const lock = acquireManagerLock(dir, 8);
    expect(lock.tookOverFrom).toMatchObject({ pid: gone, incarnation: 7 });
    lock.release();
    // Our own pid, but another process start time: the pid was reused, the holder is gone.
    writeFileSync(join(dir, MANAGER_LOCK_FILE), JSON.stringify({ pid: process.pid, started: 1, host: hostname(), incarnation: 9, acquired_at: "2026-01-01T00:00:00Z" }));
    const second = acquireManagerLock(dir, 10);
    expect(second.tookOverFrom).toMatchObject({ incarnation: 9 });
    second.release();
    // A torn lock file (a crash while writing it) is stale too.
    writeFileSync(join(dir, MANAGER_LOCK_FILE), "{ torn");
    const third = acquireManagerLock(dir, 11);
    expect(JSON.parse(readFileSync(join(dir, MANAGER_LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid, incarnation: 11 });
    third.release();
  });

  it("lets exactly one of two managers starting at once over a stale lock win", { timeout: 30_000 }, async () => {
    const dir = fresh();
    writeFileSync(join(dir, MANAGER_LOCK_FILE), JSON.stringify({ pid: deadPid(), started: 1, host: hostname(), incarnation: 1, acquired_at: "2026-01-01T00:00:00Z" }));
    const module = new URL("../../dist/src/fleet/manager-lock.js", import.meta.url).href;
    // Each contender tries once, says how it went, and holds what it got until its stdin closes.
    const script = `const { acquireManagerLock } = await import(${JSON.stringify(module)});
      let outcome; try { acquireManagerLock(${JSON.stringify(dir)}, Date.now()); outcome = "won"; } catch (e) { outcome = e.name; }
      console.log(outcome); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`;
    const contenders = [0, 1].map(() => spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] }));
    const outcomes = await Promise.all(contenders.map((child) => new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve))));
    for (const child of contenders) child.stdin!.end();
    expect(outcomes.sort()).toEqual(["ManagerLockedError", "won"]);
  });
});
