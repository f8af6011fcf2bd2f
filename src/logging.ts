// Structured logs (pino) to stderr, so stdout stays free for results and JSON lines.
import pino, { type Logger } from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = "warn";

export function createLogger(level: LogLevel = DEFAULT_LOG_LEVEL, name = "mesh"): Logger {
  return pino({ name, level, base: { pid: process.pid } }, pino.destination({ fd: 2, sync: true }));
}
