// The labelled queries a calibration is fitted on: each function's doc summary (answer known) and random
// queries (no answer exists), split into train and held-out by a hash so the split never depends on order.
import type { IndexDoc } from "../types.js";
import type { LexicalIndex } from "./lexical-index.js";
import { fnv1a32, mulberry32, randomInt, shuffled } from "./prng.js";
import { RANDOM_QUERY_WORDS } from "./random-words.js";
import { tokenize } from "./tokenizer.js";

/** Fewer terms than this (after removing the name) is too little to say anything about a match. */
export const MIN_SUMMARY_TERMS = 2;
const MAX_SUMMARY_CHARS = 300;
/** Random queries are as long as typical doc summaries: two to six terms. */
const MIN_RANDOM_TERMS = 2;
const MAX_RANDOM_TERMS = 6;
const PERCENT = 100;
/** Draws allowed per wanted corpus word before settling for a shorter query. */
const MAX_DRAWS_PER_TERM = 20;

export type CalibrationQueryKind = "doc_summary" | "random_words" | "corpus_tokens";

export interface CalibrationQuery {
  kind: CalibrationQueryKind;
  terms: string[];
  /** The document the query was made from; absent for random queries, which have no right answer. */
  target?: string;
  heldout: boolean;
}

export interface QueryPlan {
  seed: number;
  heldoutPercent: number;
  maxSummaryQueries: number;
  /** Random queries per doc-summary query. */
  negativeRatio: number;
}

/** The first sentence of a doc comment, whitespace collapsed ("Return the x. More text" → "Return the x."). */
export function firstSentence(doc: string): string {
  const paragraph = doc.trim().split(/\n\s*\n/)[0] ?? "";
  const flat = paragraph.replace(/\s+/g, " ").trim();
  const end = /[.!?](\s|$)/.exec(flat);
  return (end === null ? flat : flat.slice(0, end.index + 1)).slice(0, MAX_SUMMARY_CHARS);
}

/** The summary's terms minus the symbol's own name terms, so the query cannot win by naming the answer. */
export function summaryTerms(doc: IndexDoc): string[] {
  const name = doc.symbol ?? doc.fields.name ?? "";
  const nameTerms = new Set(tokenize(name));
  return [...new Set(tokenize(firstSentence(doc.fields.doc ?? "")))].filter((term) => !nameTerms.has(term));
}

function isHeldout(key: string, heldoutPercent: number): boolean {
  return fnv1a32(key) % PERCENT < heldoutPercent;
}

/** The documents doc-summary queries are drawn from (all the fit reads of the documents): named O1 ones with a doc comment. */
export function isSummaryCandidate(doc: IndexDoc): boolean {
  return doc.overlay === "O1" && (doc.symbol ?? doc.fields.name) !== undefined && Boolean(doc.fields.doc);
}

function summaryQueries(docs: readonly IndexDoc[], plan: QueryPlan, random: () => number): CalibrationQuery[] {
  const eligible: CalibrationQuery[] = [];
  for (const doc of docs) {
    if (!isSummaryCandidate(doc)) continue;
    const terms = summaryTerms(doc);
    if (terms.length < MIN_SUMMARY_TERMS) continue;
    eligible.push({ kind: "doc_summary", terms, target: doc.id, heldout: isHeldout(doc.id, plan.heldoutPercent) });
  }
  return shuffled(eligible, random).slice(0, plan.maxSummaryQueries);
}

function randomLength(random: () => number): number {
  return MIN_RANDOM_TERMS + randomInt(random, MAX_RANDOM_TERMS - MIN_RANDOM_TERMS + 1);
}

function randomWordTerms(random: () => number): string[] {
  const words = Array.from({ length: randomLength(random) }, () => RANDOM_QUERY_WORDS[randomInt(random, RANDOM_QUERY_WORDS.length)]);
  return tokenize(words.join(" "));
}

/** A plain word, not a whole identifier: a query naming a symbol would find it, which is no chance match. */
function isPlainWord(index: LexicalIndex, term: string): boolean {
  return /^[a-z]+$/.test(term) && index.findSymbol(term, { ignoreCase: true }).length === 0;
}

/** Corpus words drawn by document frequency, so common words that co-occur by chance are well represented. */
function corpusTokenTerms(index: LexicalIndex, random: () => number): string[] {
  const terms: string[] = [];
  const wanted = randomLength(random);
  for (let draw = 0; draw < wanted * MAX_DRAWS_PER_TERM && terms.length < wanted && index.postingCount > 0; draw++) {
    const term = index.termOfPosting(randomInt(random, index.postingCount));
    if (isPlainWord(index, term)) terms.push(term);
  }
  return terms;
}

function randomQueries(index: LexicalIndex, count: number, plan: QueryPlan, random: () => number): CalibrationQuery[] {
  const out: CalibrationQuery[] = [];
  for (let i = 0; i < count; i++) {
    const kind: CalibrationQueryKind = i % 2 === 0 ? "random_words" : "corpus_tokens";
    const terms = kind === "random_words" ? randomWordTerms(random) : corpusTokenTerms(index, random);
    out.push({ kind, terms, heldout: isHeldout(`random:${plan.seed}:${i}`, plan.heldoutPercent) });
  }
  return out;
}

/** Doc-summary queries (a seeded sample of at most maxSummaryQueries) followed by random ones. */
export function buildCalibrationQueries(index: LexicalIndex, docs: readonly IndexDoc[], plan: QueryPlan): CalibrationQuery[] {
  const random = mulberry32(plan.seed);
  const positives = summaryQueries(docs, plan, random);
  const negatives = randomQueries(index, Math.round(positives.length * plan.negativeRatio), plan, random);
  return [...positives, ...negatives];
}
