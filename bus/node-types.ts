// What a mesh node's callers pass and hear: request and handler options, and the events it emits (node.ts).
import type { LeaveReason } from "./membership.js";
import type { PeerState } from "./peer-table.js";
import type { RequestContext } from "./request-context.js";
import type { NackCode } from "./wire/nack-codes.js";
import type { NodeCard } from "./wire/schema.js";

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  attempts?: number;
  traceId?: string;
  /** Continue the chain of the request being handled: path, hop count, budget and deadline carry over. */
  via?: RequestContext;
  /** Start a chain with this hop budget (default 6), or an explicit trail (a manager's logical path). */
  maxHops?: number;
  trail?: { path: string[]; hops: number; maxHops: number };
  /**
   * Send under this message id instead of a fresh one: a request re-sent by a restarted sender (a
   * manager resuming its journal) is then recognised by the peer's reply cache and never runs twice.
   * Unique per sender id: the caller keeps it so.
   */
  messageId?: string;
}

export interface HandleOptions {
  /**
   * Keep this op's finished replies at least this long, not only until the request's deadline: a sender
   * that restarts and sends the request again under the same message id gets the reply instead of a
   * second run. The sender acknowledges a reply it has recorded, and the node forgets it then.
   */
  retainReplyMs?: number;
}

export interface NodeEvents {
  "peer:join": [card: NodeCard];
  "peer:leave": [card: NodeCard, reason: LeaveReason];
  "peer:state": [card: NodeCard, state: PeerState];
  "frame:rejected": [info: { peer: string; code: NackCode; detail: string }];
}
