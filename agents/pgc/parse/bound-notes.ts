// Finds comment lines that state an invariant or a bound (O6).
import type { NoteSpan } from "./parsed-file.js";

/** Words and operators that mark a stated invariant, bound, pre- or postcondition. */
export const BOUND_PATTERN =
  /\b(invariants?|must (?:be|not|never|always)|at most|at least|bound(?:s|ed)?|upper limit|lower limit|requires|ensures|pre-?conditions?|post-?conditions?)\b|<=|>=/i;

const COMMENT_LINE_MARKERS = /^\s*(\/\*+!?|\*+(?!\/)|\/\/[/!]?|#+)?\s?/;

/** The lines of one comment (starting at `firstLine`) that state a bound, as one span. */
export function boundNote(commentText: string, firstLine: number): NoteSpan | null {
  const lines = commentText.split("\n");
  const hits: string[] = [];
  let from = 0;
  let to = 0;
  lines.forEach((line, offset) => {
    if (!BOUND_PATTERN.test(line)) return;
    const text = line.replace(COMMENT_LINE_MARKERS, "").replace(/\*+\/\s*$|"""|'''/g, "").trim();
    if (text === "") return;
    if (hits.length === 0) from = firstLine + offset;
    to = firstLine + offset;
    hits.push(text);
  });
  return hits.length === 0 ? null : { text: hits.join(" "), line_start: from, line_end: to };
}
