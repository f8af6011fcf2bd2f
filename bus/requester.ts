// The calling side of request/reply: correlation, absolute deadlines, CANCEL, and retries of
// retryable failures under one message id (so the receiver's reply cache suppresses re-execution).
import pRetry from "p-retry";
import type { Logger } from "pino";
import { BusError, BusyError, CancelledError, NackError, NodeStoppedError, PeerUnavailableError, RemoteError, TimeoutError } from "./errors.js";
import type { Envelope, EnvelopeOf } from "./wire/schema.js";

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_ATTEMPTS = 3;
export const RETRY_MIN_BACKOFF_MS = 20;
export const RETRY_MAX_BACKOFF_MS = 1_000;
const RETRY_BACKOFF_FACTOR = 2;
/**
 * An unanswered request is sent again, under its id, this long after it went out, then at twice the
 * interval each time up to RETRANSMIT_MAX_MS, within each attempt: a frame lost on the way (a CURVE frame
 * a corrupted segment made undecryptable is dropped without closing the connection) or a reply lost is
 * recovered in seconds, not at the attempt's end — which for a task of ten minutes is minutes away. The
 * peer's reply cache makes a re-send harmless: a running request ignores it, a finished one answers it
 * again from the cache, and only a request the peer never received runs.
 */
export const RETRANSMIT_FIRST_MS = 1_000;
export const RETRANSMIT_MAX_MS = 8_000;

/** The wait a busy peer asked for in its NACK, capped (our own full send queue gives none). */
function retryHintMs(error: Error): number {
  const hint = error instanceof BusyError || error instanceof NackError ? error.retryAfterMs : undefined;
  return Math.min(hint ?? 0, RETRY_MAX_BACKOFF_MS);
}

/** p-retry's randomized first backoff: between 1× and 2× the minimum. */
function firstBackoffMs(): number {
  return Math.min(Math.round((1 + Math.random()) * RETRY_MIN_BACKOFF_MS), RETRY_MAX_BACKOFF_MS);
}

export type TransmitResult = "sent" | "busy" | "no_route";

export interface RequesterDeps {
  /** Send a frame to a peer over its link; `first` is false for re-sends of a request already delivered once. */
  transmit: (peerId: string, frame: Buffer, first: boolean) => TransmitResult;
  /** Best-effort CANCEL of a request the caller gave up on. */
  cancel: (peerId: string, messageId: string) => void;
  logger: Logger;
  countRetry: () => void;
  /** Counts an unanswered request sent again within its attempt (RETRANSMIT_FIRST_MS). */
  countRetransmit?: () => void;
}

export interface OutboundRequest {
  peerId: string;
  messageId: string;
  frame: Buffer;
  deadline: number;
  attempts: number;
  signal?: AbortSignal;
}

/** Raised inside one attempt when no answer came in the attempt's share of the deadline. */
class AttemptTimeoutError extends BusError {
  override readonly name = "AttemptTimeoutError";
  readonly code = "attempt_timeout";
  readonly retryable = true;
}

interface Pending {
  peerId: string;
  frame: Buffer;
  settled: boolean;
  attempted: boolean;
  resolveOutcome: (value: unknown) => void;
  rejectOutcome: (error: Error) => void;
  outcome: Promise<unknown>;
  /** Fails the attempt in progress (NACK, attempt timeout); undefined between attempts. */
  failAttempt?: (error: Error) => void;
}

function isRetryable(error: Error): boolean {
  return error instanceof BusError && error.retryable && !(error instanceof PeerUnavailableError) && !(error instanceof RemoteError);
}

export class Requester {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly deps: RequesterDeps) {}

  get inFlight(): number {
    return this.pending.size;
  }

  async request(outbound: OutboundRequest): Promise<unknown> {
    const entry = this.register(outbound);
    const totalMs = Math.max(1, outbound.deadline - Date.now());
    const attemptMs = Math.max(1, Math.floor(totalMs / outbound.attempts));
    const onAbort = () => entry.rejectOutcome(new CancelledError(`request ${outbound.messageId} was cancelled by the caller`));
    outbound.signal?.addEventListener("abort", onAbort, { once: true });
    // The error is built only when the deadline fires: a stack per request is the hot path's biggest cost.
    const deadlineTimer = setTimeout(
      () => entry.rejectOutcome(new TimeoutError(`no reply from ${outbound.peerId} to request ${outbound.messageId} before the deadline (${totalMs} ms)`)),
      totalMs,
    );
    try {
      if (outbound.signal?.aborted) onAbort();
      try {
        // The first attempt runs directly; p-retry (and its promise hops) only after a retryable failure.
        return await this.attempt(entry, attemptMs);
      } catch (error) {
        if (entry.settled || outbound.attempts <= 1 || !isRetryable(error as Error)) throw error;
        return await this.retry(outbound, entry, attemptMs, error as Error);
      }
    } catch (error) {
      if (error instanceof TimeoutError || error instanceof CancelledError) this.deps.cancel(outbound.peerId, outbound.messageId);
      throw error;
    } finally {
      clearTimeout(deadlineTimer);
      outbound.signal?.removeEventListener("abort", onAbort);
      this.pending.delete(outbound.messageId);
    }
  }

  /** Attempts 2…n after a retryable failure of the first, with p-retry's backoff schedule. */
  private async retry(outbound: OutboundRequest, entry: Pending, attemptMs: number, firstError: Error): Promise<unknown> {
    this.onRetry(outbound, firstError);
    // A busy peer's retry-after first, then the backoff p-retry would have slept before its first retry.
    await this.sleepUnlessSettled(retryHintMs(firstError) + firstBackoffMs(), entry);
    const retried = pRetry(() => this.attempt(entry, attemptMs), {
      retries: outbound.attempts - 2,
      factor: RETRY_BACKOFF_FACTOR,
      // The schedule continues at its second step, as if p-retry had run the first attempt too.
      minTimeout: RETRY_MIN_BACKOFF_MS * RETRY_BACKOFF_FACTOR,
      maxTimeout: RETRY_MAX_BACKOFF_MS,
      randomize: true,
      maxRetryTime: Math.max(1, outbound.deadline - Date.now()),
      shouldRetry: ({ error }) => !entry.settled && isRetryable(error),
      onFailedAttempt: async ({ error, retriesLeft }) => {
        if (retriesLeft <= 0 || entry.settled || !isRetryable(error)) return;
        this.onRetry(outbound, error);
        await this.sleepUnlessSettled(retryHintMs(error), entry);
      },
    });
    retried.catch(() => undefined); // the race below may settle first; the loser must not go unhandled
    // The outcome settles at once on a reply, the deadline or a cancel, even during a backoff sleep.
    return Promise.race([retried, entry.outcome]);
  }

  /** A reply arrived: settle the request whatever attempt it answers. */
  onReply(envelope: EnvelopeOf<"reply">): boolean {
    const entry = envelope.corr === undefined ? undefined : this.pending.get(envelope.corr);
    if (!entry) return false;
    const body = envelope.body;
    if (body.error) entry.rejectOutcome(new RemoteError(body.error.code, body.error.message, body.error.retryable, body.error.detail));
    else entry.resolveOutcome(body.result);
    return true;
  }

  /** A NACK arrived. Without a usable correlation id, every request to that peer is re-sent. */
  onNack(peerId: string, envelope: EnvelopeOf<"nack">): void {
    const { code, detail, retry_after_ms: retryAfterMs } = envelope.body;
    const entry = envelope.corr === undefined ? undefined : this.pending.get(envelope.corr);
    if (entry) {
      entry.failAttempt?.(code === "busy" ? new BusyError(detail, retryAfterMs) : new NackError(code, detail, retryAfterMs));
      return;
    }
    if (envelope.body.retryable) this.retransmitTo(peerId);
  }

  /** Whether a request to the peer waits for its answer. */
  waitingOn(peerId: string): boolean {
    for (const entry of this.pending.values()) if (entry.peerId === peerId && !entry.settled) return true;
    return false;
  }

  /** Re-send every unanswered request to a peer (a frame from it was damaged; ours may have been too). */
  retransmitTo(peerId: string): void {
    for (const entry of this.pending.values()) {
      if (entry.peerId === peerId && !entry.settled && entry.failAttempt) this.deps.transmit(peerId, entry.frame, false);
    }
  }

  /** Fail every request to a peer at once: it expired, left, or restarted under a new incarnation. */
  failPeer(peerId: string, error: BusError): void {
    for (const entry of this.pending.values()) if (entry.peerId === peerId) entry.rejectOutcome(error);
  }

  failAll(reason: string): void {
    for (const entry of this.pending.values()) entry.rejectOutcome(new NodeStoppedError(reason));
  }

  private register(outbound: OutboundRequest): Pending {
    let resolveOutcome!: (value: unknown) => void;
    let rejectOutcome!: (error: Error) => void;
    const outcome = new Promise<unknown>((resolve, reject) => {
      resolveOutcome = resolve;
      rejectOutcome = reject;
    });
    outcome.catch(() => undefined); // observed through attempt(); never an unhandled rejection
    const entry: Pending = {
      peerId: outbound.peerId,
      frame: outbound.frame,
      settled: false,
      attempted: false,
      outcome,
      resolveOutcome: (value) => {
        entry.settled = true;
        resolveOutcome(value);
      },
      rejectOutcome: (error) => {
        entry.settled = true;
        rejectOutcome(error);
      },
    };
    this.pending.set(outbound.messageId, entry);
    return entry;
  }

  private attempt(entry: Pending, attemptMs: number): Promise<unknown> {
    if (entry.settled) return entry.outcome;
    const sent = this.deps.transmit(entry.peerId, entry.frame, !entry.attempted);
    entry.attempted = true;
    if (sent === "no_route") throw new PeerUnavailableError(`no route to ${entry.peerId}: it is not a known peer`, true);
    if (sent === "busy") throw new BusyError(`send queue to ${entry.peerId} is full`);
    let timer: NodeJS.Timeout | undefined;
    let resend: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      entry.failAttempt = reject;
      timer = setTimeout(() => reject(new AttemptTimeoutError(`no answer from ${entry.peerId} within ${attemptMs} ms`)), attemptMs);
    });
    const retransmit = (interval: number) => {
      resend = setTimeout(() => {
        if (entry.settled) return;
        this.deps.transmit(entry.peerId, entry.frame, false);
        this.deps.countRetransmit?.();
        retransmit(Math.min(interval * 2, RETRANSMIT_MAX_MS));
      }, interval);
      resend.unref?.();
    };
    if (attemptMs > RETRANSMIT_FIRST_MS) retransmit(RETRANSMIT_FIRST_MS);
    return Promise.race([entry.outcome, failed]).finally(() => {
      clearTimeout(timer);
      clearTimeout(resend);
      entry.failAttempt = undefined;
    });
  }

  private onRetry(outbound: OutboundRequest, error: Error): void {
    this.deps.countRetry();
    this.deps.logger.debug({ messageId: outbound.messageId, peer: outbound.peerId, err: error }, "retrying request");
  }

  /** A pause between attempts that ends at once when the request settles (reply, deadline, cancel). */
  private async sleepUnlessSettled(ms: number, entry: Pending): Promise<void> {
    if (ms <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), entry.outcome.catch(() => undefined)]);
    clearTimeout(timer);
  }
}

export type { Envelope };
