// The closed set of NACK codes: the one place that says what each means and whether a retry can help.

export const NACK_CODES = {
  malformed_payload: { retryable: true, summary: "the frame header or msgpack payload could not be decoded" },
  crc_mismatch: { retryable: true, summary: "the payload's CRC-32 does not match the header (corrupted in transit)" },
  version_unsupported: { retryable: false, summary: "the frame or envelope uses a protocol version this node does not speak" },
  too_large: { retryable: false, summary: "the frame exceeds the receiver's maximum frame size" },
  unknown_kind: { retryable: false, summary: "the envelope's kind is not one this node knows" },
  schema_invalid: { retryable: false, summary: "the envelope or its body violates the schema of its kind" },
  busy: { retryable: true, summary: "the receiver's bulkhead or a send queue is full; retry after the hint" },
  no_route: { retryable: true, summary: "the target node is not known or not connected" },
  deadline_exceeded: { retryable: false, summary: "the request's absolute deadline passed before it could run" },
  hop_limit: { retryable: false, summary: "the request would exceed its hop budget" },
  cycle_detected: { retryable: false, summary: "the request's path already contains the receiving node" },
  unauthorized: { retryable: false, summary: "the sender's claimed id does not match its connection identity" },
  unknown_op: { retryable: false, summary: "no handler is registered for the requested op" },
  shutting_down: { retryable: true, summary: "the receiver is draining and accepts no new work" },
} as const satisfies Record<string, { retryable: boolean; summary: string }>;

export type NackCode = keyof typeof NACK_CODES;

export const NACK_CODE_NAMES = Object.keys(NACK_CODES) as [NackCode, ...NackCode[]];

export function isRetryableCode(code: NackCode): boolean {
  return NACK_CODES[code].retryable;
}
