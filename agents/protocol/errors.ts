// The protocol's local errors: named, with a stable `code` and a `retryable` flag (house style §4).
// Errors that cross the wire inside a TaskResponse are TaskError (see error-codes.ts).
import { truncateText } from "./text.js";

/** One reason a message failed its schema; `path` is dotted, e.g. "grounding_evidence.citations[3].content". */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

/** Issues shown in the message; up to MAX_KEPT_ISSUES stay on `issues`. */
const ISSUES_IN_MESSAGE = 5;
/** Issues kept on the error, so a hostile message cannot make the error itself huge. */
export const MAX_KEPT_ISSUES = 50;
/** Longest issue path or message kept; key names in "Unrecognized key" come from the sender. */
const ISSUE_MESSAGE_CHARS = 200;

/** A message (task, response, ask result, manifest entry) does not match its schema or limits. */
export class ProtocolSchemaError extends Error {
  override readonly name = "ProtocolSchemaError";
  readonly code = "schema_invalid";
  // Sending the same bytes again cannot make them valid.
  readonly retryable = false;

  readonly issues: readonly SchemaIssue[];
  /** All issues found, including those not kept on `issues`. */
  readonly issueCount: number;

  constructor(
    readonly schema: string,
    issues: readonly SchemaIssue[],
    options?: ErrorOptions,
  ) {
    const kept = issues.slice(0, MAX_KEPT_ISSUES).map((issue) => ({
      path: truncateText(issue.path, ISSUE_MESSAGE_CHARS),
      message: truncateText(issue.message, ISSUE_MESSAGE_CHARS),
    }));
    super(describeIssues(schema, kept, issues.length), options);
    this.issues = kept;
    this.issueCount = issues.length;
  }
}

function describeIssues(schema: string, issues: readonly SchemaIssue[], total: number): string {
  const shown = issues.slice(0, ISSUES_IN_MESSAGE).map((issue) => `${issue.path}: ${issue.message}`);
  const more = total > ISSUES_IN_MESSAGE ? ` (and ${total - ISSUES_IN_MESSAGE} more)` : "";
  return `Invalid ${schema}: ${shown.join("; ")}${more}`;
}

/** A citation names lines that the file does not have. */
export class CitationRangeError extends Error {
  override readonly name = "CitationRangeError";
  readonly code = "citation_range";
  readonly retryable = false;

  constructor(
    readonly lineStart: number,
    readonly lineEnd: number,
    readonly lineCount: number,
  ) {
    super(`lines ${lineStart}-${lineEnd} are out of range: the file has ${lineCount} line(s) (1-based, inclusive)`);
  }
}

/** Delegating further would exceed MAX_DELEGATION_DEPTH. */
export class DelegationDepthError extends Error {
  override readonly name = "DelegationDepthError";
  readonly code = "delegation_depth_exceeded";
  readonly retryable = false;

  constructor(
    readonly depth: number,
    readonly maxDepth: number,
  ) {
    super(`an agent at delegation depth ${depth} may not delegate (max depth ${maxDepth}); work inline`);
  }
}

/** The agent about to delegate already appears in the task's delegation chain. */
export class DelegationCycleError extends Error {
  override readonly name = "DelegationCycleError";
  readonly code = "delegation_cycle";
  readonly retryable = false;

  constructor(
    readonly agentId: string,
    readonly chain: readonly string[],
  ) {
    super(`delegation cycle: ${agentId} already in chain ${[...chain, agentId].join(" -> ")}`);
  }
}
