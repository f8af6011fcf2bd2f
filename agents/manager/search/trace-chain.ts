// The manager's part of the distributed search: from the chosen entry, ask the owning worker for its best
// local paths and their exits, continue the best exit in the scope that owns its callee, and so on, under
// the hop budget and cycle guard that also travel on the wire. Every choice is kept as a decision.
import { findQueryPath, type ScopeGraph } from "../../../topology/index.js";
import type { CallSiteRef, ExpandArgs, ExpandResult, SearchLead, SearchStep } from "../../protocol/index.js";
import type { ParsedQuestion } from "../../search/question.js";
import { cover, coverageShare, explainMatches, type Coverage } from "../../search/relevance.js";
import type { Ownership } from "../ownership.js";
import { chooseExit, expandParsed, trailAt, type Probe } from "./choose-exit.js";
import type { ScoredCandidate } from "../entry/entry-round.js";

export { FOLLOW_THRESHOLD, LOOKAHEAD_BEAM } from "./choose-exit.js";

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
  at: "start" | "exit" | "end" | "skip";
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
  /**
   * Per step of the chain as traced forward, the share of the question it added to the coverage (an exit's
   * name counts for the step it leads to): what the start's choice weighs the chain's length by.
   */
  gains?: number[];
  stopped_because: string;
}

export interface Trail {
  path: string[];
  hops: number;
  maxHops: number;
}

/** A hop the search has just taken (a start it tries, or an exit it follows), while it still runs. */
export interface HopEvent {
  hop: number;
  scope: string;
  agent: string;
  symbols: string[];
}

export interface TraceDeps {
  managerId: string;
  ownership: Ownership;
  graph: ScopeGraph;
  expand: (scope: string, args: ExpandArgs, trail: Trail) => Promise<{ result: unknown; agent: string; failovers: number }>;
  /** Told of each hop as it is taken (`mesh web` draws the path as it runs). */
  onHop?: (event: HopEvent) => void;
}

export interface TraceRequest {
  question: ParsedQuestion;
  start: ScoredCandidate;
  /** Best entry score per scope, from the entry round: tells apart scopes that define the same name. */
  scopeScores: ReadonlyMap<string, number>;
  /**
   * The entry round's candidates (every scope's best functions for the question): what a scope could add
   * to the chain, estimated before its owner is asked, orders the exits looked into.
   */
  candidates?: readonly ScoredCandidate[];
  maxHops: number;
  to?: string;
}


export function toStep(step: SearchStep, scope: string, agent: string, callSite: CallSiteRef | null, role?: ChainStep["role"]): ChainStep {
  return { scope, agent, role: role ?? (callSite ? "callee" : "entry"), symbol: step.qualified, kind: step.kind, file_path: step.file_path, line_start: step.cite.line_start, line_end: step.cite.line_end, sha256: step.cite.sha256, call_site: callSite, why: explainMatches(step.matches) };
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
  // The next hop's expansion when a look-ahead already asked for it.
  let pending: Probe | null = null;
  let committed: Probe | null = null;
  let stopped = "";
  // What the last exit's name added, counted for the step it leads to.
  let carried = 0;
  const gains: number[] = [];
  while (next) {
    if (hops.length >= request.maxHops) {
      stopped = `hop budget of ${request.maxHops} spent`;
      break;
    }
    visited.add(next.scope);
    const args: ExpandArgs = pending?.args ?? {
      question,
      mode: "forward",
      from: { symbol: next.symbol, ...(fileHint ? { file_path: fileHint.file_path, line: fileHint.line } : {}), ...(next.module ? { module: next.module } : {}), ...(next.callSite ? { called: true } : {}) },
      covered: Object.fromEntries(covered),
    };
    const answered = pending ?? (await expandParsed(deps, next.scope, args, trailAt(deps, hops, request.maxHops)));
    pending = null;
    const { result } = answered;
    const hop: TracedHop = { scope: next.scope, agent: answered.agent, args, result, steps: [], failovers: answered.failovers };
    hops.push(hop);
    if (!result.resolved || result.leads.length === 0) {
      stopped = `${next.scope} does not define ${next.symbol} as a function it can follow`;
      break;
    }
    // A scope the chain passes through on its way (choose-exit.ts, passThrough) goes on by the exit chosen then.
    // Its lead is one of this hop's own (this expansion is the look-ahead that chose it).
    const choice: Awaited<ReturnType<typeof chooseExit>> = committed ? { probe: committed, decisions: [{ at: "exit", detail: `left ${next.scope} by ${committed.lead.exit?.target} (${committed.lead.exit?.call_site.file_path}:${committed.lead.exit?.call_site.line}) into ${committed.owner}, as chosen when the chain entered ${next.scope}` }], stop: "" } : await chooseExit(deps, request, result, next.scope, covered, visited, plan, hops);
    committed = choice.then ?? null;
    const lead = choice.probe?.lead ?? bestEnding(result);
    const callSites = lead.path.map((_, i) => (i === 0 ? next?.callSite ?? null : (lead.call_sites[i - 1] ?? null)));
    for (const [i, index] of lead.path.entries()) {
      const step = result.steps[index] as SearchStep;
      const chainStep = toStep(step, next.scope, answered.agent, callSites[i] ?? null);
      hop.steps.push(chainStep);
      steps.push(chainStep);
      const before = coverageShare(question, covered);
      covered = cover(covered, step.matches);
      gains.push(coverageShare(question, covered) - before + carried);
      carried = 0;
    }
    deps.onHop?.({ hop: hops.length, scope: hop.scope, agent: hop.agent, symbols: hop.steps.map((s) => s.symbol) });
    decisions.push(...choice.decisions);
    const probe = choice.probe;
    if (!probe || !probe.lead.exit) {
      stopped = choice.stop;
      break;
    }
    const exit = probe.lead.exit;
    const before = coverageShare(question, covered);
    covered = cover(covered, exit.matches);
    carried = coverageShare(question, covered) - before;
    // Through a C struct field, the owner said which of its functions it stored there, and where.
    const callSite = probe.result.bound_at ? { ...exit.call_site, bound_at: probe.result.bound_at } : exit.call_site;
    next = { scope: probe.owner, symbol: exit.target, ...(exit.module ? { module: exit.module } : {}), callSite };
    pending = probe;
    fileHint = null;
  }
  return { steps, hops, decisions, coverage: coverageShare(question, covered), gains, stopped_because: stopped };
}

/** The path ending in this scope that is worth most (the worker sorted them so: local-search.ts, leadsOf). */
function bestEnding(result: ExpandResult): SearchLead {
  return result.leads.find((l) => l.exit === null) ?? (result.leads[0] as SearchLead);
}

function plannedScopes(graph: ScopeGraph, from: string, to: string, maxHops: number): string[] | null {
  const found = findQueryPath(graph, from, to, { maxHops: maxHops - 1 });
  return found.ok ? [...found.path] : null;
}
