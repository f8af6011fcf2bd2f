// One manager per fleet: a lock file in the fleet's audit directory holding the manager's pid, the
// process's start time (so a pid reused by another process is not mistaken for the holder), its host and
// its incarnation. A second manager refuses to start while the holder lives; a lock whose holder is gone
// (a manager killed with SIGKILL) is taken over. Taking over is itself guarded by an exclusive file, so
// two managers starting at once over a stale lock never both win.
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { pidAlive } from "./fleet-dir.js";

export const MANAGER_LOCK_FILE = "manager.lock";
/** A takeover guard older than this was left by a process that died while taking over. */
export const TAKEOVER_STALE_MS = 10_000;

export interface LockHolder {
  pid: number;
  /** The process's start time (clock ticks since boot, /proc/PID/stat field 22); null where unknown. */
  started: number | null;
  host: string;
  incarnation: number;
  acquired_at: string;
}

export class ManagerLockedError extends Error {
  override readonly name = "ManagerLockedError";
  constructor(readonly holder: LockHolder) {
    super(`another manager (pid ${holder.pid} on ${holder.host}, since ${holder.acquired_at}) acts for this fleet`);
  }
}

function processStart(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const value = Number(fields[19]); // field 22 overall: the two before ")" are pid and comm
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** Does the recorded holder still run? On another host we cannot tell, and say yes. */
export function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (!pidAlive(holder.pid)) return false;
  const started = processStart(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string") return null;
    return { pid: parsed.pid, started: typeof parsed.started === "number" ? parsed.started : null, host: parsed.host, incarnation: Number(parsed.incarnation ?? 0), acquired_at: String(parsed.acquired_at ?? "") };
  } catch {
    return null; // torn or unreadable: treated as stale
  }
}

/** Creates `file` with `text` only if it does not exist (O_EXCL); false when it does. */
function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

export interface ManagerLock {
  holder: LockHolder;
  /** Whether a stale lock (its holder gone) was taken over, and whose. */
  tookOverFrom: LockHolder | null;
  release(): void;
}

/** Takes the fleet's manager lock in `dir`, or throws ManagerLockedError naming the living holder. */
export function acquireManagerLock(dir: string, incarnation: number): ManagerLock {
  const file = join(dir, MANAGER_LOCK_FILE);
  const me: LockHolder = { pid: process.pid, started: processStart(process.pid), host: hostname(), incarnation, acquired_at: new Date().toISOString() };
  const text = `${JSON.stringify(me)}\n`;
  const release = () => {
    // Only our own lock: a manager that lost it (taken over after a long pause) must not remove another's.
    if (readHolder(file)?.pid === me.pid && readHolder(file)?.incarnation === incarnation) rmSync(file, { force: true });
  };
  if (createExclusive(file, text)) return { holder: me, tookOverFrom: null, release };
  const holder = readHolder(file);
  if (holder && holderAlive(holder)) throw new ManagerLockedError(holder);
  // Stale. One taker at a time: the guard is an exclusive file; a guard left by a crashed taker expires.
  const guard = `${file}.takeover`;
  if (existsSync(guard) && Date.now() - statSync(guard).mtimeMs > TAKEOVER_STALE_MS) rmSync(guard, { force: true });
  if (!createExclusive(guard, text)) throw new ManagerLockedError(holder ?? me);
  try {
    // Still the same stale lock? (another taker may have replaced it before we got the guard)
    const now = readHolder(file);
    if (now && holderAlive(now)) throw new ManagerLockedError(now);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, file); // atomic: a reader sees the stale holder or us, never a torn file
  } finally {
    rmSync(guard, { force: true });
  }
  return { holder: me, tookOverFrom: holder, release };
}
