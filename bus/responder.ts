// The serving side of request/reply: wire guards (deadline, cycle, hop budget), de-duplication through
// the reply cache, the bulkhead, and handler execution with an AbortSignal.
import type { Logger } from "pino";
import type { Bulkhead } from "./bulkhead.js";
import type { ReplyCache } from "./reply-cache.js";
import { RequestAbort } from "./request-abort.js";
import { DEFAULT_MAX_HOPS, HandlerContext, type RequestContext } from "./request-context.js";
import type { NackCode } from "./wire/nack-codes.js";
import type { BodyOf, EnvelopeOf } from "./wire/schema.js";

export type Handler = (args: unknown, context: RequestContext) => unknown;

/** What an authorizer sees of a request: its op and arguments, and who sent it. */
export interface AuthorizeRequest {
  op: string;
  args: unknown;
  from: string;
  /** The sender's CURVE public key, when the node could establish it (RequestContext.principal). */
  principal: string | undefined;
}

/** Decides whether a request may run: undefined to serve it, or why not (a NACK `unauthorized`). */
export type Authorizer = (request: AuthorizeRequest) => string | undefined;

/** Suggested wait in a `busy` NACK: long enough for a handler slot to free up, short enough to stay responsive. */
export const BUSY_RETRY_AFTER_MS = 50;
/** Deadline of a request that carries none (clients should always send one). */
export const DEFAULT_HANDLER_DEADLINE_MS = 60_000;

export interface ResponderDeps {
  selfId: string;
  handlers: ReadonlyMap<string, Handler>;
  /** How long an op's finished replies are kept at least (HandleOptions.retainReplyMs). */
  retainReplyMs: (op: string) => number;
  bulkhead: Bulkhead;
  cache: ReplyCache;
  isStopping: () => boolean;
  /** Send a reply body back to the requester over the connection the request came on. */
  reply: (to: Buffer, request: EnvelopeOf<"request">, body: BodyOf<"reply">) => Buffer | undefined;
  /** Re-send an already encoded reply (a duplicate of a finished request). */
  resend: (to: Buffer, frame: Buffer) => void;
  nack: (to: Buffer, code: NackCode, detail: string, corr: string, retryAfterMs?: number) => void;
  logger: Logger;
  count: (event: "duplicate" | "busy" | "handled" | "handler_error" | "unauthorized") => void;
  /** Who sent a request (a secured node: its key), or why its claim of a key is refused. */
  identify: (to: Buffer, request: EnvelopeOf<"request">) => { principal?: string | undefined; refused?: string };
  authorizer: () => Authorizer | undefined;
}

/** An error a handler may throw to choose the code and retryability the caller sees. */
export interface WireError {
  code?: unknown;
  retryable?: unknown;
  detail?: unknown;
  message?: unknown;
}

function toWireError(error: unknown): { code: string; message: string; retryable: boolean; detail?: unknown } {
  const e = (typeof error === "object" && error !== null ? error : {}) as WireError;
  const message = typeof e.message === "string" ? e.message : String(error);
  return {
    code: typeof e.code === "string" ? e.code : "handler_error",
    message: message.slice(0, 4000),
    retryable: e.retryable === true,
    ...(e.detail === undefined ? {} : { detail: e.detail }),
  };
}

export class Responder {
  /** Abort state of running or queued requests, by sender and message id, for CANCEL and stop. */
  private readonly running = new Map<string, RequestAbort>();

  constructor(private readonly deps: ResponderDeps) {}

  onRequest(to: Buffer, envelope: EnvelopeOf<"request">): void {
    const refusal = this.guard(envelope);
    if (refusal) return this.deps.nack(to, refusal.code, refusal.detail, envelope.id);
    const who = this.deps.identify(to, envelope);
    const denied = who.refused ?? this.authorize(envelope, who.principal);
    if (denied !== undefined) {
      this.deps.count("unauthorized");
      return this.deps.nack(to, "unauthorized", denied, envelope.id);
    }
    const lookup = this.deps.cache.begin(envelope.from, envelope.id, envelope.deadline);
    if (lookup.state !== "new") {
      this.deps.count("duplicate");
      if (lookup.state === "done") this.deps.resend(to, lookup.reply);
      return; // still running: its reply will answer the duplicate too
    }
    const handler = this.deps.handlers.get(envelope.body.op);
    if (!handler) {
      this.deps.cache.forget(envelope.from, envelope.id);
      return this.deps.nack(to, "unknown_op", `no handler for op "${envelope.body.op}"`, envelope.id);
    }
    const key = `${envelope.from}\u0000${envelope.id}`;
    const abort = new RequestAbort(envelope.deadline ?? Date.now() + DEFAULT_HANDLER_DEADLINE_MS);
    // Registered first: a handler that returns at once finishes (and unregisters) inside submit().
    this.running.set(key, abort);
    const accepted = this.deps.bulkhead.submit(key, () => this.run(to, envelope, handler, abort, key, who.principal));
    if (!accepted) {
      this.running.delete(key);
      this.deps.cache.forget(envelope.from, envelope.id);
      this.deps.count("busy");
      return this.deps.nack(to, "busy", "too many requests in flight; retry later", envelope.id, BUSY_RETRY_AFTER_MS);
    }
  }

  /** The authorizer's word; one that throws refuses, with its message. */
  private authorize(envelope: EnvelopeOf<"request">, principal: string | undefined): string | undefined {
    const authorizer = this.deps.authorizer();
    if (!authorizer) return undefined;
    try {
      return authorizer({ op: envelope.body.op, args: envelope.body.args, from: envelope.from, principal });
    } catch (error) {
      return `authorization failed: ${(error as Error).message}`;
    }
  }

  onCancel(envelope: EnvelopeOf<"cancel">): void {
    if (envelope.corr === undefined) return;
    const key = `${envelope.from}\u0000${envelope.corr}`;
    const abort = this.running.get(key);
    if (!abort) return;
    this.deps.bulkhead.withdraw(key);
    this.running.delete(key);
    this.deps.cache.forget(envelope.from, envelope.corr);
    abort.abort(new Error("cancelled by the requester"));
  }

  /** Abort every running handler (the drain bound passed). */
  abortAll(reason: string): void {
    for (const abort of this.running.values()) abort.abort(new Error(reason));
  }

  private guard(envelope: EnvelopeOf<"request">): { code: NackCode; detail: string } | undefined {
    const maxHops = envelope.max_hops ?? DEFAULT_MAX_HOPS;
    const hops = envelope.hops ?? 1;
    if (this.deps.isStopping()) return { code: "shutting_down", detail: `${this.deps.selfId} is stopping` };
    if (envelope.deadline !== undefined && envelope.deadline <= Date.now()) {
      return { code: "deadline_exceeded", detail: `deadline passed ${Date.now() - envelope.deadline} ms before arrival` };
    }
    if (envelope.path?.includes(this.deps.selfId)) {
      return { code: "cycle_detected", detail: `${this.deps.selfId} is already on the path ${envelope.path.join(" → ")}` };
    }
    if (hops > maxHops) return { code: "hop_limit", detail: `hop ${hops} exceeds the budget of ${maxHops}` };
    return undefined;
  }

  /**
   * Run the handler; a result that is not a promise is answered at once, without a promise of the
   * responder's own or a turn of the microtask queue (most handlers of the hot path are synchronous).
   */
  private run(to: Buffer, envelope: EnvelopeOf<"request">, handler: Handler, abort: RequestAbort, key: string, principal: string | undefined): Promise<void> | undefined {
    const context = new HandlerContext(envelope, abort, this.deps.logger, principal);
    let result: unknown;
    try {
      result = handler(envelope.body.args, context);
    } catch (error) {
      this.failed(to, envelope, context, error);
      this.finished(abort, key);
      return undefined;
    }
    if (isPromiseLike(result)) return this.settleLater(to, envelope, context, result, abort, key);
    this.succeeded(to, envelope, abort, result);
    this.finished(abort, key);
    return undefined;
  }

  private async settleLater(to: Buffer, envelope: EnvelopeOf<"request">, context: HandlerContext, pending: PromiseLike<unknown>, abort: RequestAbort, key: string): Promise<void> {
    try {
      this.succeeded(to, envelope, abort, await pending);
    } catch (error) {
      this.failed(to, envelope, context, error);
    } finally {
      this.finished(abort, key);
    }
  }

  private succeeded(to: Buffer, envelope: EnvelopeOf<"request">, abort: RequestAbort, result: unknown): void {
    if (abort.aborted) return; // cancelled or past the deadline: the requester no longer waits
    const frame = this.deps.reply(to, envelope, { result });
    if (frame) this.deps.cache.complete(envelope.from, envelope.id, frame, envelope.deadline, this.deps.retainReplyMs(envelope.body.op));
    this.deps.count("handled");
  }

  private failed(to: Buffer, envelope: EnvelopeOf<"request">, context: HandlerContext, error: unknown): void {
    this.deps.count("handler_error");
    const wire = toWireError(error);
    context.logger.warn({ err: error, code: wire.code }, "handler failed");
    const frame = this.deps.reply(to, envelope, { error: wire });
    // A retryable failure must run again on retry, so its reply is not replayed from the cache.
    if (frame && !wire.retryable) this.deps.cache.complete(envelope.from, envelope.id, frame, envelope.deadline, this.deps.retainReplyMs(envelope.body.op));
    else this.deps.cache.forget(envelope.from, envelope.id);
  }

  private finished(abort: RequestAbort, key: string): void {
    abort.dispose();
    this.running.delete(key);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
