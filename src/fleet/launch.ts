// Starting fleet processes detached from the terminal (they outlive `mesh up`), each writing its
// stdout (JSON events) and stderr (logs) to files, and waiting for their ready line.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError, EXIT } from "../cli/exit-codes.js";
import { pidAlive } from "./fleet-dir.js";

const MESH_BIN = fileURLToPath(new URL("../../../bin/mesh.js", import.meta.url));
export const READY_TIMEOUT_MS = 120_000;
/** How often a booting process's stdout is checked for its ready line (the launch pool waits on it). */
const READY_POLL_MS = 20;
const POLL_MS = 50;

export interface Launched {
  id: string;
  pid: number;
  endpoint: string;
  log: string;
  /** A supervised process (the manager): the supervisor's pid, while `pid` is the process it runs. */
  supervisor?: number;
}

function readyLine(path: string): { endpoint: string; pid?: number; supervisor?: number } | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  for (const line of text.split("\n")) {
    try {
      const event = JSON.parse(line) as { event?: string; endpoint?: string; pid?: unknown; supervisor?: unknown };
      if (event.event === "ready" && typeof event.endpoint === "string") {
        const supervised = typeof event.supervisor === "number" && typeof event.pid === "number";
        return { endpoint: event.endpoint, ...(supervised ? { pid: event.pid as number, supervisor: event.supervisor as number } : {}) };
      }
    } catch {
      // not a JSON line (yet)
    }
  }
  return null;
}

/** Spawn `mesh ARGS…` detached; resolve when it printed its ready line. */
export async function launch(id: string, args: string[], logsDir: string): Promise<Launched> {
  mkdirSync(logsDir, { recursive: true });
  const out = join(logsDir, `${id}.out`);
  const log = join(logsDir, `${id}.log`);
  const outFd = openSync(out, "w");
  const logFd = openSync(log, "a");
  const child = spawn(process.execPath, [MESH_BIN, ...args], { detached: true, stdio: ["ignore", outFd, logFd] });
  closeSync(outFd);
  closeSync(logFd);
  child.unref();
  // A child that died stays a zombie until reaped, so kill(pid, 0) alone cannot tell it is gone.
  let exited = false;
  child.once("exit", () => (exited = true));
  const pid = child.pid ?? -1;
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = readyLine(out);
    if (ready) return { id, pid: ready.pid ?? pid, endpoint: ready.endpoint, log, ...(ready.supervisor !== undefined ? { supervisor: ready.supervisor } : {}) };
    if (exited || !pidAlive(pid)) throw new CliError(`${id} exited before it was ready; see ${log}`, EXIT.failed);
    if (Date.now() > until) throw new CliError(`${id} was not ready within ${READY_TIMEOUT_MS / 1000} s; see ${log}`, EXIT.timeout);
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function terminate(pid: number, graceMs = 10_000): Promise<void> {
  if (!pidAlive(pid)) return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const until = Date.now() + graceMs;
  while (pidAlive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  if (pidAlive(pid)) process.kill(pid, "SIGKILL");
  while (pidAlive(pid)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
}
