// The compound identifiers a long function uses past the lines its indexed body holds (MAX_BODY_LINES of
// the O1 document): `case UI_DEV_CREATE:` on line 31 of `uinput_ioctl_handler`, an option read at the end of
// a long method. A question that writes such an identifier finds the function that handles it there too
// (the call-graph search's body terms and entry index; PGC.md, "Call graph"). Only names of two words or
// more (snake_case, CONST_CASE, camelCase): a one-word name is used everywhere.

/** Lines of a function's body its O1 document holds (overlays/doc-draft.ts, MAX_BODY_LINES; parse does not import overlays). */
export const INDEXED_BODY_LINES = 30;
/** Identifiers kept per function, in order of first use: enough for a long switch's cases. */
export const MAX_BODY_USES = 128;

const WORD = /[A-Za-z_$][\w$]*/g;
/** Two words or more: an inner underscore between word characters, or a lower → Upper hump. */
const COMPOUND = /[A-Za-z0-9]_+[A-Za-z0-9]|[a-z0-9][A-Z]/;

/** The compound identifiers of `lines` (a function's lines past its indexed body), in order, each once. */
export function compoundIdentifiers(lines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const line of lines) {
    for (const match of line.matchAll(WORD)) {
      const word = match[0];
      if (COMPOUND.test(word)) out.add(word);
      if (out.size >= MAX_BODY_USES) return [...out];
    }
  }
  return [...out];
}
