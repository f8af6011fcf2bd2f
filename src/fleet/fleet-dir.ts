// Where fleets live: one directory per code root under the per-user runtime directory, holding the
// fleet manifest (fleet.json), the registry, the logs, the PGC cache and the audit records.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { z } from "zod";

export const FLEET_HOME_ENV = "MESH_HOME";
export const FLEET_FILE = "fleet.json";

const processSchema = z.object({ id: z.string(), pid: z.number().int(), endpoint: z.string(), log: z.string() });
export const fleetSchema = z.object({
  root: z.string(),
  started_at: z.string(),
  /** `exec`: the agent command the scope's workers run tasks with (`mesh up --exec`, or the scopes file's per-scope `exec`). */
  scopes: z.array(z.object({ name: z.string(), paths: z.array(z.string()), exec: z.string().optional() })),
  workers: z.array(processSchema.extend({ scope: z.string(), index_revision: z.string(), exec: z.string().optional() })),
  /** `supervisor`: the pid of the process that restarts the manager when it dies (supervisor.ts). */
  manager: processSchema.extend({ supervisor: z.number().int().optional() }).nullable(),
});
export type FleetManifest = z.infer<typeof fleetSchema>;

/** $MESH_HOME, else $XDG_STATE_HOME/lattice-mesh, else ~/.local/state/lattice-mesh. */
export function meshHome(): string {
  const explicit = process.env[FLEET_HOME_ENV];
  if (explicit) return explicit;
  const state = process.env["XDG_STATE_HOME"];
  return join(state && state.length > 0 ? state : join(homedir(), ".local", "state"), "lattice-mesh");
}

export function fleetDirFor(realRoot: string): string {
  const name = basename(realRoot).replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 40) || "root";
  return join(meshHome(), "fleets", `${name}-${createHash("sha256").update(realRoot).digest("hex").slice(0, 12)}`);
}

export function fleetPaths(dir: string) {
  return { dir, manifest: join(dir, FLEET_FILE), registry: join(dir, "registry"), logs: join(dir, "logs"), cache: join(dir, "cache"), audit: join(dir, "audit") };
}

export function readFleet(dir: string): FleetManifest | null {
  try {
    return fleetSchema.parse(JSON.parse(readFileSync(join(dir, FLEET_FILE), "utf8")));
  } catch {
    return null;
  }
}

export function writeFleet(dir: string, fleet: FleetManifest): void {
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${FLEET_FILE}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify(fleet, null, 2));
  renameSync(temp, join(dir, FLEET_FILE));
}

/** True for a running process; a zombie (dead, not yet reaped — on Linux, state Z) counts as dead. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (not Linux): kill(pid, 0) is all we can know
  }
}

/** Fleets with a live manager process, newest first. */
/** Every fleet with a readable manifest under $MESH_HOME, running or not. */
function knownFleets(): { dir: string; fleet: FleetManifest }[] {
  const base = join(meshHome(), "fleets");
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .map((name) => ({ dir: join(base, name), fleet: readFleet(join(base, name)) }))
    .filter((f): f is { dir: string; fleet: FleetManifest } => f.fleet !== null);
}

const managerAlive = (fleet: FleetManifest): boolean => fleet.manager !== null && pidAlive(fleet.manager.pid);

/** Fleets whose manager is gone while some of their workers still run (a killed or crashed manager). */
export function headlessFleets(): { dir: string; fleet: FleetManifest; workersAlive: number }[] {
  return knownFleets()
    .filter((f) => !managerAlive(f.fleet))
    .map((f) => ({ ...f, workersAlive: f.fleet.workers.filter((w) => pidAlive(w.pid)).length }))
    .filter((f) => f.workersAlive > 0);
}

export function runningFleets(): { dir: string; fleet: FleetManifest }[] {
  return knownFleets()
    .filter((f) => managerAlive(f.fleet))
    .sort((a, b) => b.fleet.started_at.localeCompare(a.fleet.started_at));
}
