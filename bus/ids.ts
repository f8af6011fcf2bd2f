// Message and trace ids. Message ids are unique per sender incarnation: a random prefix plus a counter.
import { randomBytes } from "node:crypto";

export function createMessageIdSource(): () => string {
  const prefix = randomBytes(6).toString("base64url");
  let counter = 0;
  return () => `${prefix}.${(++counter).toString(36)}`;
}

const TRACE_ID_BYTES = 16;
/** Random bytes drawn in one call and handed out 16 at a time (one syscall per 256 trace ids). */
const TRACE_POOL_BYTES = 4096;
let pool = randomBytes(TRACE_POOL_BYTES);
let offset = 0;

/** A W3C-trace-context-sized trace id: 16 random bytes, lowercase hex. */
export function newTraceId(): string {
  if (offset + TRACE_ID_BYTES > TRACE_POOL_BYTES) {
    pool = randomBytes(TRACE_POOL_BYTES);
    offset = 0;
  }
  const id = pool.toString("hex", offset, offset + TRACE_ID_BYTES);
  offset += TRACE_ID_BYTES;
  return id;
}

/** A routing id for a client link that is not a mesh member ("~" marks it as such on the wire). */
export function newClientId(): string {
  return `~${randomBytes(8).toString("hex")}`;
}
