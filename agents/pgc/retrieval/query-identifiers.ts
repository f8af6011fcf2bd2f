// Finds the code identifiers a question names ("how does dma_alloc_coherent work?"), for exact look-up.
// Plain English words are left out on purpose: "open" or "file" in a question is not a claim about a symbol.

/**
 * A backticked span, or a word with optional qualifiers (a.b, a::b, a->b) and an optional "()". Words may
 * hold "$", as JavaScript names do ($ZodString, source$, $scope).
 */
const CANDIDATE = /`([^`\n]+)`|[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)*(?:\(\))?/g;
const QUALIFIER = /\.|::|->/;
/** One-letter last segments ("e.g") are punctuation, not names. */
const MIN_SEGMENT_LENGTH = 2;

/**
 * A product's name written as an acronym after one lower-case letter (xHCI, tRPC, eBPF, vCPU) is prose:
 * code spells it `xhci`, `XHCI` or inside a longer name (`initTRPC`), never so.
 */
const ACRONYM = /^[a-z][A-Z]{2,}[A-Z0-9]*$/;

/**
 * Shapes no English word has: snake_case, camelCase humps, an acronym starting a name (SMTPHandler,
 * HTTPConnection; not "URLs"), letters then digits (e1000), a "$", or a call "()".
 */
function looksLikeCode(word: string, called: boolean): boolean {
  if (!called && ACRONYM.test(word)) return false;
  return called || word.includes("_") || /[a-z][A-Z]/.test(word) || /[A-Z]{2,}[a-z]{2,}/.test(word) || /[A-Za-z][0-9]/.test(word) || /\$[A-Za-z_]|\w\$/.test(word);
}

function namesOf(text: string): string[] {
  // A backticked directive (`.. image::`) is its name without the markup around it.
  const segments = text.split(QUALIFIER).map((segment) => segment.trim()).filter((segment) => segment.length > 0);
  const last = segments[segments.length - 1];
  if (last === undefined || last.length < MIN_SEGMENT_LENGTH) return [];
  return segments.length > 1 ? [text, last] : [last];
}

/**
 * A word right before "(" is called with arguments (`observe(store, listener)`, `reaction(expression,
 * effect)`): code whatever its shape. Not a plural written with its ending in parentheses ("driver(s)").
 */
const CALL_ARGUMENTS = /^\((?!(?:e?s)\))/;

/** A name called with arguments inside a span: `lpush('jobs', payload)`, not `flask run` nor `f()`. */
const CALL_WITH_ARGUMENTS = /[A-Za-z0-9_$]\(\s*[^)\s]/;

/** Identifiers named in `query`, in order of appearance, without duplicates; qualified names also yield their last part. */
export function identifiersInQuery(query: string): string[] {
  const out = new Set<string>();
  for (const match of query.matchAll(CANDIDATE)) {
    const backticked = match[1];
    if (backticked !== undefined) {
      // An expression calling something with arguments (`await r.lpush('jobs', payload)`) names what it calls, read as the question's own words are.
      const names = CALL_WITH_ARGUMENTS.test(backticked) ? identifiersInQuery(backticked.replace(/`/g, " ")) : namesOf(backticked.trim().replace(/\(\)$/, ""));
      for (const name of names) out.add(name);
      continue;
    }
    const empty = match[0].endsWith("()");
    const text = empty ? match[0].slice(0, -2) : match[0];
    const called = empty || CALL_ARGUMENTS.test(query.slice(match.index + match[0].length, match.index + match[0].length + 4));
    if (looksLikeCode(text, called) || QUALIFIER.test(text)) for (const name of namesOf(text)) out.add(name);
  }
  return [...out];
}
