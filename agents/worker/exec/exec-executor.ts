// The exec adapter: wraps any agent CLI as a worker. Per task it writes a CDP workspace
// (.agent-workspaces/{task-id}/HANDOFF.md, WORK.md), runs the command with the workspace path, and
// turns OUTPUT.md into the result. Every failure becomes a failed/blocked result — never a hang.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Executor, ExecutorInput, ExecutorOutput } from "../executor.js";
import { renderHandoff } from "./handoff.js";
import { MAX_OUTPUT_BYTES, parseOutputFile } from "./output-file.js";
import { runCommand, type RunOutcome } from "./run-command.js";

export const WORKSPACES_DIR = ".agent-workspaces";
const TAIL_LINES_IN_ERRORS = 5;
/** The agent is stopped this long before the task's deadline, so the worker can still reply in time. */
export const REPLY_MARGIN_MS = 500;

export interface ExecExecutorOptions {
  /** argv of the agent command; the workspace path is appended as the last argument. */
  command: readonly string[];
  /** Directory that holds `.agent-workspaces/`. */
  workspaceRoot: string;
  logger: Logger;
  killGraceMs?: number;
}

/** A directory name for a task id: safe characters only, never `.`/`..`, bounded length. */
export function workspaceName(taskId: string): string {
  const safe = taskId.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/\.{2,}/g, "_").replace(/^\./, "_").slice(0, 120);
  return safe.length > 0 ? safe : "task";
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-TAIL_LINES_IN_ERRORS).join("\n");
}

function failed(code: "EXECUTOR_FAILED" | "DEADLINE_EXCEEDED", message: string): ExecutorOutput {
  return { status: "failed", result: message, error: { code, message: message.slice(0, 2000), retryable: code === "DEADLINE_EXCEEDED" } };
}

async function readOutput(workspace: string): Promise<ExecutorOutput> {
  const path = join(workspace, "OUTPUT.md");
  const info = await stat(path).catch(() => null);
  if (!info) return { status: "blocked", result: "the agent exited without writing OUTPUT.md", error: { code: "EXECUTOR_FAILED", message: "no OUTPUT.md was written", retryable: false } };
  if (info.size > MAX_OUTPUT_BYTES) return failed("EXECUTOR_FAILED", `OUTPUT.md is ${info.size} bytes, over the ${MAX_OUTPUT_BYTES}-byte limit`);
  return parseOutputFile(await readFile(path, "utf8"));
}

function fromOutcome(outcome: RunOutcome, argv0: string): ExecutorOutput | null {
  switch (outcome.kind) {
    case "not_found":
      return failed("EXECUTOR_FAILED", outcome.detail);
    case "timed_out":
      return failed("DEADLINE_EXCEEDED", `${argv0} did not finish before the task's deadline and was stopped`);
    case "aborted":
      return failed("EXECUTOR_FAILED", `${argv0} was stopped: the task was cancelled`);
    case "exited":
      return outcome.code === 0 ? null : failed("EXECUTOR_FAILED", `${argv0} exited with code ${outcome.code}: ${lastLines(outcome.tail)}`);
    default:
      return outcome satisfies never;
  }
}

export function createExecExecutor(options: ExecExecutorOptions): Executor {
  const argv0 = options.command[0] ?? "(empty command)";
  return {
    name: `exec:${argv0}`,
    async execute(input: ExecutorInput): Promise<ExecutorOutput> {
      const workspace = join(options.workspaceRoot, WORKSPACES_DIR, workspaceName(input.task.id));
      await mkdir(workspace, { recursive: true });
      await writeFile(join(workspace, "HANDOFF.md"), renderHandoff(input.task, input.scope, input.workerId, input.evidence, input.deadline));
      await writeFile(join(workspace, "WORK.md"), "# Working Notes\n");
      const env = { ...process.env, MESH_WORKSPACE: workspace, MESH_TASK_ID: input.task.id, MESH_SCOPE: input.scope.name, MESH_SCOPE_ROOT: input.scope.root };
      const outcome = await runCommand({ argv: [...options.command, workspace], cwd: workspace, env, deadline: input.deadline - REPLY_MARGIN_MS, signal: input.signal, ...(options.killGraceMs ? { killGraceMs: options.killGraceMs } : {}) });
      if (outcome.kind !== "not_found") await writeFile(join(workspace, "exec.log"), outcome.tail).catch(() => undefined);
      input.logger.info({ workspace, outcome: outcome.kind }, "agent command finished");
      return fromOutcome(outcome, argv0) ?? readOutput(workspace);
    },
  };
}
