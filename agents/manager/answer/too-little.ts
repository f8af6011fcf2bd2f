// When the best traced chain answers too little of the question to be reported: the answer is then "no
// chain found", with low confidence, and says why. Two signals, each alone enough to refuse: how much of
// the question the chain covers, and how many of the question's words the code it cites names. Neither
// refuses a chain that begins at the function the question writes as code: the question says it is there.
import type { ParsedQuestion } from "../../search/question.js";
import type { Field } from "../../search/relevance.js";
import { namedByQuestion, searchStepOf } from "../search/named-start.js";
import type { TraceOutcome } from "../search/trace-chain.js";

/**
 * Below this coverage of the question the best traced chain answers too little of it, rather than being a
 * path through code that merely shares a word or two with it. A long question is rarely matched by one
 * function, but the chain through its steps covers it.
 */
export const NO_CHAIN_THRESHOLD = 0.25;
/**
 * A question of more terms than this needs of a chain only as much as NO_CHAIN_THRESHOLD of a question this
 * long, as a start needs less of a long question (START_FULL_TERMS): the words of a long question say where
 * and when the path runs ("On an i.MX board using the sdhci-esdhc-imx driver, when a high-speed eMMC is
 * initialised, how does the 8-bit bus width … end up programmed into the controller's register?", 21
 * terms), and the chain through it covers a smaller share of them. 18 is the upper quartile of the
 * grounding benchmark's "how" questions' lengths (2026-11-28): the bar stays 0.25 for three in four. Of its
 * 28 "how" questions then answered "no chain", 14 had more than 18 terms. Measured over its 400 questions:
 * 18 reported seven of those chains (four with the right start, all seven reaching the right end) and no
 * off-topic question's; 16 reported ten (five, nine) and one off-topic question's (BENCHMARKS.md,
 * twenty-sixth stop).
 */
export const NO_CHAIN_FULL_TERMS = 18;

/** What the best chain must cover of this question: NO_CHAIN_THRESHOLD, scaled down for a question of more than NO_CHAIN_FULL_TERMS terms. */
export function noChainThreshold(question: Pick<ParsedQuestion, "terms">): number {
  return NO_CHAIN_THRESHOLD * Math.min(1, NO_CHAIN_FULL_TERMS / Math.max(1, question.terms.length));
}

/**
 * A chain about the question names at least this many of its words in the code's own names — a function's
 * name, its class, file or directories — unless it begins at the function the question names as code. A
 * chain whose names share one word with the question (`open`, `kernel`, `stack`) and gathers the rest of
 * its coverage from doc comments and bodies is about something else: of the grounding benchmark's 15
 * off-topic questions, the 8 that reach a chain name 0, 1 or 2 words; of its 115 real ones, every answer
 * reported names 2 or more. A question of fewer words asks for fewer: one less than it has ("What does
 * urlopen do?" is answered by the chain from `urlopen`, which names its one word).
 */
export const MIN_NAMED_TERMS = 2;

/** How many of the question's words the chain must name: MIN_NAMED_TERMS, or one less than the question has. */
export function namedTermsNeeded(question: Pick<ParsedQuestion, "terms">): number {
  return Math.max(0, Math.min(MIN_NAMED_TERMS, new Set(question.terms.map((t) => t.term)).size - 1));
}

const NAMING: ReadonlySet<Field> = new Set(["symbol", "bound", "name", "container", "file", "dir"]);

/** The question's terms the chain's steps match by a name: their own, their class's, file's or directories'. */
export function namedTerms(outcome: Pick<TraceOutcome, "steps" | "hops">): Set<string> {
  const named = new Set<string>();
  for (const step of outcome.steps) for (const m of searchStepOf(outcome.hops, step)?.matches ?? []) if (NAMING.has(m.field)) named.add(m.term);
  return named;
}

/** Why the chain is not reported, or null when it stands. */
export function tooLittle(question: Pick<ParsedQuestion, "terms" | "text" | "names">, outcome: Pick<TraceOutcome, "steps" | "hops" | "coverage">): string | null {
  const first = outcome.steps[0];
  if (!first) return null;
  // "After a driver reports events with input_event() …": a long question of which the chain from it covers little.
  if (namedByQuestion(question, searchStepOf(outcome.hops, first)?.matches ?? [])) return null;
  const from = `the best chain, from ${first.symbol} in ${first.scope},`;
  const bar = noChainThreshold(question);
  if (outcome.coverage < bar) return `${from} covers only ${outcome.coverage.toFixed(2)} of the question; below ${bar === NO_CHAIN_THRESHOLD ? bar : `${bar.toFixed(2)} (${NO_CHAIN_THRESHOLD} for a question of up to ${NO_CHAIN_FULL_TERMS} terms; it has ${question.terms.length})`}`;
  const named = namedTerms(outcome);
  const needed = namedTermsNeeded(question);
  if (named.size >= needed) return null;
  return `${from} names ${named.size === 0 ? "none" : `only ${[...named].join(", ")}`} of the question's words in its code's names (functions, classes, files, directories); at least ${needed} are needed`;
}
