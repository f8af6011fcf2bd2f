// Where a traced answer starts: the entry candidates a start may be (anchored, scoring at least what the
// question's length asks, startThreshold), the beam of starts traced side by side (startBeam), the function
// a who-calls question names (calledCandidate), and which start's chain answers (bestStart, chainCost).
import type { ParsedQuestion } from "../../search/question.js";
import { CODE_USE_STRENGTH, DEPTH_COST, FIELD_STRENGTH } from "../../search/relevance.js";
import type { ScoredCandidate } from "../entry/entry-round.js";
import { firstNamed, namedByQuestion, userCalled } from "../search/named-start.js";
import type { TraceOutcome } from "../search/trace-chain.js";

/**
 * A function is traced as a start only if it matches at least this much of a question of up to
 * START_FULL_TERMS terms: below it, it merely shares a word with it.
 */
export const START_THRESHOLD = 0.15;
/**
 * A question of more terms than this needs of a start only as much as START_THRESHOLD of a question this
 * long: one function names a few of the question's words, and a question that says where the code runs, on
 * which hardware and with which options ("On a board whose eMMC sits behind the DesignWare controller, how
 * does a read request …", 20 terms) leaves each function a smaller share of it. The chain, which covers
 * more of it, is still held to NO_CHAIN_THRESHOLD (too-little.ts, scaled past NO_CHAIN_FULL_TERMS) before it is reported.
 */
export const START_FULL_TERMS = 12;

/** What a start must match of this question: START_THRESHOLD, scaled down for a question of more than START_FULL_TERMS terms. */
export function startThreshold(question: Pick<ParsedQuestion, "terms">): number {
  return START_THRESHOLD * Math.min(1, START_FULL_TERMS / Math.max(1, question.terms.length));
}
/**
 * A chain starts only where the code names something the question asks about: a term matched in full
 * (not as part of a longer word) by the function's name, class or file, and a term the question writes as
 * a word of its own, not a fragment of one: "OpenGL shaders" matching the `open` of `e1000_open` is not a
 * place to start.
 */
export function anchored(candidate: Pick<ScoredCandidate, "matches">, fragments: ReadonlySet<string> = new Set()): boolean {
  // A body using, whole, an identifier the question writes (`responseSchema`) names it too.
  return candidate.matches.some((m) => (m.strength >= FIELD_STRENGTH.file || (m.field === "body" && m.strength >= CODE_USE_STRENGTH)) && !fragments.has(m.term));
}

/**
 * Starts traced for a "how" question: the best entry candidates, each a different function, at or above
 * START_THRESHOLD; and the best function the question writes as code, when it is not among them (a common
 * word's name, `schedule()` among the kernel's hundreds of `sched_*` functions, scores low and is still
 * where the question says the path is).
 */
export const START_BEAM = 5;
/**
 * A start whose entry score is below this share of the best one's is not traced: it would cost its own
 * expansions and look-aheads and, on the grounding benchmark (2026-11-28, 195 "how" questions), the kept
 * start never scored below 0.58 of the best, and leaving such starts out changed no answer. The function
 * the question writes as code is traced whatever its score.
 */
export const START_RATIO = 0.5;
/** A later start wins only if its chain covers more of the question by this much (an earlier one wins ties). */
export const COVERAGE_TIE = 0.02;

/** A function (not a class: a class says what, not where) whose whole name the question writes as code. */
function writtenAsCode(question: Pick<ParsedQuestion, "terms" | "text" | "names">, candidate: Pick<ScoredCandidate, "kind" | "matches"> | undefined): boolean {
  return candidate !== undefined && candidate.kind !== "class" && namedByQuestion(question, candidate.matches);
}

export function startBeam(question: Pick<ParsedQuestion, "terms" | "text" | "names">, candidates: readonly ScoredCandidate[]): ScoredCandidate[] {
  const out: ScoredCandidate[] = [];
  const best = candidates[0]?.score ?? 0;
  const threshold = startThreshold(question);
  for (const c of candidates) {
    if (c.score < threshold || c.score < START_RATIO * best || out.length >= START_BEAM) break;
    if (!out.some((o) => o.scope === c.scope && o.qualified === c.qualified)) out.push(c);
  }
  const named = (c: ScoredCandidate) => writtenAsCode(question, c);
  const written = out.some(named) ? undefined : candidates.find((c) => c.score >= threshold && named(c));
  if (written) out.push(written);
  return out;
}

/**
 * "Who calls X?" is answered from X: the best candidate whose whole name is the name the question writes,
 * when one is among them, though a function using X in a body that holds more of the question's words
 * ("Which code starts … the garbage-collection countdown … by calling scheduleGc?") scores higher, and
 * whatever its score (START_THRESHOLD): the question names it.
 */
export function calledCandidate(question: ParsedQuestion, candidates: readonly ScoredCandidate[]): ScoredCandidate | undefined {
  const named = firstNamed(question);
  return named ? candidates.find((c) => c.kind !== "class" && named(c.matches)) : undefined;
}
/**
 * Which start's chain answers: the one covering most of the question, less what its steps cost (chainCost),
 * times its start's place prior (test code, outside the public surface) as the start was weighed. A later
 * start must beat an earlier one by COVERAGE_TIE; and of chains worth the same, the one from a function the
 * question writes as code (`exit()`) wins: the question says it starts there. A start the question says the
 * user calls ("When my driver calls crypto_alloc_skcipher(…)") wins whatever the others are worth. A class it names
 * (`ProcessPoolExecutor`) says what, not where (a class starts from its methods).
 */
export function bestStart(question: Pick<ParsedQuestion, "terms" | "text" | "names">, starts: readonly ScoredCandidate[], traced: readonly Pick<TraceOutcome, "coverage" | "steps" | "gains">[]): { best: number; byName: boolean; upstream: boolean; byUser?: boolean; value: (o: Pick<TraceOutcome, "coverage" | "steps" | "gains">, i: number) => number } {
  const value = (o: Pick<TraceOutcome, "coverage" | "steps" | "gains">, i: number) => (o.coverage - chainCost(o)) * (starts[i]?.prior ?? 1);
  const worth = (i: number) => value(traced[i] as TraceOutcome, i);
  // The function the question says the user calls is where its path begins (named-start.ts, userCalled).
  const calledByUser = userCalled(question);
  const called = calledByUser ? starts.findIndex((s) => s.kind !== "class" && calledByUser(s.matches)) : -1;
  if (called >= 0) return { best: called, byName: false, upstream: false, byUser: true, value };
  let best = 0;
  for (let i = 1; i < traced.length; i++) if (worth(i) > worth(best) + COVERAGE_TIE) best = i;
  const named = (i: number) => writtenAsCode(question, starts[i]);
  if (!named(best)) {
    const tied = traced.findIndex((_, i) => named(i) && worth(i) >= worth(best) - COVERAGE_TIE);
    if (tied >= 0) return { best: tied, byName: true, upstream: false, value };
  }
  // A chain passing through the best's start is its path from further up: worth more by any margin, less
  // than COVERAGE_TIE too, its steps above that start add to the question more than they cost, so the
  // behaviour begins there (unless the question names the best's start).
  const above = named(best) ? [] : upstreamOf(starts, traced, best).filter((i) => worth(i) > worth(best));
  const up = above.sort((a, b) => worth(b) - worth(a) || a - b)[0];
  return up === undefined ? { best, byName: false, upstream: false, value } : { best: up, byName: false, upstream: true, value };
}

/** The starts whose traced chains pass through start `of`'s function after their first step. */
function upstreamOf(starts: readonly Pick<ScoredCandidate, "file_path" | "line_start">[], traced: readonly Pick<TraceOutcome, "steps">[], of: number): number[] {
  const at = starts[of];
  if (!at) return [];
  return traced.flatMap((o, i) => (i !== of && o.steps.slice(1).some((s) => s.file_path === at.file_path && s.line_start === at.line_start) ? [i] : []));
}

/**
 * What a chain's length costs: DEPTH_COST for each step after the first, less what the step adds to the
 * coverage, up to the last step that adds anything. A long chain that picks up words on its way through
 * steps adding nothing (a BPF redirect back to dev_queue_xmit) does not beat a short one from the function
 * the question names; a chain whose every step adds to the question pays nothing for its length; and the
 * steps past the last that adds — the path going on into the function that does the work — are free.
 * Without per-step gains (a chain not traced forward), every step after the first costs DEPTH_COST.
 */
export function chainCost(o: Pick<TraceOutcome, "steps" | "gains">): number {
  if (!o.gains) return DEPTH_COST * Math.max(0, o.steps.length - 1);
  const last = o.gains.findLastIndex((g) => g > 0);
  return o.gains.slice(1, last + 1).reduce((sum, g) => sum + Math.max(0, DEPTH_COST - g), 0);
}
