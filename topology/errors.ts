// The closed set of errors topology/ throws. Path finding never throws for a missing route: it returns a result.
import type { ZodError } from "zod";

export type TopologyErrorCode =
  | "TOPOLOGY_INVALID_INPUT"
  | "TOPOLOGY_OVERRIDE_INVALID"
  | "TOPOLOGY_OVERRIDE_UNKNOWN_SCOPE";

interface TopologyErrorOptions {
  issues?: readonly string[];
  cause?: unknown;
}

/** Base of every topology error; nothing here is retryable, since the same input fails the same way. */
export abstract class TopologyError extends Error {
  abstract readonly code: TopologyErrorCode;
  readonly retryable = false;
  /** One line per problem found, e.g. `add[0].from: expected string`; the message summarises them. */
  readonly issues: readonly string[];

  constructor(message: string, options: TopologyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.issues = Object.freeze([...(options.issues ?? [])]);
  }
}

/** Bad arguments to a topology function: an empty scope name, a negative maxHops, malformed code facts. */
export class TopologyInputError extends TopologyError {
  override readonly name = "TopologyInputError";
  readonly code = "TOPOLOGY_INVALID_INPUT" as const;
}

/** An override file that cannot be read as JSON, breaks the schema, or names scopes the graph lacks. */
export class OverrideFileError extends TopologyError {
  override readonly name = "OverrideFileError";
  readonly code: "TOPOLOGY_OVERRIDE_INVALID" | "TOPOLOGY_OVERRIDE_UNKNOWN_SCOPE";
  /** Where the overrides came from (a file path or "<inline>"), so the message points at the file to fix. */
  readonly source: string;

  constructor(
    message: string,
    source: string,
    options: TopologyErrorOptions & { code?: OverrideFileError["code"] } = {},
  ) {
    super(message, options);
    this.source = source;
    this.code = options.code ?? "TOPOLOGY_OVERRIDE_INVALID";
  }
}

/** Turns zod issues into `path: message` lines, with paths written the way a JSON reader would (`add[0].from`). */
export function formatZodIssues(error: ZodError): string[] {
  return error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
}

function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text === "" ? "(root)" : text;
}

/** Builds a TopologyInputError whose message lists the first few issues, so logs show the cause at once. */
export function inputError(what: string, issues: readonly string[], cause?: unknown): TopologyInputError {
  return new TopologyInputError(`${what}: ${summarise(issues)}`, { issues, cause });
}

/** The first three issues joined, plus a count of the rest; long issue lists stay readable in one log line. */
export function summarise(issues: readonly string[]): string {
  const shown = issues.slice(0, 3).join("; ");
  const rest = issues.length - 3;
  return rest > 0 ? `${shown}; and ${rest} more` : shown;
}
