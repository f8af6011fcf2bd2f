// What a handler knows about the request it serves, and how a forwarded request inherits it.
import type { Logger } from "pino";

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
