// Choosing a worker's knowledge source and executor from its command-line options.
import type { Logger } from "pino";
import type { Executor, ScopeInfo } from "../../agents/worker/executor.js";
import type { ScopeKnowledge } from "../../agents/worker/knowledge.js";
import { createExecExecutor } from "../../agents/worker/exec/exec-executor.js";
import { externalKnowledge } from "../../agents/worker/external-ask/external-knowledge.js";
import { CliError, EXIT } from "./exit-codes.js";

/** Commands are given as one string and split on whitespace; use a wrapper script for anything fancier. */
export function splitCommand(command: string): string[] {
  const argv = command.trim().split(/\s+/).filter(Boolean);
  if (argv.length === 0) throw new CliError("an empty command was given", EXIT.usage);
  return argv;
}

export function buildKnowledge(own: ScopeKnowledge, askCommand: string | undefined, scope: ScopeInfo): ScopeKnowledge {
  return askCommand === undefined ? own : externalKnowledge(own, { command: splitCommand(askCommand), cwd: scope.root });
}

export function buildExecutor(command: string, workspaceRoot: string, logger: Logger): Executor {
  return createExecExecutor({ command: splitCommand(command), workspaceRoot, logger });
}
