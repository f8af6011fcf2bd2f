// An advisory lock on a CDP workspace, so two runs of one task id (a retry racing the original, or
// replicas sharing a workspace root) never share HANDOFF.md and OUTPUT.md.
import { readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

export const LOCK_FILE = ".lock";

interface LockRecord {
  pid: number;
  host: string;
  /** Epoch ms after which the holder has stopped its agent, so the lock is stale. */
  until: number;
}

/** A run of the same task already holds the workspace; another replica may take the task. */
export class WorkspaceBusyError extends Error {
  override readonly name = "WorkspaceBusyError";
  readonly code = "workspace_busy";
  readonly retryable = true;

  constructor(
    readonly workspace: string,
    readonly holder: string,
  ) {
    super(`the workspace ${workspace} is in use by another run of this task (${holder})`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isHeld(record: LockRecord): boolean {
  if (record.until <= Date.now()) return false;
  // A lock from another host cannot be checked; it holds until its `until`.
  return record.host !== hostname() || isAlive(record.pid);
}

async function readLock(path: string): Promise<LockRecord | undefined> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as Partial<LockRecord>;
    if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.until === "number") return value as LockRecord;
  } catch {
    // unreadable or half-written: treated as stale
  }
  return undefined;
}

/** Takes the workspace's lock until `until` (epoch ms); resolves with its release. Throws WorkspaceBusyError. */
export async function lockWorkspace(dir: string, until: number): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const text = JSON.stringify({ pid: process.pid, host: hostname(), until } satisfies LockRecord);
  // Two attempts: the second follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, text, { flag: "wx" });
      return async () => {
        if ((await readFile(path, "utf8").catch(() => "")) === text) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const held = await readLock(path);
      if (held && isHeld(held)) throw new WorkspaceBusyError(dir, `pid ${held.pid} on ${held.host}`);
      await rm(path, { force: true });
    }
  }
  throw new WorkspaceBusyError(dir, "a concurrent run took the lock first");
}
