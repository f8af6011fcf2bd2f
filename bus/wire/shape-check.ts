// A hand-written check of the envelopes on the hot path (request, reply with a result, ping, pong, cancel)
// that accepts only what the zod schemas of schema.ts accept, and leaves nothing for them to strip: an
// envelope it passes is returned as msgpack decoded it. Anything else (an unknown field, a NACK, a HELLO,
// any defect) goes through zod, which alone says what is wrong. A secured fleet signs every request
// (`auth`, PROTOCOL.md §11b), so a well-formed `auth` is checked here too. zod costs several µs a message;
// this costs a fraction of one. Bounds on strings are on .length (UTF-16 units, never fewer than zod's count).
import { SENDER_ID_PATTERN, type DecodedHeader } from "./schema.js";

const HEADER_FIELDS: ReadonlySet<string> = new Set(["v", "kind", "id", "from", "inc", "corr", "deadline", "hops", "max_hops", "path", "trace", "auth", "body"]);
/** A CURVE public key in Z85, as schema.ts's `auth.key` has it. */
const Z85_KEY = /^[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]{40}$/;
const AUTH_MAC_BYTES = 32;
const MAX_KIND_CHARS = 32;
const MAX_ID_CHARS = 64;
const MAX_TRACE_CHARS = 64;
const MAX_HOPS_VALUE = 255;
const MAX_PATH_ENTRIES = 256;
const MAX_OP_CHARS = 64;

/** An object as msgpackr builds a map: not an array, a byte string, a Date or any other class. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function isCount(value: unknown, max = Number.MAX_SAFE_INTEGER): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= max;
}

function isText(value: unknown, min: number, max: number): boolean {
  return typeof value === "string" && value.length >= min && value.length <= max;
}

function isSenderId(value: unknown): boolean {
  return typeof value === "string" && SENDER_ID_PATTERN.test(value);
}

function isPath(value: unknown): boolean {
  if (!Array.isArray(value) || value.length > MAX_PATH_ENTRIES) return false;
  for (const entry of value) if (!isSenderId(entry)) return false;
  return true;
}

/** `auth` of exactly `{ key, mac }`: a Z85 key and 32 bytes of MAC (msgpack bin), nothing zod would drop. */
function isAuth(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) if (key !== "key" && key !== "mac") return false;
  const mac = value["mac"];
  return typeof value["key"] === "string" && Z85_KEY.test(value["key"]) && mac instanceof Uint8Array && mac.length === AUTH_MAC_BYTES;
}

/** Every header field zod would check, and none it would drop; absent optional fields are fine, null ones are not. */
export function isPlainHeader(raw: unknown): raw is DecodedHeader {
  if (!isPlainObject(raw)) return false;
  for (const key in raw) if (!HEADER_FIELDS.has(key)) return false;
  return (
    Number.isSafeInteger(raw["v"]) &&
    isText(raw["kind"], 1, MAX_KIND_CHARS) &&
    isText(raw["id"], 1, MAX_ID_CHARS) &&
    isSenderId(raw["from"]) &&
    isCount(raw["inc"]) &&
    "body" in raw &&
    (!("corr" in raw) || isText(raw["corr"], 1, MAX_ID_CHARS)) &&
    (!("deadline" in raw) || isCount(raw["deadline"])) &&
    (!("hops" in raw) || isCount(raw["hops"], MAX_HOPS_VALUE)) &&
    (!("max_hops" in raw) || isCount(raw["max_hops"], MAX_HOPS_VALUE)) &&
    (!("path" in raw) || isPath(raw["path"])) &&
    (!("trace" in raw) || isText(raw["trace"], 0, MAX_TRACE_CHARS)) &&
    (!("auth" in raw) || isAuth(raw["auth"]))
  );
}

function hasOnlyKeys(body: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key in body) if (!allowed.includes(key)) return false;
  return true;
}

/** A body of a hot kind that its zod schema would return unchanged; false means "ask zod". */
export function isPlainBody(kind: string, body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  switch (kind) {
    case "request":
      return hasOnlyKeys(body, ["op", "args"]) && isText(body["op"], 1, MAX_OP_CHARS) && "args" in body;
    case "reply":
      // Only a result: an error reply (the union's other branch) goes through zod.
      return hasOnlyKeys(body, ["result"]) && "result" in body;
    case "ping":
    case "pong":
    case "cancel":
      return hasOnlyKeys(body, []);
    default:
      return false;
  }
}
