// What the bus benchmark's server process and its clients agree on: the modes, the echo op, the
// ready line and the request body.

export type ServerMode = "raw" | "mesh";
export const SERVER_MODES: readonly ServerMode[] = ["raw", "mesh"];

/** Echo op of the mesh server: returns its args unchanged. */
export const ECHO_OP = "echo";

/** The one line a server prints on stdout once its socket is bound. */
export interface ReadyLine {
  event: "ready";
  mode: ServerMode;
  /** The mesh node id to address requests to (the raw server has none that matters). */
  id: string;
  endpoint: string;
  pid: number;
}

export function isReadyLine(value: unknown): value is ReadyLine {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Record<string, unknown>;
  return line["event"] === "ready" && typeof line["id"] === "string" && typeof line["endpoint"] === "string";
}

/**
 * A deterministic printable body of exactly `bytes` bytes. The mesh sends it as the echo args (a msgpack
 * string); the raw baseline sends the same bytes as its whole message.
 */
export function echoBody(bytes: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let body = "";
  for (let i = 0; i < bytes; i++) body += alphabet[(i * 7) % alphabet.length];
  return body;
}
