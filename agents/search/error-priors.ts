// What the one scoring model (relevance.ts) makes of errors: building or handling one is where the work
// gives up, not how it is done, unless the question asks about errors.
import { tokenize } from "../pgc/retrieval/index.js";
import type { ParsedQuestion, QuestionTerm } from "./question.js";
import type { TermMatch } from "./relevance.js";

/**
 * Constructing an exception is where an error begins, not how the work is done (`raise
 * SMTPNotSupportedError(…)` in the middle of `send_message`): a class named `…Error` or `…Exception`, or
 * deriving from one, counts this much of what it matches as a step or an exit of a path.
 */
export const ERROR_CLASS_PRIOR = 0.5;
const ERROR_CLASS = /^[A-Z][\w$]*(?:Error|Exception)$/;

/** A class name (and the names of its bases) that reads as an exception. */
export function isErrorClass(name: string, bases: Iterable<string> = []): boolean {
  if (ERROR_CLASS.test(name)) return true;
  for (const base of bases) if (ERROR_CLASS.test(base)) return true;
  return false;
}

/**
 * A call in a `raise` / `throw` statement builds the error thrown (`raise SMTPNotSupportedError(…)`, `throw new
 * TRPCError({ … })`): where the work gives up, not how it is done. A path follows such a call only when the
 * question asks about errors — it writes error, exception, throw, raise or fail, in any form or inside a name
 * (`TRPCError`) —, as "what error is thrown when …" ends there.
 */
const ERROR_WORDS: ReadonlySet<string> = new Set(tokenize("error exception throw raise fail failure"));
const errorsMemo = new WeakMap<readonly QuestionTerm[], boolean>();

export function asksAboutErrors(question: Pick<ParsedQuestion, "terms">): boolean {
  let asks = errorsMemo.get(question.terms);
  if (asks === undefined) errorsMemo.set(question.terms, (asks = question.terms.some((t) => ERROR_WORDS.has(t.term))));
  return asks;
}

/** Matches counted at a fraction of their strength (a prior on the place they are in). */
export function discounted(matches: readonly TermMatch[], prior: number): TermMatch[] {
  return prior === 1 ? [...matches] : matches.map((m) => ({ ...m, strength: m.strength * prior }));
}
