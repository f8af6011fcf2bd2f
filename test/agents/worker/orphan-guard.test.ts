// The orphan guard, a real process: a command group registered with it is stopped when the guard's pipe
// closes (as it does when the worker dies, however it dies), and one unregistered is left alone.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { OrphanGuard } from "../../../agents/worker/exec/orphan-guard.js";
import { processAlive } from "../../helpers/processes.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** A sleeping command leading its own process group, as run-command.ts starts agent commands. */
function sleeper(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { detached: true, stdio: "ignore" });
  started.push(child);
  return child;
}

describe("OrphanGuard", () => {
  it("stops the registered groups when its pipe closes, and leaves an unregistered one running", { timeout: 20_000 }, async () => {
    const guard = new OrphanGuard();
    const registered = sleeper();
    const released = sleeper();
    guard.register(registered.pid as number);
    guard.register(released.pid as number);
    guard.unregister(released.pid as number);
    const guardPid = guard.pid as number;
    expect(processAlive(guardPid)).toBe(true);
    guard.close();
    await expect.poll(() => processAlive(registered.pid as number), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => processAlive(guardPid), { timeout: 10_000 }).toBe(false);
    expect(processAlive(released.pid as number)).toBe(true);
  });
});
