// Run a command without a shell as the leader of its own process group, bounded by a stop time and an
// abort signal; the whole group (grandchildren too) gets SIGTERM, then SIGKILL. POSIX only.
import { orphanGuard } from "./orphan-guard.js";
import { spawn, type ChildProcess } from "node:child_process";
import { OutputHead, OutputTail } from "./output-tail.js";

/** stdout and stderr, interleaved as they arrived, kept for exec.log. */
export const MAX_LOG_TAIL_BYTES = 64 * 1024;
/** stderr kept apart for error messages. */
export const MAX_STDERR_TAIL_BYTES = 16 * 1024;
/** After the leader exits, how long an escaped process may hold its pipes open before we stop reading. */
export const STDIO_DRAIN_MS = 250;
/** Longest delay setTimeout honours; a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export interface RunRequest {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Epoch ms: SIGTERM to the process group. */
  termAt: number;
  /** SIGKILL follows SIGTERM (or an abort) after this long. */
  killGraceMs: number;
  signal?: AbortSignal;
  /** Keep stdout apart, up to this many bytes (a printed result); more stops the command at once. */
  stdoutLimitBytes?: number;
}

export interface CapturedOutput {
  /** The last MAX_LOG_TAIL_BYTES of stdout and stderr. */
  log: string;
  /** The last MAX_STDERR_TAIL_BYTES of stderr. */
  stderr: string;
  /** All of stdout when `stdoutLimitBytes` was given, else "". */
  stdout: string;
}

export type StopReason = "timed_out" | "aborted" | "overflow";

export type RunOutcome =
  | { kind: "exited"; code: number | null; signal: NodeJS.Signals | null; pid: number | undefined; output: CapturedOutput }
  | { kind: StopReason; pid: number | undefined; output: CapturedOutput; reason?: unknown }
  | { kind: "spawn_failed"; errno: string; message: string };

/** Never rejects: every way a command can end is a RunOutcome, by `killAt + STDIO_DRAIN_MS` at the latest. */
export function runCommand(request: RunRequest): Promise<RunOutcome> {
  return new Promise((resolve) => new GroupRun(request, resolve).start());
}

function spawnFailure(error: unknown): RunOutcome {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code ?? "EINVAL";
  return { kind: "spawn_failed", errno, message: error instanceof Error ? error.message : String(error) };
}

class GroupRun {
  private child: ChildProcess | undefined;
  private stopped: StopReason | undefined;
  private stopCause: unknown;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private settled = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly log = new OutputTail(MAX_LOG_TAIL_BYTES);
  private readonly stderr = new OutputTail(MAX_STDERR_TAIL_BYTES);
  private readonly stdout: OutputHead | undefined;
  private readonly onAbort = () => this.stop("aborted", this.request.signal?.reason);

  constructor(
    private readonly request: RunRequest,
    private readonly resolve: (outcome: RunOutcome) => void,
  ) {
    this.stdout = request.stdoutLimitBytes === undefined ? undefined : new OutputHead(request.stdoutLimitBytes);
  }

  start(): void {
    const [command, ...args] = this.request.argv;
    if (command === undefined) return this.settle({ kind: "spawn_failed", errno: "EINVAL", message: "the command is empty" });
    if (this.request.signal?.aborted) return this.settle({ kind: "aborted", pid: undefined, output: this.captured(), reason: this.request.signal.reason });
    try {
      // detached: the child leads a new process group, so one kill(-pid) reaches every descendant.
      this.child = spawn(command, args, { cwd: this.request.cwd, env: this.request.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      return this.settle(spawnFailure(error));
    }
    this.listen(this.child);
    if (this.child.pid !== undefined) orphanGuard.register(this.child.pid);
    this.later(this.request.termAt - Date.now(), () => this.stop("timed_out"));
    this.request.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  private listen(child: ChildProcess): void {
    // `on`, not `once`: a second 'error' without a listener would crash the worker.
    child.on("error", (error) => {
      if (child.pid === undefined) this.settle(spawnFailure(error));
    });
    child.once("exit", (code, signal) => this.onExit(code, signal));
    child.once("close", () => {
      if (child.pid !== undefined) orphanGuard.unregister(child.pid);
      this.finish();
    });
    child.stdout?.on("data", (chunk: Buffer) => this.onStdout(chunk));
    child.stderr?.on("data", (chunk: Buffer) => {
      this.log.push(chunk);
      this.stderr.push(chunk);
    });
    // A pipe error must not crash the worker; the exit status still tells what happened.
    child.stdout?.on("error", () => undefined);
    child.stderr?.on("error", () => undefined);
  }

  private onStdout(chunk: Buffer): void {
    this.log.push(chunk);
    if (this.stdout && !this.stdout.push(chunk)) this.stop("overflow");
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
    // The task ends with its leader: whatever it left in its group is killed.
    this.signalGroup("SIGKILL");
    this.later(STDIO_DRAIN_MS, () => this.finish());
  }

  private stop(why: StopReason, cause?: unknown): void {
    if (this.stopped !== undefined || this.exit !== undefined || this.settled) return;
    this.stopped = why;
    this.stopCause = cause;
    this.signalGroup(why === "overflow" ? "SIGKILL" : "SIGTERM");
    this.later(why === "overflow" ? 0 : this.request.killGraceMs, () => {
      this.signalGroup("SIGKILL");
      // Even a leader that never reports its exit cannot hold the caller past this point.
      this.later(STDIO_DRAIN_MS, () => this.finish());
    });
  }

  private finish(): void {
    if (this.settled) return;
    const output = this.captured();
    const pid = this.child?.pid;
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    if (this.stopped !== undefined) return this.settle({ kind: this.stopped, pid, output, reason: this.stopCause });
    const exit = this.exit ?? { code: this.child?.exitCode ?? null, signal: this.child?.signalCode ?? null };
    this.settle({ kind: "exited", ...exit, pid, output });
  }

  private settle(outcome: RunOutcome): void {
    if (this.settled) return;
    this.settled = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.request.signal?.removeEventListener("abort", this.onAbort);
    this.resolve(outcome);
  }

  private captured(): CapturedOutput {
    return { log: this.log.text(), stderr: this.stderr.text(), stdout: this.stdout?.text() ?? "" };
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  private later(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    this.timers.add(timer);
  }
}
