// The pluggable part of a worker: what turns a DelegatedTask plus the PGC's evidence into a result.
// The built-in executor answers from the PGC; the exec adapter wraps any agent CLI.
import type { Logger } from "pino";
import type { Citation, ClarificationRequest, DelegatedTask, TaskErrorBody, TaskStatus } from "../protocol/index.js";

export interface ScopeInfo {
  /** Scope name, e.g. "drivers". */
  name: string;
  /** Absolute path of the root directory the scope's paths are relative to. */
  root: string;
  /** Path prefixes (relative to root) the scope owns; empty means the whole root. */
  paths: readonly string[];
}

export interface ExecutorInput {
  task: DelegatedTask;
  scope: ScopeInfo;
  workerId: string;
  /** Evidence the worker gathered from its PGC before execution (empty for strategy "none"). */
  evidence: readonly Citation[];
  /** Absolute deadline, epoch ms; the executor must return (or fail) before it. */
  deadline: number;
  signal: AbortSignal;
  logger: Logger;
}

export interface ExecutorOutput {
  status: TaskStatus;
  result: string;
  key_findings?: string[];
  clarification_request?: ClarificationRequest;
  error?: TaskErrorBody;
  /** Files the executor says it relied on (relative to the root); the worker cites them if it can. */
  referenced_files?: string[];
}

export interface Executor {
  readonly name: string;
  execute(input: ExecutorInput): Promise<ExecutorOutput>;
}
