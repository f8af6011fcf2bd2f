// `mesh up`'s manager runs under a supervisor: a small detached process that starts `mesh manager`, and
// when it dies (a crash, a SIGKILL, an out-of-memory kill) starts it again after a backoff, writing the
// new incarnation's pid and endpoint into the fleet file. The new manager takes over the lock, resumes
// its journal, and the clients that were waiting follow it (find-fleet.ts, watchSuccessor).
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { CRASH_AT_ENV } from "../../agents/manager/crash-points.js";
import { readFleet, writeFleet } from "./fleet-dir.js";

const MESH_BIN = fileURLToPath(new URL("../../../bin/mesh.js", import.meta.url));

/** The first restart waits this long; each further one in a row twice as long, up to RESTART_MAX_MS. */
export const RESTART_BASE_MS = 250;
export const RESTART_MAX_MS = 30_000;
/** An incarnation that ran this long was healthy: the next crash starts the backoff over. */
export const HEALTHY_AFTER_MS = 60_000;
/** Incarnations in a row that die before they are ready: the manager cannot start, the supervisor gives up. */
export const MAX_FAILED_STARTS = 5;

/** How long to wait before restart number `attempt` (1 for the first in a row). */
export function restartDelay(attempt: number): number {
  return Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

export interface SuperviseOptions {
  /** The fleet directory whose fleet.json names the manager. */
  fleetDir: string;
  /** `mesh manager …` arguments. */
  managerArgs: string[];
  logger: Logger;
  /** One JSON event per line, for the launcher (the first `ready`) and the log. */
  emit: (event: Record<string, unknown>) => void;
}

/** The environment of a restarted manager: a test's crash point armed the first incarnation only. */
export function restartEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const next = { ...env };
  delete next[CRASH_AT_ENV];
  return next;
}

interface Incarnation {
  child: ChildProcess;
  ready: Promise<{ endpoint: string; pid: number } | null>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], env: NodeJS.ProcessEnv, emit: SuperviseOptions["emit"]): Incarnation {
  // stderr (the manager's log) goes where the supervisor's goes; stdout is read for the ready line.
  const child = spawn(process.execPath, [MESH_BIN, ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const ready = new Promise<{ endpoint: string; pid: number } | null>((resolve) => {
    const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess["stdout"]> });
    lines.on("line", (line) => {
      try {
        const event = JSON.parse(line) as { event?: string; endpoint?: string };
        if (event.event === "ready" && typeof event.endpoint === "string") resolve({ endpoint: event.endpoint, pid: child.pid ?? -1 });
        else emit({ ...event, pid: child.pid });
      } catch {
        // not a JSON line
      }
    });
    lines.once("close", () => resolve(null));
  });
  return { child, ready, exited };
}

/**
 * Runs the manager until `stop` resolves (SIGTERM to the supervisor): then stops it (SIGTERM) and returns 0.
 * Returns 1 when MAX_FAILED_STARTS incarnations in a row die before they are ready.
 */
export async function superviseManager(options: SuperviseOptions, stop: Promise<unknown>): Promise<number> {
  const { logger, emit } = options;
  let stopping = false;
  let current: Incarnation | null = null;
  void stop.then(() => {
    stopping = true;
    current?.child.kill("SIGTERM");
  });
  let failedStarts = 0;
  let crashesInRow = 0;
  let first = true;
  let spawned = 0;
  while (!stopping) {
    const incarnation = start(options.managerArgs, spawned++ === 0 ? process.env : restartEnv(process.env), emit);
    current = incarnation;
    const startedAt = Date.now();
    const ready = await Promise.race([incarnation.ready, incarnation.exited.then(() => null)]);
    if (ready) {
      failedStarts = 0;
      if (first) {
        emit({ event: "ready", endpoint: ready.endpoint, pid: ready.pid, supervisor: process.pid });
      } else {
        // The fleet file names the new incarnation: waiting clients and the next CLI command find it there.
        const fleet = readFleet(options.fleetDir);
        if (fleet?.manager) writeFleet(options.fleetDir, { ...fleet, manager: { ...fleet.manager, pid: ready.pid, endpoint: ready.endpoint, supervisor: process.pid } });
        emit({ event: "restarted", endpoint: ready.endpoint, pid: ready.pid, restarts_in_row: crashesInRow });
        logger.warn({ pid: ready.pid, endpoint: ready.endpoint }, "the manager is back");
      }
      first = false;
    }
    const { code, signal } = await incarnation.exited;
    if (stopping) break;
    if (!ready && ++failedStarts >= MAX_FAILED_STARTS) {
      emit({ event: "gave_up", failed_starts: failedStarts, code, signal });
      logger.error({ failedStarts, code, signal }, "the manager died before it was ready too many times in a row; giving up");
      return 1;
    }
    crashesInRow = Date.now() - startedAt >= HEALTHY_AFTER_MS ? 1 : crashesInRow + 1;
    const delay = restartDelay(crashesInRow);
    emit({ event: "manager_died", pid: incarnation.child.pid, code, signal, restart_in_ms: delay });
    logger.warn({ pid: incarnation.child.pid, code, signal, delayMs: delay }, "the manager died; restarting it");
    await Promise.race([new Promise((resolve) => setTimeout(resolve, delay)), stop]);
  }
  if (current && current.child.exitCode === null && current.child.signalCode === null) {
    current.child.kill("SIGTERM");
    await current.exited;
  }
  return 0;
}
