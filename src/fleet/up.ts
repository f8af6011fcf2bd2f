// `mesh up`: decompose a code base into scopes, build their PGCs (cached), start one worker process per
// scope (× replicas) and a manager, detached, and wait until every worker is routable. A second `up`
// on the same root keeps what is healthy and restarts only what died or whose index changed.
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Logger } from "pino";
import { MeshClient } from "../../bus/index.js";
import { MANAGER_ROLE } from "../../agents/manager/serve-manager.js";
import { checkStoredPgc, openPgc } from "../../agents/pgc/store/open-pgc.js";
import { gitHead } from "../../agents/pgc/store/source-revision.js";
import { realRoot, scanScope } from "../../agents/pgc/scan/index.js";
import { CliError, EXIT } from "../cli/exit-codes.js";
import { ProgressReporter } from "../progress.js";
import { proposeScopes } from "./decompose.js";
import { fleetDirFor, fleetPaths, pidAlive, readFleet, writeFleet, type FleetManifest } from "./fleet-dir.js";
import { launch, terminate } from "./launch.js";
import { launchPolicy, runPool } from "./launch-policy.js";
import { fleetClientCurve, fleetSecurity } from "../security.js";
import { POLICY_FILE } from "../../agents/access/policy.js";

export const SCOPES_FILE_IN_ROOT = "mesh-scopes.json";
const ROUTABLE_TIMEOUT_MS = 60_000;

export interface UpOptions {
  root: string;
  scopesFile?: string | undefined;
  replicas: number;
  targetLines?: number | undefined;
  /** The agent command every scope's workers run tasks with, unless the scopes file gives a scope its own. */
  exec?: string | undefined;
  /** Where the manager listens (`tcp://0.0.0.0:7000`), for workers on other hosts (`mesh join`); default loopback. */
  listen?: string | undefined;
  /** The endpoint the manager publishes, when other hosts must dial another address than `listen`. */
  advertise?: string | undefined;
  logger: Logger;
  quiet?: boolean;
}

export interface UpResult {
  dir: string;
  /** The fleet's CURVE public key: what another host's keyring and `mesh join` need. */
  publicKey: string;
  fleet: FleetManifest;
  started: string[];
  reused: string[];
}

type ScopeSpec = FleetManifest["scopes"][number];

export async function scopesFor(root: string, file: string | undefined, targetLines: number | undefined): Promise<ScopeSpec[]> {
  const path = file ?? (existsSync(join(root, SCOPES_FILE_IN_ROOT)) ? join(root, SCOPES_FILE_IN_ROOT) : undefined);
  if (path) {
    try {
      const parsed = JSON.parse(readFileSync(path, "utf8")) as { scopes?: ScopeSpec[] };
      if (!Array.isArray(parsed.scopes) || parsed.scopes.length === 0) throw new Error("it lists no scopes");
      return parsed.scopes.map((s) => {
        if (s.exec !== undefined && (typeof s.exec !== "string" || s.exec.trim() === "")) throw new Error(`scope ${String(s.name)}: "exec" must be a command line`);
        return { name: String(s.name), paths: s.paths.map(String), ...(s.exec ? { exec: s.exec } : {}) };
      });
    } catch (error) {
      throw new CliError(`cannot use the scopes file ${path}: ${(error as Error).message}`, EXIT.dataError, "print a fresh proposal with `mesh scopes ROOT > scopes.json`");
    }
  }
  const { files } = await scanScope({ root });
  if (files.length === 0) {
    throw new CliError(`found no source files under ${root} to give workers`, EXIT.dataError, "binary files, build output (dist/, build/, node_modules/) and VCS directories are skipped; point mesh up at a code base");
  }
  return proposeScopes(files.map((f) => ({ path: f.path, lines: f.lines })), targetLines).map(({ name, paths }) => ({ name, paths }));
}

async function waitRoutable(endpoint: string, expected: number, logger: Logger, fleetDir: string): Promise<void> {
  const client = new MeshClient({ endpoint, timeoutMs: 3_000, logger, ...fleetClientCurve(fleetDir) });
  const until = Date.now() + ROUTABLE_TIMEOUT_MS;
  try {
    for (;;) {
      const agents = (await client.request("agents", {}).catch(() => [])) as { state: string }[];
      if (agents.filter((a) => a.state === "alive").length >= expected) return;
      if (Date.now() > until) throw new CliError(`only ${agents.length} of ${expected} workers became routable within a minute`, EXIT.timeout);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.close();
  }
}

/**
 * A scope's index, current on disk: a stored one whose manifest matches the files is only checked (scan,
 * hash, compare), not loaded; else it is built (changed files re-parsed). Returns its index revision.
 */
export async function ensureIndex(spec: Parameters<typeof checkStoredPgc>[0], label: string, options: Pick<UpOptions, "quiet" | "logger">): Promise<string> {
  const stored = await checkStoredPgc(spec);
  if (stored.current) {
    if (!options.quiet) process.stderr.write(`${label}: index unchanged ${stored.index_revision}\n`);
    return stored.index_revision;
  }
  const progress = options.quiet ? undefined : new ProgressReporter(label);
  const opened = await openPgc({ ...spec, logger: options.logger, ...(progress ? { onProgress: (e) => progress.update(e) } : {}) });
  progress?.done(`${opened.outcome.mode === "loaded" ? "index unchanged" : `indexed (${opened.outcome.reparsed} file(s) parsed)`} ${opened.manifest.index_revision}`);
  return opened.manifest.index_revision;
}

export async function fleetUp(options: UpOptions): Promise<UpResult> {
  const root = await realRoot(options.root).catch((error: Error) => {
    throw new CliError(`cannot use ${options.root} as a code root: ${error.message}`, EXIT.dataError);
  });
  // A scope's own exec (scopes file) wins over --exec for the whole fleet.
  const scopes = (await scopesFor(root, options.scopesFile, options.targetLines)).map((s) => (s.exec || !options.exec ? s : { ...s, exec: options.exec }));
  const paths = fleetPaths(fleetDirFor(root));
  const previous = readFleet(paths.dir);
  const revisions = new Map<string, string>();
  const workers: FleetManifest["workers"] = [];
  const started: string[] = [];
  const reused: string[] = [];
  // The manager boots beside the pool of workers (not in it, so the first worker is not held up behind
  // it): a worker that starts before the manager is in the registry reaches it on its next registry read,
  // every later one at once. Workers dial only the manager (`--dial manager`): they never send each other
  // requests, and a full mesh of N workers (N² links and heartbeats) saturates a small machine long
  // before N = 100.
  const cores = cpus().length;
  const load = loadavg()[0] ?? 0;
  const policy = launchPolicy(cores, load);
  options.logger.info({ cores, load, ...policy, scopes: scopes.length, replicas: options.replicas }, "launching fleet processes");
  // A manager that runs, or whose supervisor is about to restart it, is kept.
  let manager = previous?.manager && (pidAlive(previous.manager.pid) || (previous.manager.supervisor !== undefined && pidAlive(previous.manager.supervisor))) ? previous.manager : null;
  if (manager) reused.push(manager.id);
  // Every process of the fleet, and the CLI talking to it, uses the fleet's CURVE key (PROTOCOL.md §11a).
  const security = fleetSecurity(paths.dir);
  // The access policy beside the scopes file (or in the root), read again by every process when it changes.
  const policyFile = join(options.scopesFile ? dirname(resolve(options.scopesFile)) : root, POLICY_FILE);
  const secured = ["--curve-secret", security.secretFile, "--keyring", security.keyringDir, "--policy", policyFile];
  const reachable = [...(options.listen ? ["--bind", options.listen] : []), ...(options.advertise ? ["--advertise", options.advertise] : [])];
  const managerArgs = ["manager", "--id", "manager", "--registry", paths.registry, "--audit", paths.audit, "--root", root, "--log-level", "info", ...reachable, ...secured];
  // The manager runs under a supervisor that restarts it when it dies (supervisor.ts).
  const supervised = ["supervise", "--fleet-dir", paths.dir, "--", ...managerArgs];
  const managerLaunch = manager ? null : launch("manager", supervised, paths.logs).then((m) => ({ manager: m }), (error: unknown) => ({ error }));
  // Scopes are checked (or indexed) one after another while the pool already boots the workers of the
  // scopes checked so far. One `git rev-parse` serves the whole root; a scope whose stored index is current
  // is only checked (scan, hash, compare with its manifest), not loaded: its worker loads it.
  const head = await gitHead(root);
  async function* workersToStart(): AsyncGenerator<{ id: string; scope: ScopeSpec }> {
    for (const [i, scope] of scopes.entries()) {
      revisions.set(scope.name, await ensureIndex({ scope: scope.name, root, scopePaths: scope.paths, cacheRoot: paths.cache, sourceRevision: head }, `[${i + 1}/${scopes.length}] ${scope.name}`, options));
      for (let r = 1; r <= options.replicas; r++) {
        const id = `${scope.name}-${r}`;
        const old = previous?.workers.find((w) => w.id === id);
        if (old && pidAlive(old.pid) && old.index_revision === revisions.get(scope.name) && old.exec === scope.exec) {
          workers.push(old);
          reused.push(id);
          continue;
        }
        if (old) await terminate(old.pid);
        yield { id, scope };
      }
    }
  }
  const pool = await runPool(workersToStart(), policy.booting, async ({ id, scope }) => {
    const args = ["worker", "--id", id, "--scope", scope.name, "--root", root, ...scope.paths.flatMap((p) => ["--scope-path", p]), "--registry", paths.registry, "--dial", MANAGER_ROLE, "--cache", paths.cache, "--workspace", paths.dir, "--log-level", "info", ...secured, ...(scope.exec ? ["--exec", scope.exec] : [])];
    const launched = await launch(id, args, paths.logs);
    return { ...launched, scope: scope.name, index_revision: revisions.get(scope.name) ?? "", ...(scope.exec ? { exec: scope.exec } : {}) };
  });
  workers.push(...pool.done);
  started.push(...pool.done.map((w) => w.id));
  // The manifest lists workers in scope order, whatever order they became ready in.
  const order = new Map(scopes.map((scope, i) => [scope.name, i]));
  workers.sort((x, y) => (order.get(x.scope) ?? 0) - (order.get(y.scope) ?? 0) || x.id.localeCompare(y.id));
  const managerOutcome = managerLaunch ? await managerLaunch : null;
  if (managerOutcome && "manager" in managerOutcome) {
    manager = managerOutcome.manager;
    started.push("manager");
  }
  const failure = pool.error ?? (managerOutcome && "error" in managerOutcome ? managerOutcome.error : undefined);
  if (failure !== undefined) {
    // Record what did come up, so `mesh down` (or the next `mesh up`) can stop or reuse it.
    writeFleet(paths.dir, { root, started_at: previous?.started_at ?? new Date().toISOString(), scopes, workers, manager });
    throw failure;
  }
  if (!manager) throw new CliError("the manager was not started", EXIT.internal);
  // A kept manager may have been restarted by its supervisor meanwhile: the fleet file has its new pid.
  if (!managerOutcome) manager = readFleet(paths.dir)?.manager ?? manager;
  const fleet: FleetManifest = { root, started_at: previous && reused.length > 0 ? previous.started_at : new Date().toISOString(), scopes, workers, manager };
  writeFleet(paths.dir, fleet);
  await waitRoutable(manager.endpoint, workers.length, options.logger, paths.dir);
  return { dir: paths.dir, publicKey: security.keys.publicKey, fleet, started, reused };
}

/**
 * Workers stopping at once. Signalling a hundred at the same instant makes a hundred processes runnable
 * together: the 1-minute load average jumps by about 10 and the next `mesh up` would launch one at a time.
 */
export const STOPPING_AT_ONCE = 8;

/** Graceful stop of a whole fleet: workers first (they drain), a few at a time, then the manager. */
export async function fleetDown(dir: string): Promise<string[]> {
  const fleet = readFleet(dir);
  if (!fleet) return [];
  const stopped: string[] = [];
  const outcome = await runPool(fleet.workers, STOPPING_AT_ONCE, async (w) => {
    if (pidAlive(w.pid)) stopped.push(w.id);
    await terminate(w.pid);
  });
  if (outcome.error !== undefined) throw outcome.error;
  if (fleet.manager) {
    if (pidAlive(fleet.manager.pid)) stopped.push(fleet.manager.id);
    // The supervisor first: it stops the manager and does not start another.
    if (fleet.manager.supervisor !== undefined) await terminate(fleet.manager.supervisor);
    await terminate(fleet.manager.pid);
  }
  writeFleet(dir, { ...fleet, workers: [], manager: null });
  return stopped;
}
