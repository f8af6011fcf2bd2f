// Choosing a worker's knowledge source and executor from its command-line options.
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

export async function buildKnowledge(own: ScopeKnowledge, askCommand: string | undefined, _scope: ScopeInfo, _logger: Logger): Promise<ScopeKnowledge> {
  if (askCommand === undefined) return own;
  splitCommand(askCommand);
  throw new CliError("--ask-cmd is not available yet in this build", EXIT.usage);
}

export function buildExecutor(command: string, _workspace: string, _logger: Logger): Executor {
  splitCommand(command);
  throw new CliError("--exec is not available yet in this build", EXIT.usage);
}
