// Turns a schema into parse/encode functions that throw ProtocolSchemaError with readable paths.
import type { z } from "zod";
import { ProtocolSchemaError, type SchemaIssue } from "./errors.js";

/** Validates `value` against `schema`; returns the parsed copy or throws ProtocolSchemaError. */
export function parseWith<S extends z.ZodType>(schema: S, schemaName: string, value: unknown): z.output<S> {
  // zod builds its own output objects; the undefined-free copy is needed only when there is something to drop.
  const result = schema.safeParse(hasUndefined(value) ? withoutUndefined(value) : value);
  if (result.success) return result.data;
  throw new ProtocolSchemaError(schemaName, result.error.issues.map(toSchemaIssue), { cause: result.error });
}

function toSchemaIssue(issue: z.core.$ZodIssue): SchemaIssue {
  return { path: formatPath(issue.path), message: issue.message };
}

/** ["citations", 3, "content"] → "citations[3].content"; the empty path is "(root)". */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * A deep copy of plain objects and arrays without keys whose value is undefined: msgpackr would send
 * them as an extension type other languages reject, and `"grounding" in task` must mean a real value.
 */
export function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    // defineProperty, because assigning a "__proto__" key from decoded input would swap the prototype.
    if (entry !== undefined) Object.defineProperty(copy, key, { value: withoutUndefined(entry), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Whether withoutUndefined would drop anything: a walk that allocates nothing (decoded messages never need the copy). */
export function hasUndefined(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasUndefined);
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const entry = value[key];
    if (entry === undefined || hasUndefined(entry)) return true;
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
