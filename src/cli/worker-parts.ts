// Choosing a worker's knowledge source and executor from its command-line options. The exec and
// external-ask adapters are loaded only when asked for, so a plain PGC worker starts without them.
import type { Logger } from "pino";
import type { Executor, ScopeInfo } from "../../agents/worker/executor.js";
import type { ScopeKnowledge } from "../../agents/worker/knowledge.js";
import { CliError, EXIT } from "./exit-codes.js";

/** Commands are given as one string and split on whitespace; use a wrapper script for anything fancier. */
export function splitCommand(command: string): string[] {
  const argv = command.trim().split(/\s+/).filter(Boolean);
  if (argv.length === 0) throw new CliError("an empty command was given", EXIT.usage);
  return argv;
}

export async function buildKnowledge(own: ScopeKnowledge, askCommand: string | undefined, scope: ScopeInfo): Promise<ScopeKnowledge> {
  if (askCommand === undefined) return own;
  const { externalKnowledge } = await import("../../agents/worker/external-ask/external-knowledge.js");
  return externalKnowledge(own, { command: splitCommand(askCommand), cwd: scope.root });
}

export async function buildExecutor(command: string, workspaceRoot: string, logger: Logger): Promise<Executor> {
  const argv = splitCommand(command);
  const { createExecExecutor } = await import("../../agents/worker/exec/exec-executor.js");
  return createExecExecutor({ command: argv, workspaceRoot, logger });
}
