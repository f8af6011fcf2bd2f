// Field schemas shared by the protocol's messages: bounded text, ids, paths, hashes, bounded lists.
import { z } from "zod";
import { MAX_ID_CHARS, MAX_PATH_CHARS } from "./limits.js";
import { codePointLength, utf8ByteLength } from "./text.js";

/** A string of `minChars`..`maxChars` Unicode code points. */
export function textField(maxChars: number, minChars = 0) {
  return z.string().superRefine((value, ctx) => {
    const length = codePointLength(value);
    if (length < minChars) {
      ctx.addIssue({ code: "custom", message: minChars === 1 ? "must not be empty" : `must have at least ${minChars} characters` });
    }
    if (length > maxChars) ctx.addIssue({ code: "custom", message: `must have at most ${maxChars} characters, got ${length}` });
  });
}

/** A string of at most `maxBytes` UTF-8 bytes (and at least one code point when `nonEmpty`). */
export function bytesField(maxBytes: number, nonEmpty = false) {
  return z.string().superRefine((value, ctx) => {
    if (nonEmpty && value.length === 0) ctx.addIssue({ code: "custom", message: "must not be empty" });
    const bytes = utf8ByteLength(value);
    if (bytes > maxBytes) ctx.addIssue({ code: "custom", message: `must have at most ${maxBytes} UTF-8 bytes, got ${bytes}` });
  });
}

/** A task, agent or manifest id: 1..MAX_ID_CHARS code points, no whitespace or control characters. */
export const idField = textField(MAX_ID_CHARS, 1).regex(/^[^\s\p{Cc}]*$/u, "must not contain whitespace or control characters");

/** A normalized POSIX path relative to the scope root, so it can never name a file outside the scope. */
export const relativePathField = textField(MAX_PATH_CHARS, 1).superRefine((path, ctx) => {
  const problem = relativePathProblem(path);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: `must be a POSIX path relative to the scope root: ${problem}` });
});

/** Why `path` is not a normalized POSIX path relative to the scope root; undefined when it is one. */
export function relativePathProblem(path: string): string | undefined {
  if (path.startsWith("/")) return "no leading '/'";
  if (path.includes("\\")) return "use '/' as separator, not '\\'";
  if (/^[A-Za-z]:/.test(path)) return "no drive letter";
  if (/\p{Cc}/u.test(path)) return "no control characters";
  const segments = path.split("/");
  if (segments.some((segment) => segment === "")) return "no empty segments ('//' or a trailing '/')";
  if (segments.some((segment) => segment === "." || segment === "..")) return "no '.' or '..' segments";
  return undefined;
}

/** A SHA-256 digest as 64 lowercase hex digits. */
export const sha256Field = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits (SHA-256)");

/** A similarity score in [0, 1]. */
export const similarityField = z.number().min(0).max(1);

/** A 1-based line number. */
export const lineNumberField = z.number().int().min(1);

/** An array of at most `max` items. */
export function listField<T extends z.ZodType>(item: T, max: number) {
  return z.array(item).max(max, `must have at most ${max} items`);
}

/** An array of at most `max` distinct items. */
export function uniqueListField<T extends z.ZodType>(item: T, max: number) {
  return listField(item, max).superRefine((items, ctx) => {
    const seen = new Set<unknown>();
    items.forEach((value, index) => {
      if (seen.has(value)) ctx.addIssue({ code: "custom", path: [index], message: `duplicate item ${JSON.stringify(value)}` });
      seen.add(value);
    });
  });
}
