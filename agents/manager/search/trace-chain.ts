// The manager's part of the distributed search: from the chosen entry, ask the owning worker for its best
// local paths and their exits, continue the best exit in the scope that owns its callee, and so on, under
// the hop budget and cycle guard that also travel on the wire. Every choice is kept as a decision.
import { findQueryPath, type ScopeGraph } from "../../../topology/index.js";
import { parseExpandResult, type CallSiteRef, type ExpandArgs, type ExpandResult, type SearchLead, type SearchStep } from "../../protocol/index.js";
import type { ParsedQuestion } from "../../search/question.js";
import { cover, coverageShare, explainMatches, type Coverage } from "../../search/relevance.js";
import { ownersOfEntity, type Ownership } from "../question-names.js";
import type { ScoredCandidate } from "./entry-round.js";

/**
 * An exit is followed only when its score (what its callee's name adds to the question, plus half its
 * relevance, less 0.02 a call of depth) reaches this: below it, the call names nothing the question asks
 * about (a lock, a free, a print), and the chain ends where it is.
 */
export const FOLLOW_THRESHOLD = 0.1;
/** Exits tried in turn when the best one's scope does not define the callee as a function. */
export const EXIT_ALTERNATIVES = 3;
/** A callee defined by more scopes than this, with nothing to tell them apart, is not followed. */
export const MAX_AMBIGUOUS_OWNERS = 3;

export interface ChainStep {
  scope: string;
  agent: string;
  symbol: string;
  kind: string;
  file_path: string;
  line_start: number;
  line_end: number;
  sha256: string;
  /**
   * How the step joins the chain: `entry` (the start), `callee` (`call_site` is the line in the previous
   * step's body that calls it), `caller` (a "who calls" answer: `call_site` is the line in its own body
   * that calls the chain's first step).
   */
  role: "entry" | "callee" | "caller";
  call_site: CallSiteRef | null;
  why: string;
}

export interface SearchDecision {
  at: "start" | "exit" | "end" | "gap" | "skip";
  detail: string;
}

export interface TracedHop {
  scope: string;
  agent: string;
  args: ExpandArgs;
  result: ExpandResult;
  /** The steps this hop added to the chain. */
  steps: ChainStep[];
  failovers: number;
}

export interface TraceOutcome {
  steps: ChainStep[];
  hops: TracedHop[];
  decisions: SearchDecision[];
  coverage: number;
  stopped_because: string;
}

export interface Trail {
  path: string[];
  hops: number;
  maxHops: number;
}

export interface TraceDeps {
  managerId: string;
  ownership: Ownership;
  graph: ScopeGraph;
  expand: (scope: string, args: ExpandArgs, trail: Trail) => Promise<{ result: unknown; agent: string; failovers: number }>;
}

export interface TraceRequest {
  question: ParsedQuestion;
  start: ScoredCandidate;
  /** Best entry score per scope, from the entry round: tells apart scopes that define the same name. */
  scopeScores: ReadonlyMap<string, number>;
  maxHops: number;
  to?: string;
}

const fmt = (n: number) => n.toFixed(2);

export function toStep(step: SearchStep, scope: string, agent: string, callSite: CallSiteRef | null, role?: ChainStep["role"]): ChainStep {
  return { scope, agent, role: role ?? (callSite ? "callee" : "entry"), symbol: step.qualified, kind: step.kind, file_path: step.file_path, line_start: step.cite.line_start, line_end: step.cite.line_end, sha256: step.cite.sha256, call_site: callSite, why: explainMatches(step.matches) };
}

/** The scope that owns an exit's callee, or why none can be chosen. */
export function ownerOfExit(exit: NonNullable<SearchLead["exit"]>, from: string, deps: Pick<TraceDeps, "ownership">, scopeScores: ReadonlyMap<string, number>): { scope: string } | { none: string } {
  const definers = deps.ownership.ownersOf(exit.target).filter((s) => s !== from);
  const byModule = exit.module && !exit.module.startsWith(".") ? ownersOfEntity(deps.ownership, exit.module).filter((s) => s !== from) : [];
  const both = byModule.filter((s) => definers.includes(s));
  const pool = both.length > 0 ? both : definers.length > 0 ? definers : byModule;
  if (pool.length === 0) return { none: `no other scope defines ${exit.target}` };
  if (pool.length === 1) return { scope: pool[0] as string };
  if (pool.length > MAX_AMBIGUOUS_OWNERS) return { none: `${pool.length} scopes define ${exit.target}` };
  const ranked = [...pool].sort((a, b) => (scopeScores.get(b) ?? 0) - (scopeScores.get(a) ?? 0) || a.localeCompare(b));
  return { scope: ranked[0] as string };
}

interface Next {
  scope: string;
  symbol: string;
  module?: string;
  callSite: CallSiteRef | null;
}

export async function traceForward(deps: TraceDeps, request: TraceRequest): Promise<TraceOutcome> {
  const { question } = request;
  const decisions: SearchDecision[] = [];
  const steps: ChainStep[] = [];
  const hops: TracedHop[] = [];
  const visited = new Set<string>();
  const plan = request.to ? plannedScopes(deps.graph, request.start.scope, request.to, request.maxHops) : null;
  let covered: Coverage = new Map();
  let next: Next | null = { scope: request.start.scope, symbol: request.start.qualified, callSite: null };
  let fileHint: { file_path: string; line: number } | null = { file_path: request.start.file_path, line: request.start.line_start };
  let stopped = "";
  while (next) {
    if (hops.length >= request.maxHops) {
      stopped = `hop budget of ${request.maxHops} spent`;
      break;
    }
    visited.add(next.scope);
    const args: ExpandArgs = {
      question,
      mode: "forward",
      from: { symbol: next.symbol, ...(fileHint ? { file_path: fileHint.file_path, line: fileHint.line } : {}), ...(next.module ? { module: next.module } : {}) },
      covered: Object.fromEntries(covered),
    };
    const trail: Trail = { path: [deps.managerId, ...hops.map((h) => h.agent)], hops: hops.length + 1, maxHops: request.maxHops };
    const answered = await deps.expand(next.scope, args, trail);
    const result = parseExpandResult(answered.result);
    const hop: TracedHop = { scope: next.scope, agent: answered.agent, args, result, steps: [], failovers: answered.failovers };
    hops.push(hop);
    if (!result.resolved || result.leads.length === 0) {
      stopped = `${next.scope} does not define ${next.symbol} as a function it can follow`;
      break;
    }
    const choice = chooseExit(deps, request, result, next.scope, visited, plan, hops.length);
    const lead = choice.lead ?? bestEnding(result);
    const callSites = lead.path.map((_, i) => (i === 0 ? next?.callSite ?? null : (lead.call_sites[i - 1] ?? null)));
    for (const [i, index] of lead.path.entries()) {
      const step = result.steps[index] as SearchStep;
      const chainStep = toStep(step, next.scope, answered.agent, callSites[i] ?? null);
      hop.steps.push(chainStep);
      steps.push(chainStep);
      covered = cover(covered, step.matches);
    }
    decisions.push(...choice.decisions);
    if (!choice.lead || !choice.lead.exit || !choice.owner) {
      stopped = choice.stop;
      break;
    }
    const exit = choice.lead.exit;
    covered = cover(covered, exit.matches);
    next = { scope: choice.owner, symbol: exit.target, ...(exit.module ? { module: exit.module } : {}), callSite: exit.call_site };
    fileHint = null;
  }
  return { steps, hops, decisions, coverage: coverageShare(question, covered), stopped_because: stopped };
}

/** The path that ends in this scope with the most of the question covered (the worker sorted them so). */
function bestEnding(result: ExpandResult): SearchLead {
  return result.leads.find((l) => l.exit === null) ?? (result.leads[0] as SearchLead);
}

function plannedScopes(graph: ScopeGraph, from: string, to: string, maxHops: number): string[] | null {
  const found = findQueryPath(graph, from, to, { maxHops: maxHops - 1 });
  return found.ok ? [...found.path] : null;
}

function chooseExit(
  deps: TraceDeps,
  request: TraceRequest,
  result: ExpandResult,
  scope: string,
  visited: ReadonlySet<string>,
  plan: string[] | null,
  hop: number,
): { lead: SearchLead | null; owner: string | null; decisions: SearchDecision[]; stop: string } {
  const decisions: SearchDecision[] = [];
  if (request.to && scope === request.to) return { lead: null, owner: null, decisions, stop: `reached ${scope}` };
  const wanted = plan?.[hop] ?? null;
  const exits = result.leads.filter((l) => l.exit !== null);
  let tried = 0;
  let best: { lead: SearchLead; owner: string } | null = null;
  for (const lead of exits) {
    const exit = lead.exit as NonNullable<SearchLead["exit"]>;
    const owner = ownerOfExit(exit, scope, deps, request.scopeScores);
    const name = `${exit.target} (${exit.call_site.file_path}:${exit.call_site.line})`;
    if ("none" in owner) {
      if (lead.score >= FOLLOW_THRESHOLD && tried < EXIT_ALTERNATIVES) decisions.push({ at: "skip", detail: `${name} scored ${fmt(lead.score)}, but ${owner.none}` });
      continue;
    }
    if (visited.has(owner.scope)) continue;
    if (wanted !== null) {
      if (owner.scope !== wanted) continue;
    } else if (lead.score < FOLLOW_THRESHOLD) {
      continue;
    }
    tried++;
    if (!best) best = { lead, owner: owner.scope };
    if (tried >= EXIT_ALTERNATIVES) break;
  }
  if (best) {
    const exit = best.lead.exit as NonNullable<SearchLead["exit"]>;
    const others = exits.filter((l) => l !== best?.lead && l.score >= FOLLOW_THRESHOLD).slice(0, 3).map((l) => `${l.exit?.target} ${fmt(l.score)}`);
    const reason = wanted !== null ? `the planned route goes to ${wanted}` : `it scored ${fmt(best.lead.score)} (${explainMatches(exit.matches) || "no term of its own; it carries the path"})`;
    decisions.push({ at: "exit", detail: `left ${scope} by ${exit.target} (${exit.call_site.file_path}:${exit.call_site.line}) into ${best.owner}: ${reason}${others.length > 0 ? `; next best: ${others.join(", ")}` : ""}` });
    return { lead: best.lead, owner: best.owner, decisions, stop: "" };
  }
  const top = exits[0];
  const stop = wanted !== null
    ? `no call from ${scope} into ${wanted}, the next scope of the planned route`
    : top
      ? `no exit from ${scope} bears on the question enough to follow (best: ${top.exit?.target} ${fmt(top.score)} < ${FOLLOW_THRESHOLD})`
      : `${scope}'s paths leave it by no call another scope defines`;
  decisions.push({ at: "end", detail: stop });
  return { lead: null, owner: null, decisions, stop };
}
