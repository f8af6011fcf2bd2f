// The calling side of request/reply: correlation, absolute deadlines, CANCEL, and retries of
// retryable failures under one message id (so the receiver's reply cache suppresses re-execution).
import pRetry from "p-retry";
import type { Logger } from "pino";
import { BusyError, CancelledError, NackError, NodeStoppedError, PeerUnavailableError, RemoteError, TimeoutError, type BusError } from "./errors.js";
import { AttemptTimeoutError, firstBackoffMs, isRetryable, RETRY_BACKOFF_FACTOR, RETRY_MAX_BACKOFF_MS, RETRY_MIN_BACKOFF_MS, retryHintMs } from "./retry-schedule.js";
import type { EnvelopeOf } from "./wire/schema.js";

export { RETRY_MAX_BACKOFF_MS, RETRY_MIN_BACKOFF_MS } from "./retry-schedule.js";

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_ATTEMPTS = 3;
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

type Outcome = { ok: true; value: unknown } | { ok: false; error: Error };

/**
 * One request in flight. Its one timer wakes it at the earliest of its deadline, its attempt's end and its
 * next retransmission (a timer each cost a request three timers and their objects); the attempt in progress
 * is a promise whose settlers sit here, not a race of promises.
 */
interface Pending {
  readonly peerId: string;
  readonly messageId: string;
  readonly frame: Buffer;
  readonly deadline: number;
  /** The deadline as a duration from the request's start, for the TimeoutError's message. */
  readonly totalMs: number;
  attempted: boolean;
  /** Set once: the reply's result, or the error the request ends with. */
  outcome: Outcome | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The attempt in progress (NACK, attempt timeout); undefined between attempts. */
  resolveAttempt: ((value: unknown) => void) | undefined;
  rejectAttempt: ((error: Error) => void) | undefined;
  attemptMs: number;
  attemptEndsAt: number;
  resendAt: number;
  resendMs: number;
  /** Built only for the retry path, which races the outcome against p-retry's loop and its pauses. */
  outcomePromise: Promise<unknown> | undefined;
  settleOutcomePromise: ((outcome: Outcome) => void) | undefined;
}

function promiseOf(outcome: Outcome): Promise<unknown> {
  return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
}

export class Requester {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly deps: RequesterDeps) {}

  get inFlight(): number {
    return this.pending.size;
  }

  async request(outbound: OutboundRequest): Promise<unknown> {
    const entry = this.register(outbound);
    const attemptMs = Math.max(1, Math.floor(entry.totalMs / outbound.attempts));
    const signal = outbound.signal;
    const onAbort = () => this.settle(entry, { ok: false, error: new CancelledError(`request ${outbound.messageId} was cancelled by the caller`) });
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (signal?.aborted) onAbort();
      try {
        // The first attempt runs directly; p-retry (and its promise hops) only after a retryable failure.
        return await this.attempt(entry, attemptMs);
      } catch (error) {
        if (entry.outcome || outbound.attempts <= 1 || !isRetryable(error as Error)) throw error;
        return await this.retry(outbound, entry, attemptMs, error as Error);
      }
    } catch (error) {
      if (error instanceof TimeoutError || error instanceof CancelledError) this.deps.cancel(outbound.peerId, outbound.messageId);
      throw error;
    } finally {
      clearTimeout(entry.timer);
      signal?.removeEventListener("abort", onAbort);
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
      shouldRetry: ({ error }) => !entry.outcome && isRetryable(error),
      onFailedAttempt: async ({ error, retriesLeft }) => {
        if (retriesLeft <= 0 || entry.outcome || !isRetryable(error)) return;
        this.onRetry(outbound, error);
        await this.sleepUnlessSettled(retryHintMs(error), entry);
      },
    });
    retried.catch(() => undefined); // the race below may settle first; the loser must not go unhandled
    // The outcome settles at once on a reply, the deadline or a cancel, even during a backoff sleep.
    return Promise.race([retried, this.outcomeOf(entry)]);
  }

  /** A reply arrived: settle the request whatever attempt it answers. */
  onReply(envelope: EnvelopeOf<"reply">): boolean {
    const entry = envelope.corr === undefined ? undefined : this.pending.get(envelope.corr);
    if (!entry) return false;
    const body = envelope.body;
    if (body.error) this.settle(entry, { ok: false, error: new RemoteError(body.error.code, body.error.message, body.error.retryable, body.error.detail) });
    else this.settle(entry, { ok: true, value: body.result });
    return true;
  }

  /** A NACK arrived. Without a usable correlation id, every request to that peer is re-sent. */
  onNack(peerId: string, envelope: EnvelopeOf<"nack">): void {
    const { code, detail, retry_after_ms: retryAfterMs } = envelope.body;
    const entry = envelope.corr === undefined ? undefined : this.pending.get(envelope.corr);
    if (entry) {
      this.failAttempt(entry, code === "busy" ? new BusyError(detail, retryAfterMs) : new NackError(code, detail, retryAfterMs));
      return;
    }
    if (envelope.body.retryable) this.retransmitTo(peerId);
  }

  /** Whether a request to the peer waits for its answer. */
  waitingOn(peerId: string): boolean {
    for (const entry of this.pending.values()) if (entry.peerId === peerId && !entry.outcome) return true;
    return false;
  }

  /** Re-send every unanswered request to a peer (a frame from it was damaged; ours may have been too). */
  retransmitTo(peerId: string): void {
    for (const entry of this.pending.values()) {
      if (entry.peerId === peerId && !entry.outcome && entry.rejectAttempt) this.deps.transmit(peerId, entry.frame, false);
    }
  }

  /** Fail every request to a peer at once: it expired, left, or restarted under a new incarnation. */
  failPeer(peerId: string, error: BusError): void {
    for (const entry of this.pending.values()) if (entry.peerId === peerId) this.settle(entry, { ok: false, error });
  }

  failAll(reason: string): void {
    for (const entry of this.pending.values()) this.settle(entry, { ok: false, error: new NodeStoppedError(reason) });
  }

  private register(outbound: OutboundRequest): Pending {
    const entry: Pending = {
      peerId: outbound.peerId,
      messageId: outbound.messageId,
      frame: outbound.frame,
      deadline: outbound.deadline,
      totalMs: Math.max(1, outbound.deadline - Date.now()),
      attempted: false,
      outcome: undefined,
      timer: undefined,
      resolveAttempt: undefined,
      rejectAttempt: undefined,
      attemptMs: 0,
      attemptEndsAt: Number.POSITIVE_INFINITY,
      resendAt: Number.POSITIVE_INFINITY,
      resendMs: RETRANSMIT_FIRST_MS,
      outcomePromise: undefined,
      settleOutcomePromise: undefined,
    };
    this.pending.set(outbound.messageId, entry);
    return entry;
  }

  /** The request's end: the attempt in progress and the retry path's race hear it; later calls are ignored. */
  private settle(entry: Pending, outcome: Outcome): void {
    if (entry.outcome) return;
    entry.outcome = outcome;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    const resolve = entry.resolveAttempt;
    const reject = entry.rejectAttempt;
    entry.resolveAttempt = entry.rejectAttempt = undefined;
    if (outcome.ok) resolve?.(outcome.value);
    else reject?.(outcome.error);
    entry.settleOutcomePromise?.(outcome);
  }

  /** The attempt in progress ends without the request (a NACK, its timeout); the request may be retried. */
  private failAttempt(entry: Pending, error: Error): void {
    const reject = entry.rejectAttempt;
    if (!reject) return;
    entry.resolveAttempt = entry.rejectAttempt = undefined;
    entry.attemptEndsAt = entry.resendAt = Number.POSITIVE_INFINITY;
    this.arm(entry);
    reject(error);
  }

  private outcomeOf(entry: Pending): Promise<unknown> {
    if (entry.outcome) return promiseOf(entry.outcome);
    if (!entry.outcomePromise) {
      entry.outcomePromise = new Promise((resolve, reject) => {
        entry.settleOutcomePromise = (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error));
      });
      entry.outcomePromise.catch(() => undefined); // observed through request(); never an unhandled rejection
    }
    return entry.outcomePromise;
  }

  private attempt(entry: Pending, attemptMs: number): Promise<unknown> {
    if (entry.outcome) return promiseOf(entry.outcome);
    const sent = this.deps.transmit(entry.peerId, entry.frame, !entry.attempted);
    entry.attempted = true;
    if (sent === "no_route") throw new PeerUnavailableError(`no route to ${entry.peerId}: it is not a known peer`, true);
    if (sent === "busy") throw new BusyError(`send queue to ${entry.peerId} is full`);
    return new Promise((resolve, reject) => {
      const now = Date.now();
      entry.resolveAttempt = resolve;
      entry.rejectAttempt = reject;
      entry.attemptMs = attemptMs;
      entry.attemptEndsAt = now + attemptMs;
      entry.resendMs = RETRANSMIT_FIRST_MS;
      entry.resendAt = attemptMs > RETRANSMIT_FIRST_MS ? now + RETRANSMIT_FIRST_MS : Number.POSITIVE_INFINITY;
      this.arm(entry);
    });
  }

  /** (Re)start the request's one timer for the earliest of its deadline, attempt end and retransmission. */
  private arm(entry: Pending): void {
    clearTimeout(entry.timer);
    const next = Math.min(entry.deadline, entry.attemptEndsAt, entry.resendAt);
    entry.timer = setTimeout(this.onTimer, Math.max(1, next - Date.now()), entry);
  }

  /** The timer fired: whatever is due happens (a timer may fire a millisecond early: then it waits on). */
  private readonly onTimer = (entry: Pending): void => {
    entry.timer = undefined;
    if (entry.outcome) return;
    const now = Date.now();
    if (now >= entry.deadline) {
      // The error is built only when the deadline fires: a stack per request is the hot path's biggest cost.
      const error = new TimeoutError(`no reply from ${entry.peerId} to request ${entry.messageId} before the deadline (${entry.totalMs} ms)`);
      return this.settle(entry, { ok: false, error });
    }
    if (entry.rejectAttempt && now >= entry.attemptEndsAt) {
      return this.failAttempt(entry, new AttemptTimeoutError(`no answer from ${entry.peerId} within ${entry.attemptMs} ms`));
    }
    if (entry.rejectAttempt && now >= entry.resendAt) {
      this.deps.transmit(entry.peerId, entry.frame, false);
      this.deps.countRetransmit?.();
      entry.resendMs = Math.min(entry.resendMs * 2, RETRANSMIT_MAX_MS);
      entry.resendAt = now + entry.resendMs;
    }
    this.arm(entry);
  };

  private onRetry(outbound: OutboundRequest, error: Error): void {
    this.deps.countRetry();
    this.deps.logger.debug({ messageId: outbound.messageId, peer: outbound.peerId, err: error }, "retrying request");
  }

  /** A pause between attempts that ends at once when the request settles (reply, deadline, cancel). */
  private async sleepUnlessSettled(ms: number, entry: Pending): Promise<void> {
    if (ms <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), this.outcomeOf(entry).catch(() => undefined)]);
    clearTimeout(timer);
  }
}

