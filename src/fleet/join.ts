// `mesh join`: workers for some scopes of a fleet, on another host than its manager. They index the same
// code base (same revision: the index revision in each card shows a mismatch), join the mesh through the
// manager's advertised endpoint, and talk only to it. This host has its own key pair; the manager's host
// admits its public key (`mesh keys add`), and this host's keyring holds the manager's.
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Logger } from "pino";
import { z } from "zod";
import { MeshClient, parseSeed, Z85_KEY } from "../../bus/index.js";
import { MANAGER_ROLE } from "../../agents/manager/serve-manager.js";
import { gitHead } from "../../agents/pgc/store/source-revision.js";
import { realRoot } from "../../agents/pgc/scan/index.js";
import { CliError, EXIT } from "../cli/exit-codes.js";
import { fleetSecurity } from "../security.js";
import { fleetDirFor, fleetPaths, pidAlive } from "./fleet-dir.js";
import { launch, terminate } from "./launch.js";
import { ensureIndex, scopesFor } from "./up.js";

export const JOIN_FILE = "join.json";
/** The manager's public key in this host's keyring. */
export const MANAGER_KEY_NAME = "manager";
const ROUTABLE_TIMEOUT_MS = 60_000;
/** How long the manager has to answer (or refuse) the first ping: a busy host's manager may take seconds. */
const REACH_TIMEOUT_MS = 20_000;

const joinSchema = z.object({
  root: z.string(),
  manager: z.string(),
  workers: z.array(z.object({ id: z.string(), pid: z.number().int(), endpoint: z.string(), log: z.string(), scope: z.string(), index_revision: z.string() })),
});
export type JoinManifest = z.infer<typeof joinSchema>;

export interface JoinOptions {
  /** The manager's endpoint with its public key: `tcp://hosta:7000#KEY` (mesh up --listen prints it). */
  manager: string;
  root: string;
  /** Scope names to run here; empty: every scope. */
  scopes: string[];
  scopesFile?: string | undefined;
  targetLines?: number | undefined;
  replicas: number;
  /** Where the workers listen: an interface address (`tcp://10.0.0.2:*`); default every interface. */
  listen?: string | undefined;
  /** What they publish (`tcp://hostb.example:*`: this name, each worker's port); default the listening address. */
  advertise?: string | undefined;
  exec?: string | undefined;
  logger: Logger;
  quiet?: boolean;
}

export interface JoinResult {
  dir: string;
  publicKey: string;
  join: JoinManifest;
}

export function readJoin(dir: string): JoinManifest | null {
  try {
    return joinSchema.parse(JSON.parse(readFileSync(join(dir, JOIN_FILE), "utf8")));
  } catch {
    return null;
  }
}

/** A Z85 key may start with "-" and holds shell characters (`&`, `<`, `[`…) but never a single quote. */
export function shellQuoted(text: string): string {
  return `'${text}'`;
}

function notAdmitted(publicKey: string): CliError {
  const name = hostname().replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60) || "member";
  return new CliError(
    `the fleet's manager does not admit this host's key ${publicKey}`,
    EXIT.forbidden,
    `on the manager's host run \`mesh keys add --fleet ROOT -- ${name} ${shellQuoted(publicKey)}\` (ROOT: the fleet's code root there), then \`mesh join\` again`,
  );
}

export async function fleetJoin(options: JoinOptions): Promise<JoinResult> {
  const seed = parseSeed(options.manager);
  if (!seed.key || !Z85_KEY.test(seed.key)) throw new CliError(`give the manager as ENDPOINT#PUBLICKEY (got ${options.manager})`, EXIT.usage, "`mesh up --listen …` prints it; `mesh keys list --fleet ROOT` on the manager's host shows the key named fleet");
  const root = await realRoot(options.root).catch((error: Error) => {
    throw new CliError(`cannot use ${options.root} as a code root: ${error.message}`, EXIT.dataError);
  });
  const all = await scopesFor(root, options.scopesFile, options.targetLines);
  const unknown = options.scopes.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length > 0) throw new CliError(`no scope ${unknown.join(", ")} in this split of ${root}`, EXIT.usage, `its scopes: ${all.map((s) => s.name).join(", ")} (the same code and scopes file as the manager's host give the same split)`);
  const scopes = options.scopes.length > 0 ? all.filter((s) => options.scopes.includes(s.name)) : all;
  const paths = fleetPaths(fleetDirFor(root));
  const security = fleetSecurity(paths.dir);
  writeFileSync(join(security.keyringDir, `${MANAGER_KEY_NAME}.pub`), `${seed.key}\n`);
  // The bus's own ops, which any admitted key may use (the access policy grants the fleet's ops to clients,
  // not to members): a ping proves the manager is reachable and admits this host's key before anything
  // starts; its peer list shows when it sees the workers started here alive.
  const client = new MeshClient({ endpoint: seed.endpoint, timeoutMs: REACH_TIMEOUT_MS, attempts: 1, logger: options.logger, curve: { ...security.keys, serverKey: seed.key } });
  const peersAlive = async (): Promise<{ id: string; state: string }[]> => ((await client.request("peers", {})) as { peers: { card: { id: string }; state: string }[] }).peers.map((p) => ({ id: p.card.id, state: p.state }));
  try {
    try {
      await client.request("ping", {});
    } catch (error) {
      if ((error as Error).name === "AuthRefusedError") throw notAdmitted(security.keys.publicKey);
      throw new CliError(`cannot reach the fleet's manager at ${seed.endpoint}: ${(error as Error).message}`, EXIT.unavailable, "is `mesh up --listen` running there, and is the port open from this host?");
    }
    const previous = readJoin(paths.dir);
    const head = await gitHead(root);
    const host = hostname().replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 24) || "host";
    const secured = ["--curve-secret", security.secretFile, "--keyring", security.keyringDir];
    const reach = ["--bind", options.listen ?? "tcp://0.0.0.0:*", ...(options.advertise ? ["--advertise", options.advertise] : [])];
    const workers: JoinManifest["workers"] = [];
    for (const [i, scope] of scopes.entries()) {
      const revision = await ensureIndex({ scope: scope.name, root, scopePaths: scope.paths, cacheRoot: paths.cache, sourceRevision: head }, `[${i + 1}/${scopes.length}] ${scope.name}`, options);
      for (let r = 1; r <= options.replicas; r++) {
        const id = `${scope.name}-${host}-${r}`;
        const old = previous?.workers.find((w) => w.id === id);
        if (old && pidAlive(old.pid) && old.index_revision === revision) {
          workers.push(old);
          continue;
        }
        if (old) await terminate(old.pid);
        const exec = scope.exec ?? options.exec;
        const args = ["worker", "--id", id, "--scope", scope.name, "--root", root, ...scope.paths.flatMap((p) => ["--scope-path", p]), "--seed", options.manager, "--dial", MANAGER_ROLE, ...reach, "--cache", paths.cache, "--workspace", paths.dir, "--log-level", "info", ...secured, ...(exec ? ["--exec", exec] : [])];
        workers.push({ ...(await launch(id, args, paths.logs)), scope: scope.name, index_revision: revision });
        writeFileSync(join(paths.dir, JOIN_FILE), JSON.stringify({ root, manager: options.manager, workers }, null, 2));
      }
    }
    for (const stale of previous?.workers ?? []) if (!workers.some((w) => w.id === stale.id)) await terminate(stale.pid);
    const manifest: JoinManifest = { root, manager: options.manager, workers };
    writeFileSync(join(paths.dir, JOIN_FILE), JSON.stringify(manifest, null, 2));
    // Routable: the manager sees every worker started here alive.
    const ids = new Set(workers.map((w) => w.id));
    const until = Date.now() + ROUTABLE_TIMEOUT_MS;
    for (;;) {
      const seen = (await peersAlive().catch(() => [])).filter((a) => ids.has(a.id) && a.state === "alive").length;
      if (seen >= ids.size) break;
      if (Date.now() > until) throw new CliError(`the manager sees ${seen} of the ${ids.size} workers started here`, EXIT.timeout, "the manager must reach this host's advertised address: check --listen/--advertise and the firewall");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { dir: paths.dir, publicKey: security.keys.publicKey, join: manifest };
  } finally {
    await client.close();
  }
}

/** Stops the workers this host joined to a fleet (mesh down on the joining host). */
export async function leaveFleet(dir: string): Promise<string[]> {
  const joined = readJoin(dir);
  if (!joined) return [];
  const stopped: string[] = [];
  for (const w of joined.workers) {
    if (pidAlive(w.pid)) stopped.push(w.id);
    await terminate(w.pid);
  }
  writeFileSync(join(dir, JOIN_FILE), JSON.stringify({ ...joined, workers: [] }, null, 2));
  return stopped;
}

/** `mesh up --listen` prints this: the command another host runs to add workers to the fleet. */
export function joinCommand(endpoint: string, publicKey: string, root: string): string {
  return `mesh join ${shellQuoted(`${endpoint}#${publicKey}`)} --root ${root} --scope SCOPE`;
}

