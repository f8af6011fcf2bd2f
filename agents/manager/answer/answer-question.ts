// A question answered by the call-graph search: parse it once, find its start in one fan-out round, trace
// the chain (forward, or backwards for "who calls"), check every step, and return the traced path with the
// hop records, the decisions and the safety block of every multi-hop answer.
import { parseQuestion } from "../../search/question.js";
import { DEPTH_COST } from "../../search/relevance.js";
import { checkChain, type ChainCheck } from "../validation/index.js";
import type { HashSources } from "../validation/hash-check.js";
import { MultiHopError, unknownScope, type HopRecord, type MultiHopResult } from "./result.js";
import { findQueryPath, type ScopeGraph } from "../../../topology/index.js";
import { chainAnswer } from "./chain-answer.js";
import { entryRound, type AskEntry, type ScoredCandidate } from "../entry/entry-round.js";
import type { PublicSurface } from "../entry/public-surface.js";
import { traceCallers } from "../search/trace-callers.js";
import { memoizeExpand } from "../search/expand-memo.js";
import { climbCallers } from "../search/climb-callers.js";
import { fromNamedStep } from "../search/named-start.js";
import { anchored, bestStart, calledCandidate, COVERAGE_TIE, startBeam, startThreshold } from "./start-choice.js";
import { tooLittle } from "./too-little.js";
import { traceForward, type ChainStep, type SearchDecision, type TraceDeps, type TraceOutcome, type TracedHop } from "../search/trace-chain.js";

/** Coverage of the question at or above which a verified chain is reported with high, then medium, confidence. */
export const HIGH_CONFIDENCE_COVERAGE = 0.6;
export const MEDIUM_CONFIDENCE_COVERAGE = 0.35;

/** Start candidates listed in the start decision besides the chosen one. */
const RUNNERS_UP = 3;

export interface SearchAnswerDeps extends TraceDeps {
  scopes: readonly string[];
  askEntry: AskEntry;
  hashSources: HashSources;
  /** The TS/JS public surface of the fleet's code (ScopeMap.surface), for the start's prior. */
  surface?: PublicSurface | null;
  /** The code base's names (project-name.ts): a question's words naming the project weigh as words every function has. */
  project?: ReadonlySet<string>;
  /** Store a hop's full output (written behind the answer); returns its reference at once. */
  storeHop: (hop: number, output: unknown) => string;
}

export interface SearchAnswerRequest {
  id: string;
  question: string;
  from?: string;
  to?: string;
  maxHops: number;
}


function startDecision(start: ScoredCandidate, candidates: readonly ScoredCandidate[], from: string | undefined): SearchDecision {
  const others = candidates.filter((c) => c !== start).slice(0, RUNNERS_UP).map((c) => `${c.qualified} [${c.scope}] ${c.score.toFixed(2)}`);
  const limited = from ? ` (limited to ${from} by --from)` : "";
  return { at: "start", detail: `${start.qualified} (${start.file_path}:${start.line_start}) in ${start.scope}${limited}: relevance ${start.score.toFixed(2)} — ${start.why || "no term matched"}${others.length > 0 ? `; next: ${others.join(", ")}` : ""}` };
}

function confidenceOf(outcome: MultiHopResult["outcome"], coverage: number): "high" | "medium" | "low" {
  if (outcome !== "chain") return "low";
  return coverage >= HIGH_CONFIDENCE_COVERAGE ? "high" : coverage >= MEDIUM_CONFIDENCE_COVERAGE ? "medium" : "low";
}

type HopCitation = HopRecord["citations"][number];

/**
 * Each hop cites what lies in its own scope: its steps, the call lines inside them, and the call line in its
 * last step that leaves for the next hop (that line is in this scope's file, not the next one's).
 */
function citationsByHop(hops: readonly TracedHop[], kept: ReadonlySet<ChainStep>): HopCitation[][] {
  const out = hops.map((): HopCitation[] => []);
  hops.forEach((hop, i) => {
    for (const [k, s] of hop.steps.entries()) {
      if (!kept.has(s)) continue;
      if (s.call_site) {
        const owner = k === 0 && s.role === "callee" && i > 0 ? i - 1 : i;
        out[owner]?.push({ file_path: s.call_site.file_path, line_start: s.call_site.line, line_end: s.call_site.line, sha256: s.call_site.sha256, similarity: 1, similarity_kind: "exact", overlay: "O3" });
        // The line storing the callee into the field a call goes through is in the callee's scope (for a
        // caller, the called function's: the first hop's).
        const alias = s.call_site.alias_at;
        // The re-export naming the callee is in the calling file's scope, as its call line is.
        if (alias) out[owner]?.push({ file_path: alias.file_path, line_start: alias.line, line_end: alias.line, sha256: alias.sha256, similarity: 1, similarity_kind: "exact", overlay: "O3" });
        const bound = s.call_site.bound_at;
        if (bound) out[s.role === "caller" ? 0 : i]?.push({ file_path: bound.file_path, line_start: bound.line, line_end: bound.line, sha256: bound.sha256, similarity: 1, similarity_kind: "exact", overlay: "O3" });
      }
      out[i]?.push({ file_path: s.file_path, line_start: s.line_start, line_end: s.line_end, sha256: s.sha256, similarity: 1, similarity_kind: "exact", overlay: "O1" });
    }
  });
  return out;
}

function hopRecord(hop: TracedHop, index: number, kept: ReadonlySet<ChainStep>, citations: HopCitation[], check: ChainCheck, outputRef: string, question: string): HopRecord {
  const steps = hop.steps.filter((s) => kept.has(s));
  const cutHere = hop.steps.length > steps.length;
  return {
    hop: index,
    scope: hop.scope,
    agent: hop.agent,
    question: `${question} (${hop.args.mode === "callers" ? `where is ${hop.args.from.symbol} called here?` : `paths from ${hop.args.from.symbol}`})`,
    focus: [hop.args.from.symbol],
    status: hop.result.resolved ? "completed" : "failed",
    key_findings: steps.map((s) => (s.call_site ? `${s.symbol} (${s.file_path}:${s.line_start}-${s.line_end}), called at ${s.call_site.file_path}:${s.call_site.line}` : `${s.symbol} (${s.file_path}:${s.line_start}-${s.line_end})`)),
    citations,
    confidence: null,
    verdict: {
      status: cutHere ? "rejected" : "accepted",
      // A hash that does not match is a fabricated citation; an edge whose line does not call the callee, an invalid answer.
      code: cutHere ? (check.cut?.reason.includes("hash") || check.cut?.reason.includes("exist") ? "FABRICATED_CITATION" : "INVALID_RESPONSE") : undefined,
      reasons: cutHere && check.cut ? [check.cut.reason] : [],
      warnings: [],
      citations_checked: citations.length,
      citations_verified: cutHere ? 0 : citations.length,
    },
    output_ref: outputRef,
    failovers: hop.failovers,
  };
}

/** A planned route that cannot exist is refused before any hop runs, with the reason. */
function checkRoute(graph: ScopeGraph, from: string, to: string, maxHops: number): void {
  const found = findQueryPath(graph, from, to, { maxHops: maxHops - 1 });
  if (!found.ok) throw new MultiHopError(found.reason === "hop_limit" ? "hop_limit" : found.reason === "unknown_scope" ? "unknown_scope" : "no_path", found.detail);
}

export async function answerBySearch(given: SearchAnswerDeps, request: SearchAnswerRequest): Promise<MultiHopResult> {
  const started = Date.now();
  // The starts traced side by side and the exits looked into ask the same expansions often: once each.
  const memo = memoizeExpand(given.expand);
  const deps: SearchAnswerDeps = { ...given, expand: memo.expand };
  for (const scope of [request.from, request.to]) if (scope !== undefined && !deps.scopes.includes(scope)) throw unknownScope(scope, deps.scopes);
  const parsed = parseQuestion(request.question);
  const round = await entryRound(parsed, request.from ? [request.from] : deps.scopes, deps.askEntry, deps.surface, deps.project);
  const decisions: SearchDecision[] = round.failed.map((f) => ({ at: "skip", detail: `${f.scope} did not answer the entry round: ${f.reason}` }));
  if (round.unmatched.length > 0) decisions.push({ at: "start", detail: `no function of the fleet has these words of the question in its name, class, file, directory or doc: ${round.unmatched.join(", ")}` });
  const fragments = new Set(parsed.terms.filter((t) => t.fragment).map((t) => t.term));
  const anchoredCandidates = round.candidates.filter((c) => anchored(c, fragments));
  const callers = parsed.intent === "callers" && !request.to;
  const called = callers ? calledCandidate(round.question, anchoredCandidates) : undefined;
  const start = called ?? anchoredCandidates[0];
  let outcome: TraceOutcome;
  // A function whose whole name the who-calls question writes is where it starts, however little else of
  // the question its own description holds.
  const threshold = startThreshold(round.question);
  if (!start || (start.score < threshold && !called)) {
    const best = start
      ? `the best entry point, ${start.qualified} in ${start.scope}, matches only ${start.score.toFixed(2)} of it (${start.why}); below ${threshold.toFixed(2)}`
      : round.candidates[0]
        ? `no function matches any of its words in full by its name, class or file (the nearest, ${round.candidates[0].qualified} in ${round.candidates[0].scope}: ${round.candidates[0].why})`
        : "no scope has a function matching any of its terms";
    const stopped = `the question matches no code well enough to start: ${best}`;
    outcome = { steps: [], hops: [], decisions: [{ at: "end", detail: `no chain reported: ${stopped}` }], coverage: 0, stopped_because: stopped };
  } else {
    if (request.to) checkRoute(deps.graph, start.scope, request.to, request.maxHops);
    const scopeScores = new Map<string, number>();
    for (const c of round.candidates) if (!scopeScores.has(c.scope)) scopeScores.set(c.scope, c.score);
    const traceFrom = (from: ScoredCandidate) => ({ question: round.question, start: from, scopeScores, candidates: round.candidates, maxHops: request.maxHops, ...(request.to ? { to: request.to } : {}) });
    if (callers || request.to) {
      decisions.push(startDecision(start, anchoredCandidates, request.from));
      outcome = await (callers ? traceCallers(deps, traceFrom(start)) : traceForward(deps, traceFrom(start)));
    } else {
      // The start is the candidate whose traced chain covers most of the question: the best single match
      // may be where the question ends ("… all the way down to setInterval"), not where it starts.
      const starts = startBeam(round.question, anchoredCandidates);
      const traced = await Promise.all(starts.map((from) => traceForward(deps, traceFrom(from))));
      const { best, byName, upstream, byUser, value } = bestStart(round.question, starts, traced);
      // A chain that begins at a function the question names, reached from the best start, is traced from
      // that function when it was a start of its own: the scopes before it were visited, not cited, and
      // must not bar the chain from going back into them.
      const named = fromNamedStep(round.question, traced[best] as TraceOutcome);
      const own = named ? starts.findIndex((s) => s.file_path === named.steps[0]?.file_path && s.line_start === named.steps[0]?.line_start) : -1;
      const kept = own >= 0 ? own : best;
      outcome = await climbCallers(deps, round.question, traced[kept] as TraceOutcome, request.maxHops);
      decisions.push(startDecision(starts[kept] as ScoredCandidate, anchoredCandidates, request.from));
      if (starts.length > 1) decisions.push({ at: "start", detail: `traced from ${starts.length} starts, kept the chain covering most of the question, less ${DEPTH_COST} for each step adding less, times its start's place prior: ${starts.map((c, i) => `${c.qualified} [${c.scope}] ${value(traced[i] as TraceOutcome, i).toFixed(2)}`).join(", ")}${byName ? `; ${starts[best]?.qualified}'s is within ${COVERAGE_TIE} of the best and the question writes its name as code` : ""}${byUser ? `; the question says the user calls ${starts[best]?.qualified}, so its chain is kept` : ""}${upstream ? `; ${starts[best]?.qualified}'s passes through the best one's start and is worth more` : ""}${kept !== best ? `; ${starts[best]?.qualified}'s chain reaches ${starts[kept]?.qualified}, which the question names, so the chain traced from it is kept` : ""}` });
    }
  }
  decisions.push(...outcome.decisions);
  const ending = tooLittle(round.question, outcome);
  if (ending) {
    decisions.push({ at: "end", detail: `no chain reported: ${ending}` });
    outcome = { steps: [], hops: [], decisions: [], coverage: outcome.coverage, stopped_because: `the question matches no code well enough: ${ending}` };
  }
  const check = await checkChain(outcome.steps, deps.hashSources);
  const steps = outcome.steps.slice(0, check.kept);
  const kept = new Set(steps);
  const result: MultiHopResult["outcome"] = steps.length === 0 ? "no_chain" : check.cut ? "partial" : "chain";
  const confidence = confidenceOf(result, outcome.coverage);
  const cited = citationsByHop(outcome.hops, kept);
  const knowledgeChain = outcome.hops.map((hop, i) => hopRecord(hop, i, kept, cited[i] ?? [], check, deps.storeHop(i, { op: "expand", args: hop.args, result: hop.result, agent: hop.agent }), request.question));
  const stopped = check.cut ? `the chain was cut at ${check.cut.reason}` : outcome.stopped_because;
  return {
    id: request.id,
    question: request.question,
    mode: "traced",
    query_path: outcome.hops.map((h) => h.scope),
    knowledge_chain: knowledgeChain,
    chain: steps.map(({ why: _why, role: _role, kind: _kind, ...step }) => step),
    outcome: result,
    confidence,
    coverage: Math.round(outcome.coverage * 100) / 100,
    decisions,
    answer: chainAnswer({ steps, outcome: result, confidence, coverage: outcome.coverage, decisions, stopped_because: stopped, cut: check.cut?.reason ?? null, callers }),
    total_agents_queried: new Set(outcome.hops.map((h) => h.agent)).size,
    safety: { max_hops: request.maxHops, actual_hops: outcome.hops.length, visited_agents: outcome.hops.map((h) => h.agent), stopped_because: stopped },
    elapsed_ms: Date.now() - started,
    cost: { entry_requests: request.from ? 1 : deps.scopes.length, expansions: memo.stats.sent + memo.stats.shared, expansions_shared: memo.stats.shared, expansions_by_kind: { ...memo.stats.kinds } },
  };
}
