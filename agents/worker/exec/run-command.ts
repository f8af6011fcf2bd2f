// Run an agent command as its own process group, bounded by a deadline and an abort signal; the
// whole group (grandchildren too) is stopped with SIGTERM, then SIGKILL after a grace period.
import { spawn } from "node:child_process";

export const DEFAULT_KILL_GRACE_MS = 2_000;
/** Bytes of stdout+stderr kept (the tail) for the log and error messages. */
export const MAX_CAPTURED_BYTES = 64 * 1024;
/** Bound on a command's printed result (an ask --json answer). */
export const MAX_STDOUT_CHARS = 4 * 1024 * 1024;

export type RunOutcome =
  | { kind: "exited"; code: number; tail: string; stdout?: string }
  | { kind: "not_found"; detail: string }
  | { kind: "timed_out"; tail: string }
  | { kind: "aborted"; tail: string };

export interface RunOptions {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  deadline: number;
  signal: AbortSignal;
  killGraceMs?: number;
  /** Keep stdout apart (bounded) instead of mixing it into the tail: for commands that print a result. */
  captureStdoutOnly?: boolean;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

export function runCommand(options: RunOptions): Promise<RunOutcome> {
  const [command, ...args] = options.argv;
  return new Promise((resolve) => {
    let tail = "";
    let stdout = "";
    let stopping: "timed_out" | "aborted" | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    const child = spawn(command as string, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const capture = (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-MAX_CAPTURED_BYTES);
    };
    if (options.captureStdoutOnly) {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (stdout.length < MAX_STDOUT_CHARS) stdout += chunk.toString("utf8");
      });
    } else child.stdout?.on("data", capture);
    child.stderr?.on("data", capture);
    const stop = (why: "timed_out" | "aborted") => {
      if (stopping) return;
      stopping = why;
      killGroup(child.pid, "SIGTERM");
      graceTimer = setTimeout(() => killGroup(child.pid, "SIGKILL"), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    };
    const deadlineTimer = setTimeout(() => stop("timed_out"), Math.max(0, options.deadline - Date.now()));
    const onAbort = () => stop("aborted");
    options.signal.addEventListener("abort", onAbort, { once: true });
    const finish = (outcome: RunOutcome) => {
      clearTimeout(deadlineTimer);
      options.signal.removeEventListener("abort", onAbort);
      // Grandchildren may outlive the leader: make sure the group is gone before reporting.
      if (stopping) setTimeout(() => killGroup(child.pid, "SIGKILL"), 0);
      clearTimeout(graceTimer);
      resolve(outcome);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      finish(error.code === "ENOENT" ? { kind: "not_found", detail: `command not found: ${command}` } : { kind: "exited", code: -1, tail: `${tail}\n${error.message}` });
    });
    child.once("close", (code) => {
      if (stopping) finish({ kind: stopping, tail });
      else finish({ kind: "exited", code: code ?? -1, tail, ...(options.captureStdoutOnly ? { stdout } : {}) });
    });
  });
}
