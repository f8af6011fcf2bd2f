// The external ask adapter: runs an `ask --json`-style command (e.g. cognition-cli's `ask "Q" --json`)
// without a shell, bounded by a timeout that kills its process group, and parses what it prints as the
// protocol's AskResult. Every failure is an ExternalAskError with the protocol's code and retryable flag.
import type { Logger } from "pino";
import { z } from "zod";
import { parseAskResult, ProtocolSchemaError, type AskResult } from "../../protocol/index.js";
import { lastLines, spawnMessage } from "../exec/exec-outcome.js";
import { describeIssues, ExecutorConfigError } from "../exec/executor-config-error.js";
import { runCommand, type RunOutcome } from "../exec/run-command.js";
import { planStop } from "../exec/stop-plan.js";
import { askArgv, DEFAULT_ASK_ARGS, type AskArgTemplates } from "./ask-argv.js";
import { ExternalAskError } from "./external-ask-error.js";
import { markExternal } from "./external-sources.js";

export const DEFAULT_EXTERNAL_ASK_TIMEOUT_MS = 30_000;
/** SIGTERM comes this long before the timeout (at most a fifth of it), SIGKILL at the timeout. */
export const ASK_KILL_GRACE_MS = 500;
/** Most stdout read: a valid AskResult (100 sources of at most 64 KiB) fits with room for JSON escapes. */
export const MAX_ASK_OUTPUT_BYTES = 16 * 1024 * 1024;

const templateList = z.array(z.string()).readonly();
const optionsSchema = z.object({
  /** argv before the arguments, e.g. ["cognition-cli", "ask"]. */
  command: z.array(z.string().min(1)).min(1, "must name a command"),
  cwd: z.string().min(1),
  timeoutMs: z.number().int().positive().default(DEFAULT_EXTERNAL_ASK_TIMEOUT_MS),
  /** The command's environment instead of the worker's (as child_process.spawn's `env`). */
  env: z.record(z.string(), z.string().optional()).optional(),
  /** Argument templates; absent parts are cognition-cli's (DEFAULT_ASK_ARGS). */
  args: z
    .object({
      question: templateList.refine((list) => list.some((arg) => arg.includes("{question}")), "must pass {question}"),
      overlays: templateList,
      topK: templateList,
    })
    .partial()
    .optional(),
  maxOutputBytes: z.number().int().positive().default(MAX_ASK_OUTPUT_BYTES),
});

export type ExternalAskOptions = z.input<typeof optionsSchema> & { logger: Logger };

export interface AskCallOptions {
  overlays?: readonly string[];
  topK?: number;
  signal?: AbortSignal;
}

export interface ExternalAsk {
  /** The tool's answer with every source marked similarity_kind "external". Rejects with ExternalAskError. */
  ask(question: string, options?: AskCallOptions): Promise<AskResult>;
}

interface AskSetup {
  command: readonly string[];
  cwd: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv | undefined;
  templates: AskArgTemplates;
  maxOutputBytes: number;
}

function failureOf(outcome: RunOutcome, setup: AskSetup): ExternalAskError | undefined {
  const name = setup.command[0] ?? "ask";
  switch (outcome.kind) {
    case "spawn_failed":
      return new ExternalAskError("PGC_QUERY_FAILED", "not_started", spawnMessage(outcome.errno, name, outcome.message));
    case "timed_out":
      return new ExternalAskError("PGC_TIMEOUT", "timeout", `${name} did not answer within ${setup.timeoutMs} ms and was stopped`);
    case "aborted":
      return new ExternalAskError("PGC_QUERY_FAILED", "cancelled", `${name} was stopped: the query was cancelled`);
    case "overflow":
      return new ExternalAskError("PGC_QUERY_FAILED", "too_large", `${name} printed more than ${setup.maxOutputBytes} bytes`);
    case "exited": {
      if (outcome.code === 0 && outcome.signal === null) return undefined;
      const ending = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code ?? "unknown"}`;
      const stderr = lastLines(outcome.output.stderr);
      return new ExternalAskError("PGC_QUERY_FAILED", "exit_status", `${name} ${ending}${stderr ? `; last stderr lines:\n${stderr}` : ""}`);
    }
    default:
      return outcome satisfies never;
  }
}

/** The JSON a tool printed: all of stdout, or, when it printed progress lines first, from the first line opening an object. */
function jsonOf(stdout: string, name: string): unknown {
  const text = stdout.trim();
  const start = text.search(/^\{/m);
  for (const candidate of new Set([text, start > 0 ? text.slice(start) : text])) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next candidate
    }
  }
  const shown = text.length > 0 ? `: ${JSON.stringify(text.slice(0, 120))}` : " (it printed nothing)";
  throw new ExternalAskError("PGC_QUERY_FAILED", "not_json", `${name} did not print JSON${shown}`);
}

function resultOf(stdout: string, name: string): AskResult {
  const value = jsonOf(stdout, name);
  try {
    return parseAskResult(value);
  } catch (error) {
    if (!(error instanceof ProtocolSchemaError)) throw error;
    throw new ExternalAskError("PGC_QUERY_FAILED", "schema", `${name} printed JSON that is not an ask result: ${error.message}`, { cause: error });
  }
}

async function ask(setup: AskSetup, logger: Logger, question: string, options: AskCallOptions): Promise<AskResult> {
  const argv = askArgv(setup.command, setup.templates, { question, ...(options.overlays ? { overlays: options.overlays } : {}), ...(options.topK === undefined ? {} : { topK: options.topK }) });
  const started = Date.now();
  const plan = planStop(started, started + setup.timeoutMs, { killGraceMs: ASK_KILL_GRACE_MS, replyMarginMs: 0 }) ?? { termAt: started, killGraceMs: 0 };
  const env = setup.env ?? process.env;
  const outcome = await runCommand({ argv, cwd: setup.cwd, env, termAt: plan.termAt, killGraceMs: plan.killGraceMs, stdoutLimitBytes: setup.maxOutputBytes, ...(options.signal ? { signal: options.signal } : {}) });
  const failure = failureOf(outcome, setup);
  if (failure) {
    logger.warn({ failure: failure.failure, code: failure.code, elapsed_ms: Date.now() - started }, failure.message);
    throw failure;
  }
  const result = resultOf(outcome.kind === "exited" ? outcome.output.stdout : "", setup.command[0] ?? "ask");
  logger.debug({ sources: result.sources.length, elapsed_ms: Date.now() - started }, "external ask answered");
  return markExternal(result);
}

/** An adapter for one external ask command. Throws ExecutorConfigError for unusable options. */
export function createExternalAsk(input: ExternalAskOptions): ExternalAsk {
  const { logger: parentLogger, ...rest } = input;
  const parsed = optionsSchema.safeParse(rest);
  if (!parsed.success) throw new ExecutorConfigError(describeIssues("external ask", parsed.error.issues));
  const { command, cwd, timeoutMs, env, args, maxOutputBytes } = parsed.data;
  const setup: AskSetup = Object.freeze({ command: Object.freeze([...command]), cwd, timeoutMs, env, templates: Object.freeze({ ...DEFAULT_ASK_ARGS, ...args }), maxOutputBytes });
  const logger = parentLogger.child({ component: "agents:external-ask", command: command[0] });
  return Object.freeze({ ask: (question: string, options: AskCallOptions = {}) => ask(setup, logger, question, options) });
}
