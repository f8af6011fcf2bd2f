// Message and trace ids. Message ids are unique per sender incarnation: a random prefix plus a counter.
import { randomBytes } from "node:crypto";

export function createMessageIdSource(): () => string {
  const prefix = randomBytes(6).toString("base64url");
  let counter = 0;
  return () => `${prefix}.${(++counter).toString(36)}`;
}

/** A W3C-trace-context-sized trace id: 16 random bytes, lowercase hex. */
export function newTraceId(): string {
  return randomBytes(16).toString("hex");
}

/** A routing id for a client link that is not a mesh member ("~" marks it as such on the wire). */
export function newClientId(): string {
  return `~${randomBytes(8).toString("hex")}`;
}
