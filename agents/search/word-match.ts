// How one word of the code matches one term of a question: whole (1), as a prefix, inside a longer word or
// by a code spelling at either end of a compound (PARTIAL_MATCH), or not (0). The one word-level rule the
// workers' and the manager's scoring share (relevance.ts).
import type { QuestionTerm } from "./question.js";

/** Shortest term that may match as the start of a longer one ("pars" of "parser", "smtp" of "smtplib"). */
export const MIN_PREFIX_TERM = 4;
/** Shortest term that may match inside a longer one ("alloc" in "kzalloc"; "read" not in "thread"). */
export const MIN_INNER_TERM = 5;
/** Shortest code spelling (`msg`, `skb`) that may match at the start or end of a compound name. */
export const MIN_SPELLING_AFFIX = 3;
/** A prefix or inner match says less than the whole word. */
export const PARTIAL_MATCH = 0.7;

/** Prefixes that turn a word into its opposite: `unsubscribe` is not "subscribe", `disconnect` not "connect". */
const NEGATING_PREFIX = /^(?:un|dis|non|de|anti|in)$/;

/**
 * How well one term of a field matches a question term (or one of its spellings): 1, PARTIAL_MATCH or 0.
 * (A qualified name, `collection.update`, never comes here: qualifiedMatch and the entry index match it.)
 */
export function wordMatch(term: QuestionTerm, word: string): number {
  return termMatcher(term)(word);
}

/**
 * wordMatch for one term, to call for many words: the same words recur across a scope's functions, so each
 * (term, word) is worked out once per question, and the term's memo is looked up once, not per word.
 */
export function termMatcher(term: QuestionTerm): (word: string) => number {
  let matcher = matcherMemo.get(term);
  if (!matcher) {
    const known = new Map<string, number>();
    matcher = (word) => {
      let quality = known.get(word);
      if (quality === undefined) known.set(word, (quality = matchWord(term, word)));
      return quality;
    };
    matcherMemo.set(term, matcher);
  }
  return matcher;
}

const matcherMemo = new WeakMap<QuestionTerm, (word: string) => number>();

/** wordMatch without its memo: for a pass that meets each word once (a scope's whole vocabulary). */
export function matchWord(term: QuestionTerm, word: string): number {
  if (word === term.term || term.forms.includes(word)) return 1;
  for (let i = -1; i < term.forms.length; i++) {
    const spelling = i < 0 ? term.term : (term.forms[i] as string);
    const shorter = spelling.length <= word.length ? spelling : word;
    const longer = shorter === spelling ? word : spelling;
    // A word that is only the start of a form says nothing of the term: `kernel` of "kernel render"'s closed
    // form `kernelrend` is no "render", `dest` of `destroy` no "delete". The term's own start still counts.
    if (shorter.length >= MIN_PREFIX_TERM && longer.startsWith(shorter) && (i < 0 || shorter === spelling)) return PARTIAL_MATCH;
    const at = spelling.length >= MIN_INNER_TERM ? word.indexOf(spelling) : -1;
    if (at >= 0 && !negated(word, at)) return PARTIAL_MATCH;
  }
  // A code spelling at either end of a compound name: `msg` of `sendmsg`, `skb` of `skbuff`.
  for (const form of term.forms) if (form.length >= MIN_SPELLING_AFFIX && form.length < word.length && (word.startsWith(form) || word.endsWith(form))) return PARTIAL_MATCH;
  return 0;
}

/** The word has a negating prefix right before `at` (`un` in `objectunsubscribederror`, `dis` in `disconnect`). */
function negated(word: string, at: number): boolean {
  for (let start = Math.max(0, at - 4); start < at; start++) if (NEGATING_PREFIX.test(word.slice(start, at))) return true;
  return false;
}
