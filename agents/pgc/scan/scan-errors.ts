// Named errors of scope scanning: a path that leaves the scope, or a scope that cannot be scanned.

/** A requested path escapes the scope root (`..`, absolute, or a symlink whose target lies outside). */
export class ScopeViolationError extends Error {
  override readonly name = "ScopeViolationError";
  readonly code = "scope_violation";
  readonly retryable = false;
  readonly requested: string;

  constructor(requested: string, reason: string, options?: { cause?: unknown }) {
    super(`path ${JSON.stringify(requested)} is outside the scope: ${reason}`, options);
    this.requested = requested;
  }
}

/** The scope root or one of its scope paths does not exist or is not readable. */
export class ScopeNotFoundError extends Error {
  override readonly name = "ScopeNotFoundError";
  readonly code = "scope_not_found";
  readonly retryable = false;
  readonly path: string;

  constructor(path: string, options?: { cause?: unknown }) {
    super(`scope path ${JSON.stringify(path)} does not exist or cannot be read`, options);
    this.path = path;
  }
}
