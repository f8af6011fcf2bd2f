// Argument parsing shared by every command: node's parseArgs, with errors turned into usage errors.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { LOG_LEVELS, type LogLevel } from "../logging.js";
import { CliError, EXIT } from "./exit-codes.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  "log-level": { type: "string" },
} as const satisfies OptionSpec;

export function parse<T extends OptionSpec>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals, strict: true });
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage, "run the command with --help for its options");
  }
}

export function logLevelOf(value: string | undefined, fallback: LogLevel): LogLevel {
  if (value === undefined) return fallback;
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new CliError(`--log-level must be one of ${LOG_LEVELS.join(", ")}`, EXIT.usage);
}

export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`--${name} must be a positive integer (got "${value}")`, EXIT.usage);
  return n;
}

/** Like positiveInt, for an option whose absence means "decide for me". */
export function optionalPositiveInt(name: string, value: string | undefined): number | undefined {
  return value === undefined ? undefined : positiveInt(name, value, 0);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
