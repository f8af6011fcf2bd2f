// The parts of the hand-written message checks (search-shape.ts, response-shape.ts): each says yes only
// when the zod field it stands for would accept the value unchanged.
import { relativePathProblem } from "./fields.js";
import { MAX_PATH_CHARS } from "./limits.js";

export type Plain = Record<string, unknown>;

/** An object as msgpackr builds a map: not an array, a byte string, a Date or any other class. */
export function isPlain(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Only these keys, each present with a value (an absent optional field is fine; `undefined` is not). */
export function keysWithin(value: Plain, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key) || value[key] === undefined) return false;
  return true;
}

/** A string of min..max UTF-16 units (never fewer than the code points zod counts). */
export function text(value: unknown, max: number, min = 0): value is string {
  return typeof value === "string" && value.length >= min && value.length <= max;
}

/** An optional field: absent, or present and passing `check`. */
export function optional(value: Plain, key: string, check: (v: unknown) => boolean): boolean {
  return !(key in value) || check(value[key]);
}

/** A finite number in [min, max] (zod's numbers refuse NaN and the infinities). */
export function finite(value: unknown, min: number, max = Number.POSITIVE_INFINITY): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
}

/** A safe integer in [min, max]. */
export function int(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number {
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
}

/** An array of at most `max` items, each passing `item`. */
export function list(value: unknown, max: number, item: (v: unknown) => boolean): value is unknown[] {
  if (!Array.isArray(value) || value.length > max) return false;
  for (const entry of value) if (!item(entry)) return false;
  return true;
}

/** relativePathField: a normalized POSIX path relative to the scope root. */
export function scopePath(value: unknown): value is string {
  return text(value, MAX_PATH_CHARS, 1) && relativePathProblem(value) === undefined;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** sha256Field: 64 lowercase hex digits. */
export function sha256(value: unknown): value is string {
  return typeof value === "string" && SHA256.test(value);
}
