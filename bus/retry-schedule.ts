// The backoff between attempts of a request that failed retryably: p-retry's schedule, and what a busy
// peer asks for on top of it.
import { BusError, BusyError, NackError, PeerUnavailableError, RemoteError } from "./errors.js";

export const RETRY_MIN_BACKOFF_MS = 20;
export const RETRY_MAX_BACKOFF_MS = 1_000;
export const RETRY_BACKOFF_FACTOR = 2;

/** The wait a busy peer asked for in its NACK, capped (our own full send queue gives none). */
export function retryHintMs(error: Error): number {
  const hint = error instanceof BusyError || error instanceof NackError ? error.retryAfterMs : undefined;
  return Math.min(hint ?? 0, RETRY_MAX_BACKOFF_MS);
}

/** p-retry's randomized first backoff: between 1× and 2× the minimum. */
export function firstBackoffMs(): number {
  return Math.min(Math.round((1 + Math.random()) * RETRY_MIN_BACKOFF_MS), RETRY_MAX_BACKOFF_MS);
}


/** A failure another attempt may cure: not a missing peer, nor a handler's own error (it ran; its reply says so). */
export function isRetryable(error: Error): boolean {
  return error instanceof BusError && error.retryable && !(error instanceof PeerUnavailableError) && !(error instanceof RemoteError);
}

/** Raised inside one attempt when no answer came in the attempt's share of the deadline. */
export class AttemptTimeoutError extends BusError {
  override readonly name = "AttemptTimeoutError";
  readonly code = "attempt_timeout";
  readonly retryable = true;
}
