// Where a "how" chain begins. The forward search starts at the entry candidate whose chain covers most of
// the question, which is sometimes a step inside the path rather than its beginning (`__udp_queue_rcv_skb`
// is reached through `udp_queue_rcv_one_skb` and `udp_queue_rcv_skb`, which name the same things). So the
// chain is extended backwards, one caller at a time, while the best caller bears on the question at least
// CLIMB_SHARE of what the chain's first step bears: a caller that says nearly as much is part of the path,
// one that says much less is context (an ethtool handler above the driver's ring setup). The caller is
// looked for in the first step's own scope, then, when none there bears enough, in the scopes calling it
// from outside (by name, or through a struct field it is stored into: mq-deadline's `dd_dispatch_request`
// is reached from blk-mq's scheduler code through `dispatch_request`), which makes that scope the chain's
// first hop. A first step the question names as code (`e1000_setup_ring`) is where the chain begins: no
// climb above it. Each step up is one `callers` request to its own scope (and at most CLIMB_SCOPES others);
// the call line is cited as for any step.
import { parseExpandResult, type BindingSiteRef, type CallSiteRef, type ExpandArgs, type ExpandResult, type SearchStep } from "../../protocol/index.js";
import type { ParsedQuestion } from "../../search/question.js";
import { explainMatches, relevance, type TermMatch } from "../../search/relevance.js";
import { calledAs } from "../validation/chain-check.js";
import { toStep, type ChainStep, type SearchDecision, type TraceDeps, type TraceOutcome, type TracedHop } from "./trace-chain.js";

/** Callers prepended at most: a chain's beginning, not the whole call stack above it. */
export const MAX_CLIMB = 4;
/**
 * A caller joins when it bears at least this share of what the chain's first step bears on the question:
 * the functions above the best match often name less of it (`__udp4_lib_rcv` over `udp_queue_rcv_skb`
 * for "how is a UDP datagram queued on its socket") and are still its path. Measured on the grounding
 * benchmark: 1.0 (a caller must bear as much) 54.4% chain recall, 0.85 55.4%, 0.7 56.7%.
 */
export const CLIMB_SHARE = 0.7;

const fmt = (n: number) => n.toFixed(2);

/** The search step a chain step was made of. */
function searchStepOf(hops: readonly TracedHop[], step: ChainStep): SearchStep | undefined {
  for (const hop of hops) {
    const found = hop.result.steps.find((s) => s.file_path === step.file_path && s.cite.line_start === step.line_start && s.qualified === step.symbol);
    if (found) return found;
  }
  return undefined;
}

/** The question writes the step's whole name as code (`How does e1000_setup_ring allocate…`): it says where the chain begins. */
export function namedByQuestion(question: Pick<ParsedQuestion, "terms">, matches: readonly TermMatch[]): boolean {
  return matches.some((m) => m.field === "symbol" && question.terms.some((t) => t.term === m.term && t.name));
}

/** Other scopes asked at most per step of the climb, most call sites first: the scopes calling the step by name or through a struct field it is stored into. */
export const CLIMB_SCOPES = 3;

interface Climbed {
  scope: string;
  agent: string;
  args: ExpandArgs;
  result: ExpandResult;
  step: SearchStep;
  callSite: CallSiteRef;
}

/** The best caller of `current` in `scope` not yet in the chain (by name, or through `field`), most relevant first. */
async function callerIn(deps: ClimbDeps, question: ParsedQuestion, scope: string, name: string, field: BindingSiteRef | null, inChain: ReadonlySet<string>, maxHops: number): Promise<Climbed | null> {
  const args: ExpandArgs = { question, mode: "callers", from: { symbol: field ? field.field : name, ...(field ? { field: true } : {}) }, covered: {}, max_depth: 0 };
  // The trail names only the manager: the climb is part of finding the start (the hop budget still counts).
  const answered = await deps.expand(scope, args, { path: [deps.managerId], hops: 1, maxHops });
  const result = parseExpandResult(answered.result);
  for (const lead of result.leads) {
    const step = result.steps[lead.path[0] ?? -1];
    if (!step || !lead.exit || inChain.has(`${step.file_path}:${step.cite.line_start}`)) continue;
    return { scope, agent: answered.agent, args, result, step, callSite: field ? { ...lead.exit.call_site, bound_at: field } : lead.exit.call_site };
  }
  return null;
}

/**
 * The best caller of `current` in the scopes that call it from outside its own (`ownership.callersOf`), or
 * call through the struct fields it is stored into (`fieldCallersOf`): where a path enters a scope.
 */
async function callerElsewhere(deps: ClimbDeps, question: ParsedQuestion, scope: string, name: string, fields: readonly BindingSiteRef[], inChain: ReadonlySet<string>, maxHops: number): Promise<Climbed | null> {
  const ownership = deps.ownership;
  if (!ownership) return null;
  const asks: { scope: string; field: BindingSiteRef | null; count: number }[] = [
    ...(ownership.callersOf?.(name) ?? []).map((c) => ({ scope: c.scope, field: null, count: c.count })),
    ...fields.flatMap((field) => (ownership.fieldCallersOf?.(field.field) ?? []).map((c) => ({ scope: c.scope, field, count: c.count }))),
  ].filter((a) => a.scope !== scope);
  asks.sort((a, b) => b.count - a.count || a.scope.localeCompare(b.scope));
  const found = await Promise.all(asks.slice(0, CLIMB_SCOPES).map((a) => callerIn(deps, question, a.scope, name, a.field, inChain, maxHops).catch(() => null)));
  const bearing = (c: Climbed) => relevance(question, c.step.matches);
  return found.filter((c): c is Climbed => c !== null).sort((a, b) => bearing(b) - bearing(a))[0] ?? null;
}

// The name its callers write: a constructor is called by its class's (`SOCKSProxyManager(…)` runs `SOCKSProxyManager.__init__`).
export { calledAs };

export type ClimbDeps = Pick<TraceDeps, "expand" | "managerId" | "onHop"> & { ownership?: TraceDeps["ownership"] };

export async function climbCallers(deps: ClimbDeps, question: ParsedQuestion, outcome: TraceOutcome, maxHops: number): Promise<TraceOutcome> {
  // The hop budget bounds how far a chain reaches.
  const steps = [...outcome.steps];
  const hops = [...outcome.hops];
  const decisions: SearchDecision[] = [...outcome.decisions];
  const first = steps[0];
  if (!first || hops[0]?.scope !== first.scope) return outcome;
  let scope = first.scope;
  const inChain = new Set(steps.map((s) => `${s.file_path}:${s.line_start}`));
  let current = first;
  const firstMatches = searchStepOf(hops, first)?.matches ?? [];
  const startRelevance = relevance(question, firstMatches);
  if (namedByQuestion(question, firstMatches)) {
    decisions.push({ at: "start", detail: `began at ${first.symbol}: the question names it` });
    return { ...outcome, decisions };
  }
  const needed = CLIMB_SHARE * startRelevance;
  for (let climbed = 0; climbed < MAX_CLIMB; climbed++) {
    const name = calledAs(current.symbol);
    const here = await callerIn(deps, question, scope, name, null, inChain, maxHops);
    let best = here && relevance(question, here.step.matches) >= needed ? here : null;
    if (!best) {
      // C: the chain's first step as this scope's own expansion saw it, with the struct fields it is stored into.
      const fields = current === first ? (hops[0]?.result.entry_fields ?? []) : [];
      // Another scope is one more hop: only while the budget has one.
      const elsewhere = hops.length < maxHops ? await callerElsewhere(deps, question, scope, name, fields, inChain, maxHops) : null;
      if (elsewhere && relevance(question, elsewhere.step.matches) >= needed) best = elsewhere;
      else {
        const nearest = [here, elsewhere].filter((c): c is Climbed => c !== null).sort((a, b) => relevance(question, b.step.matches) - relevance(question, a.step.matches))[0];
        decisions.push({ at: "start", detail: nearest ? `began at ${current.symbol}: its best caller, ${nearest.step.qualified} in ${nearest.scope}, bears ${fmt(relevance(question, nearest.step.matches))} on the question, less than its ${fmt(needed)}` : `began at ${current.symbol}: nothing else calls it` });
        break;
      }
    }
    const chosen: Climbed = best;
    const caller = toStep(chosen.step, chosen.scope, chosen.agent, null, "entry");
    // The step it calls now joins the chain through the caller's call line.
    const called: ChainStep = { ...current, role: "callee", call_site: chosen.callSite };
    const at = steps.indexOf(current);
    steps[at] = called;
    steps.unshift(caller);
    inChain.add(`${caller.file_path}:${caller.line_start}`);
    const firstHop = hops[0] as TracedHop;
    const relabelled = firstHop.steps.map((s) => (s === current ? called : s));
    if (chosen.scope === scope) {
      // The first hop is in this scope: the caller is one more of its steps (the scope is not visited again).
      hops[0] = { ...firstHop, steps: [caller, ...relabelled], result: { ...firstHop.result, steps: [...firstHop.result.steps, chosen.step] } };
    } else {
      // Into the scope the path came from: a hop of its own, before the others.
      hops[0] = { ...firstHop, steps: relabelled };
      hops.unshift({ scope: chosen.scope, agent: chosen.agent, args: chosen.args, result: chosen.result, steps: [caller], failovers: 0 });
      scope = chosen.scope;
    }
    deps.onHop?.({ hop: 1, scope: chosen.scope, agent: chosen.agent, symbols: [caller.symbol] });
    const through = chosen.callSite.bound_at ? ` through the field ${chosen.callSite.bound_at.field}` : "";
    decisions.push({ at: "start", detail: `went back to ${caller.symbol} (${chosen.callSite.file_path}:${chosen.callSite.line}${chosen.scope === called.scope ? "" : `, in ${chosen.scope}`}), which calls ${current.symbol}${through}: it bears ${fmt(relevance(question, chosen.step.matches))} on the question (${explainMatches(chosen.step.matches) || "its body"}), at least ${fmt(needed)}` });
    current = caller;
  }
  return { ...outcome, steps, hops, decisions };
}
