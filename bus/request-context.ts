// What a handler knows about the request it serves, and how a forwarded request inherits it.
import type { Logger } from "pino";
import type { EnvelopeOf } from "./wire/schema.js";

export const DEFAULT_MAX_HOPS = 6;

export interface RequestContext {
  /** Sender node id (or client id). */
  from: string;
  messageId: string;
  op: string;
  traceId: string;
  /** Absolute deadline, epoch ms. */
  deadline: number;
  hops: number;
  maxHops: number;
  /** Node ids the request chain has passed through, origin first, the sender last. */
  path: readonly string[];
  /**
   * On a secured node, the sender's CURVE public key: a client's key proven by the request's `auth`
   * (PROTOCOL.md §11b), or a member's card key. Absent on a plain node or for a client without `auth`.
   */
  principal?: string;
  /** Aborted at the deadline, on CANCEL, or when the node stops. */
  signal: AbortSignal;
  logger: Logger;
}

/**
 * The context a handler gets. A class rather than a literal with getters: a literal defines two accessor
 * properties on every request (a map transition each), where the class keeps them on its prototype. The
 * signal and the child logger are built on first use: most handlers read neither (see RequestAbort).
 */
export class HandlerContext implements RequestContext {
  readonly from: string;
  readonly messageId: string;
  readonly op: string;
  readonly traceId: string;
  readonly deadline: number;
  readonly hops: number;
  readonly maxHops: number;
  readonly path: readonly string[];
  readonly principal?: string;
  private childLogger: Logger | undefined;

  constructor(
    private readonly request: EnvelopeOf<"request">,
    private readonly abort: { readonly deadline: number; readonly signal: AbortSignal },
    private readonly baseLogger: Logger,
    principal: string | undefined,
  ) {
    this.from = request.from;
    this.messageId = request.id;
    this.op = request.body.op;
    this.traceId = request.trace ?? "";
    this.deadline = abort.deadline;
    this.hops = request.hops ?? 1;
    this.maxHops = request.max_hops ?? DEFAULT_MAX_HOPS;
    this.path = request.path ?? [request.from];
    if (principal) this.principal = principal;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get logger(): Logger {
    this.childLogger ??= this.baseLogger.child({ trace: this.request.trace, op: this.op, from: this.from });
    return this.childLogger;
  }
}

/** Hop fields of an outbound request: continue a chain (`via`) or start one at this node. */
export interface Trail {
  hops: number;
  maxHops: number;
  path: string[];
}

export function trailFor(selfId: string, via: Pick<RequestContext, "hops" | "maxHops" | "path"> | undefined, maxHops?: number): Trail {
  if (via) return { hops: via.hops + 1, maxHops: via.maxHops, path: [...via.path, selfId] };
  return { hops: 1, maxHops: maxHops ?? DEFAULT_MAX_HOPS, path: [selfId] };
}
