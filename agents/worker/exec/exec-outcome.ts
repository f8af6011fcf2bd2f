// How each way an agent command can end becomes an executor result: every failure is a `failed` or
// `blocked` output with a protocol error code, never an exception.
import { TaskError, type TaskErrorCode } from "../../protocol/index.js";
import type { ExecutorOutput } from "../executor.js";
import { fitResult } from "./fit-limits.js";
import type { RunOutcome } from "./run-command.js";

/** Lines of stderr quoted in a failure message. */
export const STDERR_LINES_IN_ERRORS = 5;
/** Longest quoted stderr line. */
const STDERR_LINE_CHARS = 300;

/** A failed (or blocked) output whose error carries the code's retryable flag from the protocol table. */
export function failedOutput(code: TaskErrorCode, message: string, status: "failed" | "blocked" = "failed"): ExecutorOutput {
  return { status, result: fitResult(message), error: new TaskError(code, message).toWire() };
}

/** The last non-empty lines of `text`, each cut to a readable length. */
export function lastLines(text: string, count = STDERR_LINES_IN_ERRORS): string {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim().length > 0)
    .slice(-count)
    .map((line) => line.slice(0, STDERR_LINE_CHARS))
    .join("\n");
}

function stderrNote(stderr: string): string {
  const tail = lastLines(stderr);
  return tail.length > 0 ? `; last stderr lines:\n${tail}` : " (no stderr output)";
}

/** Why a command could not start, in the words a user searches for. */
export function spawnMessage(errno: string, command: string, message: string): string {
  if (errno === "ENOENT") return `command not found: ${command}`;
  if (errno === "EACCES") return `command is not executable: ${command}`;
  return `could not start ${command}: ${message}`;
}

export interface OutcomeContext {
  command: string;
  /** How long the command was given before SIGTERM, in ms. */
  budgetMs: number;
  killGraceMs: number;
}

/** The output for an outcome that is a failure; undefined for exit code 0 (OUTPUT.md decides then). */
export function failureFor(outcome: RunOutcome, context: OutcomeContext): ExecutorOutput | undefined {
  const { command } = context;
  switch (outcome.kind) {
    case "spawn_failed":
      return failedOutput("EXECUTOR_FAILED", spawnMessage(outcome.errno, command, outcome.message));
    case "timed_out":
      return failedOutput("DEADLINE_EXCEEDED", `${command} did not finish within ${context.budgetMs} ms of the task's deadline and was stopped (SIGTERM, then SIGKILL after ${context.killGraceMs} ms)`);
    case "aborted":
      return failedOutput("EXECUTOR_FAILED", `${command} was stopped: the task was cancelled (${String(outcome.reason ?? "no reason given")})`);
    case "overflow":
      return failedOutput("EXECUTOR_FAILED", `${command} printed more output than allowed and was stopped`);
    case "exited":
      if (outcome.signal !== null) return failedOutput("EXECUTOR_FAILED", `${command} was killed by ${outcome.signal}${stderrNote(outcome.output.stderr)}`);
      if (outcome.code !== 0) return failedOutput("EXECUTOR_FAILED", `${command} exited with code ${outcome.code ?? "unknown"}${stderrNote(outcome.output.stderr)}`);
      return undefined;
    default:
      return outcome satisfies never;
  }
}

/** The clear reason given when the command exited 0 but wrote no OUTPUT.md. */
export function missingOutput(command: string, workspace: string, log: string): ExecutorOutput {
  const tail = lastLines(log);
  const note = tail.length > 0 ? `; its last output lines:\n${tail}` : "";
  return failedOutput("EXECUTOR_FAILED", `${command} exited 0 without writing OUTPUT.md in ${workspace}${note}`, "blocked");
}
