// The parent's handle on one bus-server child: spawn, await its ready line, stop it (SIGTERM, then
// SIGKILL after a bound). A child is also SIGKILLed if this process exits without stopping it.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { isReadyLine, type ReadyLine, type ServerMode } from "./bus-echo.js";
import type { BenchCurve } from "./bus-run.js";

/** The curve keys reach the server in its environment, not on its command line (which `ps` shows). */
export const BENCH_CURVE_ENV = "LATTICE_BENCH_CURVE";

const SERVER_SCRIPT = fileURLToPath(new URL("./bus-server.js", import.meta.url));
/** Node start-up plus loading zeromq and binding: seconds on a loaded machine, never tens. */
export const SERVER_READY_TIMEOUT_MS = 15_000;
/** A graceful mesh stop drains and lingers for well under a second; past this the child is killed. */
export const SERVER_STOP_TIMEOUT_MS = 5_000;
/** Keep the last bytes of the child's stderr for error messages. */
const STDERR_TAIL_CHARS = 4_000;

export interface ServerProcess {
  readonly ready: ReadyLine;
  /** SIGTERM and wait; SIGKILL if it does not exit in time. Idempotent. */
  stop(): Promise<void>;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function waitForReady(child: ChildProcess, stderrTail: () => string): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench server gave no ready line within ${SERVER_READY_TIMEOUT_MS} ms: ${stderrTail()}`)), SERVER_READY_TIMEOUT_MS);
    let settled = false;
    const finish = (error: Error | undefined, ready?: ReadyLine) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(ready as ReadyLine);
    };
    // Other lines are skipped (flags passed down, like --trace-gc, print on stdout); reading goes on after
    // the ready line so a chatty child never blocks on a full pipe.
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const parsed = parseJson(line);
      if (isReadyLine(parsed)) finish(undefined, parsed);
    });
    child.once("exit", (code, signal) => finish(new Error(`bench server exited (${code ?? signal}) before ready: ${stderrTail()}`)));
    child.once("error", (error) => finish(error));
  });
}

export async function spawnServer(mode: ServerMode, bind: string, curve?: BenchCurve): Promise<ServerProcess> {
  // The parent's Node flags carry over (as with child_process.fork), so `node --cpu-prof bus.js` profiles the servers too.
  const args = [...process.execArgv, SERVER_SCRIPT, "--mode", mode, "--bind", bind];
  const env = curve ? { ...process.env, [BENCH_CURVE_ENV]: JSON.stringify(curve) } : process.env;
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"], env });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  // "error" without "exit" is how a failed spawn ends; either way the child is no longer running.
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  void exited.then(() => process.removeListener("exit", killOnExit));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS)));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (hasExited(child)) return;
      child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), SERVER_STOP_TIMEOUT_MS)));
      if ((await Promise.race([exited, late])) === "late") {
        child.kill("SIGKILL");
        await exited;
      }
      clearTimeout(timer);
      child.stdin!.destroy();
    })();
    return stopping;
  };

  try {
    const ready = await waitForReady(child, () => stderr);
    return { ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
