// The bus's closed set of errors. Each carries a stable `code` and whether a retry can help;
// errors that cross the wire travel as a NACK code plus detail and are rebuilt here as the same class.
import { NACK_CODES, type NackCode } from "./wire/nack-codes.js";

export abstract class BusError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller's deadline passed without a reply (the request may still have run once on the peer). */
export class TimeoutError extends BusError {
  override readonly name = "TimeoutError";
  readonly code = "timeout";
  readonly retryable = false;
}

/** The caller aborted through its AbortSignal; a CANCEL was sent to the peer. */
export class CancelledError extends BusError {
  override readonly name = "CancelledError";
  readonly code = "cancelled";
  readonly retryable = false;
}

/** The peer is unknown, expired, restarted under a new incarnation, or left the mesh. */
export class PeerUnavailableError extends BusError {
  override readonly name = "PeerUnavailableError";
  readonly code = "peer_unavailable";
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The peer refused this side's CURVE key in the handshake: its keyring does not (or no longer) admit it. */
export class AuthRefusedError extends BusError {
  override readonly name = "AuthRefusedError";
  readonly code = "unauthorized";
  readonly retryable = false;
}

/** This node's send queue towards a peer is full: back off and retry. */
export class BusyError extends BusError {
  override readonly name = "BusyError";
  readonly code = "busy";
  readonly retryable = true;
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A message this node was asked to send is larger than the configured maximum frame size. */
export class FrameTooLargeError extends BusError {
  override readonly name = "FrameTooLargeError";
  readonly code = "too_large";
  readonly retryable = false;
}

/** An inbound frame failed to decode; `nackCode` says how. */
export class FrameDecodeError extends BusError {
  override readonly name = "FrameDecodeError";
  readonly code: NackCode;
  readonly retryable: boolean;
  constructor(
    code: NackCode,
    message: string,
    /** The message id, when it could be read from a damaged frame (best effort, untrusted). */
    readonly messageId?: string,
    /** The message kind, when it could be read (best effort, untrusted): answers are never NACKed. */
    readonly kind?: string,
  ) {
    super(message);
    this.code = code;
    this.retryable = NACK_CODES[code].retryable;
  }
}

/** The peer refused the request with a NACK. */
export class NackError extends BusError {
  override readonly name = "NackError";
  readonly retryable: boolean;
  constructor(
    readonly code: NackCode,
    readonly detail: string,
    readonly retryAfterMs?: number,
  ) {
    super(`${code}: ${detail}`);
    this.retryable = NACK_CODES[code].retryable;
  }
}

/** The remote handler ran and failed; the error travelled back as code plus message. */
export class RemoteError extends BusError {
  override readonly name = "RemoteError";
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

/** The node was stopped while the call was in flight. */
export class NodeStoppedError extends BusError {
  override readonly name = "NodeStoppedError";
  readonly code = "node_stopped";
  readonly retryable = false;
}

/** Options or arguments given to a bus API are invalid. */
export class BusConfigError extends BusError {
  override readonly name = "BusConfigError";
  readonly code = "invalid_config";
  readonly retryable = false;
}
