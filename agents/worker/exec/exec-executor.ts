// The exec adapter: wraps any agent CLI as a worker's executor. Per task it writes a CDP workspace
// (.agent-workspaces/{task-id}/HANDOFF.md and an empty WORK.md), runs the command without a shell in its
// own process group with the workspace path as last argument, and turns OUTPUT.md into the result.
// Every failure becomes a failed or blocked result before the deadline; execute() never throws.
import { stat } from "node:fs/promises";
import { basename, isAbsolute, resolve } from "node:path";
import type { Logger } from "pino";
import { z } from "zod";
import { ScopeViolationError } from "../../pgc/scan/index.js";
import type { Executor, ExecutorInput, ExecutorOutput } from "../executor.js";
import { failedOutput, failureFor, missingOutput } from "./exec-outcome.js";
import { describeIssues, ExecutorConfigError } from "./executor-config-error.js";
import { renderHandoff } from "./handoff.js";
import { parseOutputFile, readOutputFile } from "./output-file.js";
import { runCommand, type RunOutcome } from "./run-command.js";
import { DEFAULT_KILL_GRACE_MS, DEFAULT_REPLY_MARGIN_MS, planStop, type StopPlan } from "./stop-plan.js";
import { EXEC_LOG_FILE, HANDOFF_FILE, openWorkspace, WORK_FILE, type Workspace } from "./workspace.js";
import { WorkspaceBusyError } from "./workspace-lock.js";

export { WORKSPACES_DIR, workspaceName } from "./workspace.js";

const optionsSchema = z.object({
  /** argv of the agent command; the workspace path is appended as its last argument. */
  command: z.array(z.string().min(1)).min(1, "must name a command"),
  /** Directory that holds `.agent-workspaces/`. */
  workspaceRoot: z.string().min(1),
  /** The command's environment instead of the worker's (as child_process.spawn's `env`); MESH_* are added. */
  env: z.record(z.string(), z.string().optional()).optional(),
  killGraceMs: z.number().int().min(0).default(DEFAULT_KILL_GRACE_MS),
  replyMarginMs: z.number().int().min(0).default(DEFAULT_REPLY_MARGIN_MS),
});

export type ExecExecutorOptions = z.input<typeof optionsSchema> & { logger: Logger };
type ExecOptions = Readonly<z.output<typeof optionsSchema>>;

function parseOptions(input: ExecExecutorOptions): ExecOptions {
  const { logger: _logger, ...rest } = input;
  const parsed = optionsSchema.safeParse(rest);
  if (!parsed.success) throw new ExecutorConfigError(describeIssues("exec executor", parsed.error.issues));
  const [argv0, ...args] = parsed.data.command as [string, ...string[]];
  // A relative path to the command means the worker's directory, not the scope root it runs in.
  const command = argv0.includes("/") && !isAbsolute(argv0) ? resolve(argv0) : argv0;
  return Object.freeze({ ...parsed.data, command: Object.freeze([command, ...args]) as string[], workspaceRoot: resolve(parsed.data.workspaceRoot) });
}

/** `{model}` in the command line becomes the task's model hint (`--model {model}` → `--model opus`). */
export const MODEL_PLACEHOLDER = "{model}";
/** The hint of a task that is no plan step: seed 000's medium. */
export const DEFAULT_MODEL_HINT = "sonnet";

function modelHintOf(task: ExecutorInput["task"]): string {
  return task.execution?.model_hint ?? DEFAULT_MODEL_HINT;
}

function commandEnv(options: ExecOptions, input: ExecutorInput, workspace: string, plan: StopPlan): NodeJS.ProcessEnv {
  return {
    ...(options.env ?? process.env),
    MESH_WORKSPACE: workspace,
    MESH_TASK_ID: input.task.id,
    MESH_SCOPE: input.scope.name,
    MESH_SCOPE_ROOT: input.scope.root,
    MESH_DEADLINE: String(plan.termAt),
    // A step of a delegation plan says which model it suits (seed 000); advisory for the agent.
    MESH_MODEL_HINT: modelHintOf(input.task),
    ...(input.task.execution ? { MESH_EXECUTION_MODE: input.task.execution.mode } : {}),
  };
}

function workspaceFailure(error: unknown): ExecutorOutput {
  if (error instanceof ScopeViolationError) return failedOutput("SCOPE_VIOLATION", `refused the task's workspace: ${error.message}`);
  if (error instanceof WorkspaceBusyError) return failedOutput("WORKER_OVERLOADED", error.message);
  return failedOutput("EXECUTOR_FAILED", `could not prepare the task's workspace: ${error instanceof Error ? error.message : String(error)}`);
}

function execLog(argv: readonly string[], outcome: RunOutcome, elapsedMs: number): string {
  const ending = outcome.kind === "exited" ? (outcome.signal ? `killed by ${outcome.signal}` : `exit code ${outcome.code}`) : outcome.kind;
  const output = outcome.kind === "spawn_failed" ? outcome.message : outcome.output.log;
  return `# ${JSON.stringify(argv)}\n# ${ending} after ${elapsedMs} ms\n${output}`;
}

/** The task's result from a finished command: its failure, or what its OUTPUT.md says. */
async function resultOf(outcome: RunOutcome, workspace: Workspace, input: ExecutorInput, context: { command: string; plan: StopPlan; started: number }): Promise<ExecutorOutput> {
  const failure = failureFor(outcome, { command: context.command, budgetMs: context.plan.termAt - context.started, killGraceMs: context.plan.killGraceMs });
  if (failure) return failure;
  const text = await readOutputFile(workspace.dir).catch((error: unknown) => {
    throw new Error(`OUTPUT.md could not be read: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (text === undefined) return missingOutput(context.command, workspace.dir, outcome.kind === "exited" ? outcome.output.log : "");
  return parseOutputFile(text, { scopeRoot: input.scope.root });
}

async function runInWorkspace(options: ExecOptions, input: ExecutorInput, workspace: Workspace, plan: StopPlan): Promise<ExecutorOutput> {
  const started = Date.now();
  const command = options.command[0] ?? "";
  // The command runs in the scope root; a missing root would otherwise look like a missing command.
  if (!(await stat(input.scope.root).catch(() => undefined))?.isDirectory()) throw new Error(`the scope root ${input.scope.root} is not a directory`);
  await workspace.write(HANDOFF_FILE, renderHandoff(input.task, input.scope, input.workerId, input.evidence, plan.termAt));
  await workspace.write(WORK_FILE, "");
  const argv = [...options.command.map((arg) => arg.replaceAll(MODEL_PLACEHOLDER, modelHintOf(input.task))), workspace.dir];
  const env = commandEnv(options, input, workspace.dir, plan);
  const outcome = await runCommand({ argv, cwd: input.scope.root, env, termAt: plan.termAt, killGraceMs: plan.killGraceMs, signal: input.signal });
  await workspace.write(EXEC_LOG_FILE, execLog(argv, outcome, Date.now() - started)).catch((error: unknown) => input.logger.warn({ err: error }, "could not write exec.log"));
  input.logger.info({ workspace: workspace.dir, outcome: outcome.kind, elapsed_ms: Date.now() - started }, "agent command finished");
  return resultOf(outcome, workspace, input, { command, plan, started });
}

async function execute(options: ExecOptions, input: ExecutorInput): Promise<ExecutorOutput> {
  const plan = planStop(Date.now(), input.deadline, options);
  if (plan === undefined) return failedOutput("DEADLINE_EXCEEDED", "the task's deadline passed before the agent could start");
  if (input.signal.aborted) return failedOutput("EXECUTOR_FAILED", "the task was cancelled before the agent started");
  let workspace: Workspace;
  try {
    workspace = await openWorkspace(options.workspaceRoot, input.task.id, plan.killAt);
  } catch (error) {
    input.logger.warn({ err: error, task: input.task.id }, "workspace refused");
    return workspaceFailure(error);
  }
  try {
    return await runInWorkspace(options, input, workspace, plan);
  } catch (error) {
    input.logger.warn({ err: error, workspace: workspace.dir }, "exec executor failed");
    return failedOutput("EXECUTOR_FAILED", error instanceof Error ? error.message : String(error));
  } finally {
    await workspace.release().catch((error: unknown) => input.logger.warn({ err: error }, "could not release the workspace lock"));
  }
}

/** An Executor running `command` once per task. Throws ExecutorConfigError for unusable options. */
export function createExecExecutor(input: ExecExecutorOptions): Executor {
  const options = parseOptions(input);
  const logger = input.logger.child({ component: "agents:exec" });
  logger.debug({ command: options.command, workspaceRoot: options.workspaceRoot }, "exec executor ready");
  return Object.freeze({
    name: `exec:${basename(options.command[0] ?? "")}`,
    execute: (task: ExecutorInput) => execute(options, task),
  });
}
