// Options of an executor or an external ask adapter that cannot work; thrown at construction only.

export class ExecutorConfigError extends Error {
  override readonly name = "ExecutorConfigError";
  readonly code = "config_invalid";
  // The same options fail the same way.
  readonly retryable = false;
}

/** Issues of a failed zod parse as one line: "command: ...; workspaceRoot: ...". */
export function describeIssues(what: string, issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  return `invalid ${what} options: ${issues.map((issue) => `${issue.path.map(String).join(".") || "options"}: ${issue.message}`).join("; ")}`;
}
