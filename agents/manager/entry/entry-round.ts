// Where a question starts: one fan-out round asks every scope for its best entry points, the question's
// term weights learn how rare each term is across the whole fleet, and every candidate is scored again
// on that one scale (agents/search/relevance.ts), so candidates from different scopes compare.
import { parseEntryResult, type EntryCandidate, type EntryResult } from "../../protocol/index.js";
import { type ParsedQuestion } from "../../search/question.js";
import { destinationTerms, settingTerms } from "../../search/question-roles.js";
import { explainMatches, placePrior, relevance, unexplainedWords } from "../../search/relevance.js";
import { tokenize } from "../../pgc/retrieval/index.js";
import { projectTerms } from "./project-name.js";
import type { PublicSurface } from "./public-surface.js";
import { subjectPriors } from "./subject.js";

/** Entry candidates asked of each scope. */
export const ENTRY_TOP_K = 8;
/** Requests of one round in flight at once: a 100-worker fleet is asked in four waves, not all at once. */
export const ENTRY_CONCURRENCY = 32;
/** How long one scope may take to answer `entry` before the round goes on without it. */
export const ENTRY_TIMEOUT_MS = 5_000;
/** A term every function matches still counts this much of its prior: rarity scales, it never erases. */
export const RARITY_FLOOR = 0.2;

export interface ScoredCandidate extends EntryCandidate {
  scope: string;
  score: number;
  /** The place's prior the score was multiplied by (test code, outside the public surface or the question's subject), 1 when none. */
  prior: number;
  why: string;
}

/**
 * A TS/JS function outside the package's public surface (what its entry module re-exports: not a legacy
 * copy, a subpath variant, a benchmark) counts this much as a start, unless the question names its
 * directory or file (`In the Zod 3 API…` matches `src/v3/`).
 */
export const OUTSIDE_SURFACE_PRIOR = 0.7;

function surfacePrior(candidate: Pick<EntryCandidate, "file_path" | "matches">, surface: PublicSurface | null | undefined): number {
  if (!surface || surface.has(candidate.file_path)) return 1;
  return candidate.matches.some((m) => m.field === "dir" || m.field === "file") ? 1 : OUTSIDE_SURFACE_PRIOR;
}

export interface EntryRound {
  /** The question with its weights scaled by fleet-wide rarity. */
  question: ParsedQuestion;
  candidates: ScoredCandidate[];
  /** Scopes that did not answer, with why. */
  failed: { scope: string; reason: string }[];
  /** The question's terms no function of the fleet has in its name, class, file, directory or doc (df 0 everywhere). */
  unmatched: string[];
}

export type AskEntry = (scope: string, args: { question: ParsedQuestion; top_k: number }) => Promise<unknown>;

/** Runs `work` over `items` with at most `limit` in flight. */
export async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i] as T);
  });
  await Promise.all(lanes);
  return out;
}

/**
 * Fleet-wide rarity: a term matched by few of all the fleet's functions says more about where the answer is
 * than one most of them match. rarity = ln((N + 1) / (df + 1)) / ln(N + 1), in [0, 1]; the weight becomes
 * prior × (RARITY_FLOOR + (1 − RARITY_FLOOR) × rarity). A term no function matches keeps its full weight:
 * the question asks for something the code may not have, and coverage should say so. But a hyphenated
 * compound of the prose ("key-exchange", "delayed-allocation", "re-run") that no function matches weighs
 * nothing: its words are terms of the question too and say what it says (code writes `kex`, `key_exchange`,
 * `delalloc`), and as a term of its own it only lowered what every function covers. And a term naming the
 * project (`project`, project-name.ts: "ProseMirror", "TanStack" in a code base under `src/`) that no
 * function matches is read as matched by every function: the whole code base is the project's, and an
 * unmatched term kept at full weight made every chain cover too little of the question to be reported.
 */
export function withRarity(question: ParsedQuestion, results: readonly Pick<EntryResult, "nodes" | "df">[], project: ReadonlySet<string> = new Set()): ParsedQuestion {
  const total = results.reduce((sum, r) => sum + r.nodes, 0);
  if (total === 0) return question;
  const norm = Math.log(total + 1);
  const terms = question.terms.map((t) => {
    let df = results.reduce((sum, r) => sum + (r.df[t.term] ?? 0), 0);
    if (df === 0 && project.has(t.term)) df = total;
    if (df === 0 && !t.name && t.term.includes("-")) return { ...t, weight: 0 };
    const rarity = Math.min(1, Math.max(0, Math.log((total + 1) / (df + 1)) / norm));
    return { ...t, weight: t.weight * (RARITY_FLOOR + (1 - RARITY_FLOOR) * rarity) };
  });
  return { ...question, terms };
}

/**
 * A term the question uses only for where its path ends counts this much of its weight when choosing where
 * the path starts (the chain must still reach it: coverage counts it whole).
 */
export const DESTINATION_START_PRIOR = 0.5;

/**
 * The question as entry candidates are scored: the terms of its destination and of how the user set things
 * up (settingTerms: "I registered http.get(…)") weigh DESTINATION_START_PRIOR.
 */
export function asStartQuestion(question: ParsedQuestion): ParsedQuestion {
  const aside = new Set([...destinationTerms(question), ...settingTerms(question)]);
  if (aside.size === 0) return question;
  return { ...question, terms: question.terms.map((t) => (aside.has(t.term) ? { ...t, weight: t.weight * DESTINATION_START_PRIOR } : t)) };
}

export async function entryRound(question: ParsedQuestion, scopes: readonly string[], ask: AskEntry, surface?: PublicSurface | null, projectNames: ReadonlySet<string> = new Set()): Promise<EntryRound> {
  const failed: EntryRound["failed"] = [];
  const startQuestion = asStartQuestion(question);
  const answers = await bounded(scopes, ENTRY_CONCURRENCY, async (scope) => {
    try {
      return parseEntryResult(await ask(scope, { question: startQuestion, top_k: ENTRY_TOP_K }));
    } catch (error) {
      failed.push({ scope, reason: (error as Error).message });
      return null;
    }
  });
  const results = answers.filter((r): r is EntryResult => r !== null);
  const project = projectTerms(question.text, projectNames);
  const weighted = withRarity(question, results, project);
  const asStart = withRarity(startQuestion, results, project);
  const subject = subjectPriors(question.text, results.flatMap((r) => r.candidates));
  const candidates = results
    .flatMap((r) =>
      r.candidates.map((c) => {
        const outside = surfacePrior(c, surface);
        const elsewhere = subject.prior(c);
        const prior = placePrior(c.file_path, weighted) * outside * elsewhere;
        const why = `${explainMatches(c.matches)}${outside < 1 ? `; outside the public surface ×${outside}` : ""}${elsewhere < 1 ? `; outside the question's subject, ${subject.subject}, ×${elsewhere}` : ""}`;
        return { ...c, scope: r.scope, score: relevance(asStart, c.matches) * prior, prior, why };
      }),
    )
    .sort(byScore);
  const unmatched = results.length === 0 ? [] : question.terms.filter((t) => !project.has(t.term) && results.every((r) => (r.df[t.term] ?? 0) === 0)).map((t) => t.term);
  return { question: weighted, candidates, failed, unmatched };
}

/**
 * Best first; of equal scores, the one whose name — a method's with its class's — says less the question
 * does not ask about (`ext4_journal_start` before `ext4_journal_start_reserved`, `FormApi.setFieldValue`
 * before `FormGroupApi.setFieldValue`), then the smaller unit (a method before its class), then by scope
 * and place.
 */
export function byScore(a: ScoredCandidate, b: ScoredCandidate): number {
  return b.score - a.score || unexplainedOf(a) - unexplainedOf(b) || a.line_end - a.line_start - (b.line_end - b.line_start) || a.scope.localeCompare(b.scope) || a.file_path.localeCompare(b.file_path) || a.line_start - b.line_start;
}

/** Each candidate's count, once rather than at every comparison of a sort. */
const unexplained = new WeakMap<object, number>();

function unexplainedOf(candidate: Pick<ScoredCandidate, "qualified" | "matches">): number {
  let n = unexplained.get(candidate);
  if (n === undefined) unexplained.set(candidate, (n = unexplainedWords(new Set(tokenize(candidate.qualified)), candidate.matches)));
  return n;
}
