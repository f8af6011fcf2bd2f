// Which fleet a command acts on: the one named with --fleet ROOT, else the only one running, else the one
// whose root holds the working directory (as git finds its repository).
import { sep } from "node:path";
import type { Logger } from "pino";
import { MeshClient } from "../../bus/index.js";
import { realRoot } from "../../agents/pgc/scan/index.js";
import { CliError, EXIT } from "../cli/exit-codes.js";
import { fleetClientCurve } from "../security.js";
import { fleetDirFor, headlessFleets, pidAlive, readFleet, runningFleets, type FleetManifest } from "./fleet-dir.js";

export const FLEET_REQUEST_TIMEOUT_MS = 120_000;
export const UNAUTHORIZED_HINT = "the fleet admits keys in its keyring (mesh keys list) and grants them ops on scopes in mesh-policy.json (docs/MANAGER.md, \"Access policy\")";

/** A fleet whose workers run without their manager: say so, and how to get it back, rather than "no fleet". */
function lostManager(fleet: FleetManifest, workersAlive: number): CliError {
  const gone = fleet.manager ? `pid ${fleet.manager.pid} is gone` : "none was started";
  return new CliError(
    `the fleet for ${fleet.root} has lost its manager (${gone}); ${workersAlive} of its ${fleet.workers.length} workers still run`,
    EXIT.unavailable,
    `restart it with \`mesh up ${fleet.root}\` (running workers are kept), or stop them with \`mesh down ${fleet.root}\``,
  );
}

/** How long a command waits for a supervised manager that died to be restarted before it gives up. */
export const MANAGER_RESTART_WAIT_MS = 35_000;
const RESTART_POLL_MS = 100;

/** The fleet file once its manager runs: at once, or after its supervisor restarted it (supervisor.ts). */
async function afterRestart(dir: string, fleet: FleetManifest | null): Promise<FleetManifest | null> {
  const until = Date.now() + MANAGER_RESTART_WAIT_MS;
  let now = fleet;
  while (now?.manager && !pidAlive(now.manager.pid) && now.manager.supervisor !== undefined && pidAlive(now.manager.supervisor) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, RESTART_POLL_MS));
    now = readFleet(dir);
  }
  return now;
}

export async function findFleet(root: string | undefined, cwd: string = process.cwd()): Promise<{ dir: string; fleet: FleetManifest }> {
  if (root) {
    const real = await realRoot(root).catch(() => root);
    const dir = fleetDirFor(real);
    const fleet = await afterRestart(dir, readFleet(dir));
    if (!fleet?.manager || !pidAlive(fleet.manager.pid)) {
      const workersAlive = fleet?.workers.filter((w) => pidAlive(w.pid)).length ?? 0;
      if (fleet && workersAlive > 0) throw lostManager(fleet, workersAlive);
      throw new CliError(`no fleet is running for ${root}`, EXIT.unavailable, `start one with \`mesh up ${root}\``);
    }
    return { dir, fleet };
  }
  let running = runningFleets();
  if (running.length === 0) {
    // A fleet whose manager its supervisor is restarting is as good as running.
    const restarting = headlessFleets().filter((f) => f.fleet.manager?.supervisor !== undefined && pidAlive(f.fleet.manager.supervisor));
    if (restarting.length === 1) await afterRestart((restarting[0] as { dir: string }).dir, (restarting[0] as { fleet: FleetManifest }).fleet);
    running = runningFleets();
  }
  const [headless, ...more] = running.length === 0 ? headlessFleets() : [];
  if (headless && more.length === 0) throw lostManager(headless.fleet, headless.workersAlive);
  if (running.length === 0) throw new CliError("no fleet is running", EXIT.unavailable, "start one with `mesh up ROOT` (or `npm start` for the demo)");
  if (running.length > 1) {
    // Several run: the one whose root holds the working directory, the innermost when roots nest.
    const here = await realRoot(cwd).catch(() => cwd);
    const holding = running.filter((f) => here === f.fleet.root || here.startsWith(f.fleet.root.endsWith(sep) ? f.fleet.root : f.fleet.root + sep));
    const innermost = holding.sort((a, b) => b.fleet.root.length - a.fleet.root.length)[0];
    if (innermost) return innermost;
    throw new CliError(`${running.length} fleets are running: ${running.map((f) => f.fleet.root).join(", ")}`, EXIT.usage, "name one with --fleet ROOT, or run the command inside its root");
  }
  return running[0] as { dir: string; fleet: FleetManifest };
}

/** Send one request to the fleet's manager. */
export async function askManager(fleet: FleetManifest, op: string, args: unknown, logger: Logger, timeoutMs = FLEET_REQUEST_TIMEOUT_MS): Promise<unknown> {
  const manager = fleet.manager;
  if (!manager) throw new CliError("the fleet has no manager", EXIT.unavailable, "restart it with `mesh up ROOT`");
  const client = new MeshClient({ endpoint: manager.endpoint, timeoutMs, attempts: 1, logger, ...fleetClientCurve(fleetDirFor(fleet.root)) });
  try {
    return await client.request(op, args, { timeoutMs });
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e.name === "TimeoutError") throw new CliError(`the manager did not answer ${op} within ${timeoutMs / 1000} s`, EXIT.timeout);
    if (e.code === "unauthorized") throw new CliError(`${op} refused: ${e.message.replace(/^unauthorized: /, "")}`, EXIT.forbidden, UNAUTHORIZED_HINT);
    if (e.name === "RemoteError" || e.name === "NackError") throw new CliError(`${op} failed: ${e.message}`, EXIT.failed);
    throw new CliError(`cannot reach the fleet's manager at ${manager.endpoint}: ${e.message}`, EXIT.unavailable, "restart the fleet with `mesh up ROOT`");
  } finally {
    await client.close();
  }
}

/** How often a client waiting on its manager looks whether a new manager took over the fleet. */
export const SUCCESSOR_POLL_MS = 500;

/**
 * Watches the fleet file of `dir` while a request to the manager of pid `pid` waits: once another live
 * manager process has taken over, `onReplaced` runs (once). Returns the function that stops watching.
 */
export function watchSuccessor(dir: string, pid: number, onReplaced: (successor: FleetManifest) => void): () => void {
  const timer = setInterval(() => {
    const now = readFleet(dir);
    if (now?.manager && now.manager.pid !== pid && pidAlive(now.manager.pid)) {
      clearInterval(timer);
      onReplaced(now);
    }
  }, SUCCESSOR_POLL_MS);
  return () => clearInterval(timer);
}

/**
 * One request to the fleet's manager that survives the manager's death: while it waits, the fleet file is
 * watched, and when another manager process has taken over (mesh up restarts it), the request is
 * abandoned and `recover` — an op that gets the same outcome by id — is sent to the new manager. A
 * `not_found` there (the old manager died before it journaled the request) sends the request again.
 */
export async function askManagerSurviving(fleet: FleetManifest, op: string, args: unknown, recover: { op: string; args: unknown }, logger: Logger, timeoutMs = FLEET_REQUEST_TIMEOUT_MS): Promise<unknown> {
  const dir = fleetDirFor(fleet.root);
  const deadline = Date.now() + timeoutMs;
  let current = fleet;
  let sending = { op, args };
  for (;;) {
    const manager = current.manager;
    if (!manager) throw new CliError("the fleet has no manager", EXIT.unavailable, `restart it with \`mesh up ${fleet.root}\``);
    const abandon = new AbortController();
    const client = new MeshClient({ endpoint: manager.endpoint, timeoutMs, attempts: 1, logger, ...fleetClientCurve(dir) });
    let successor: FleetManifest | null = null;
    const stopWatching = watchSuccessor(dir, manager.pid, (next) => {
      successor = next;
      abandon.abort();
    });
    try {
      return await client.request(sending.op, sending.args, { timeoutMs: Math.max(1, deadline - Date.now()), signal: abandon.signal });
    } catch (error) {
      const e = error as Error & { code?: string };
      if (successor) {
        logger.warn({ old: manager.pid, new: (successor as FleetManifest).manager?.pid }, "the manager was replaced; asking the new one");
        current = successor;
        sending = recover;
        continue;
      }
      if (sending === recover && e.code === "not_found") {
        sending = { op, args };
        continue;
      }
      if (e.name === "TimeoutError") throw new CliError(`the manager did not answer ${op} within ${timeoutMs / 1000} s`, EXIT.timeout, pidAlive(manager.pid) ? undefined : `its manager (pid ${manager.pid}) is gone: restart it with \`mesh up ${fleet.root}\`; an accepted task resumes`);
      if (e.code === "unauthorized") throw new CliError(`${op} refused: ${e.message.replace(/^unauthorized: /, "")}`, EXIT.forbidden, UNAUTHORIZED_HINT);
      if (e.name === "RemoteError" || e.name === "NackError") throw new CliError(`${op} failed: ${e.message}`, EXIT.failed);
      throw new CliError(`cannot reach the fleet's manager at ${manager.endpoint}: ${e.message}`, EXIT.unavailable, "restart the fleet with `mesh up ROOT`");
    } finally {
      stopWatching();
      await client.close();
    }
  }
}

