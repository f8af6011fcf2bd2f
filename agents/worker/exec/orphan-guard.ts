// An agent command runs in its own process group (so one kill reaches all it started), which also means it
// outlives a worker killed with SIGKILL: it would finish a task nobody waits for while the manager runs the
// task again on another replica. The guard is one small process per worker, started with the first
// command: the worker tells it each command's group on a pipe, and when the worker dies the pipe closes,
// the guard reads its end at once, and stops every group still registered (SIGTERM, then SIGKILL after
// GUARD_GRACE_MS). A worker that stops normally ends its commands itself; the guard then finds none.
import { spawn, type ChildProcess } from "node:child_process";

export const GUARD_GRACE_MS = 2_000;

/** The guard's program: registered groups from stdin ("+PGID" / "-PGID" lines); at end of input, stop them. */
const GUARD_SOURCE = `
const groups = new Set();
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let at;
  while ((at = buffered.indexOf("\\n")) >= 0) {
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === "+") groups.add(pgid);
    else groups.delete(pgid);
  }
});
const signal = (name) => { for (const pgid of groups) { try { process.kill(-pgid, name); } catch {} } };
process.stdin.on("end", () => {
  if (groups.size === 0) process.exit(0);
  signal("SIGTERM");
  setTimeout(() => { signal("SIGKILL"); process.exit(0); }, ${GUARD_GRACE_MS});
});
`;

export class OrphanGuard {
  private guard: ChildProcess | null = null;

  private ensure(): ChildProcess | null {
    if (this.guard && this.guard.exitCode === null && this.guard.stdin?.writable) return this.guard;
    try {
      const guard = spawn(process.execPath, ["-e", GUARD_SOURCE], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
      guard.on("error", () => undefined);
      guard.stdin?.on("error", () => undefined);
      // Neither the guard nor its pipe keeps the worker's event loop alive.
      guard.unref();
      (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      this.guard = guard;
      return guard;
    } catch {
      return null;
    }
  }

  /** A command's process group started: stop it if this process dies before it ends. */
  register(pgid: number): void {
    this.ensure()?.stdin?.write(`+${pgid}\n`);
  }

  /** The group ended (or was stopped by the worker itself). */
  unregister(pgid: number): void {
    if (this.guard?.stdin?.writable) this.guard.stdin.write(`-${pgid}\n`);
  }

  /** Ends the pipe as the worker's death would: the guard stops the groups still registered, then exits. */
  close(): void {
    this.guard?.stdin?.end();
    this.guard = null;
  }

  /** The guard's pid, or undefined before the first command. */
  get pid(): number | undefined {
    return this.guard?.pid;
  }
}

/** The guard of this process's agent commands. */
export const orphanGuard = new OrphanGuard();
