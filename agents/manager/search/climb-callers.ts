// Where a "how" chain begins. The forward search starts at the entry candidate whose chain covers most of
// the question, which is sometimes a step inside the path rather than its beginning (`__udp_queue_rcv_skb`
// is reached through `udp_queue_rcv_one_skb` and `udp_queue_rcv_skb`, which name the same things). So the
// chain is extended backwards inside its first scope, one caller at a time, while the best caller bears on
// the question at least CLIMB_SHARE of what the chain's first step bears: a caller that says nearly as much
// is part of the path, one that says much less is context (an ethtool handler above the driver's ring setup).
// A first step the question names as code (`e1000_setup_ring`) is where the chain begins: no climb above it. Each step up is one
// `callers` request to that scope, recorded with the first hop; the call line is cited as for any step.
import { parseExpandResult, type ExpandArgs, type SearchStep } from "../../protocol/index.js";
import type { ParsedQuestion } from "../../search/question.js";
import { explainMatches, relevance, type TermMatch } from "../../search/relevance.js";
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
function namedByQuestion(question: Pick<ParsedQuestion, "terms">, matches: readonly TermMatch[]): boolean {
  return matches.some((m) => m.field === "symbol" && question.terms.some((t) => t.term === m.term && t.name));
}

export async function climbCallers(deps: Pick<TraceDeps, "expand" | "managerId" | "onHop">, question: ParsedQuestion, outcome: TraceOutcome, maxHops: number): Promise<TraceOutcome> {
  // The hop budget bounds how far a chain reaches; the climb stays in its first hop's scope.
  const steps = [...outcome.steps];
  const hops = [...outcome.hops];
  const decisions: SearchDecision[] = [...outcome.decisions];
  const first = steps[0];
  if (!first || hops[0]?.scope !== first.scope) return outcome;
  const scope = first.scope;
  const inChain = new Set(steps.map((s) => `${s.file_path}:${s.line_start}`));
  let current = first;
  const firstMatches = searchStepOf(hops, first)?.matches ?? [];
  const startRelevance = relevance(question, firstMatches);
  if (namedByQuestion(question, firstMatches)) {
    decisions.push({ at: "start", detail: `began at ${first.symbol}: the question names it` });
    return { ...outcome, decisions };
  }
  for (let climbed = 0; climbed < MAX_CLIMB; climbed++) {
    const name = current.symbol.slice(current.symbol.lastIndexOf(".") + 1);
    const args: ExpandArgs = { question, mode: "callers", from: { symbol: name }, covered: {}, max_depth: 0 };
    // Back in the chain's first scope by design: the trail names only the manager (the hop budget still counts).
    const answered = await deps.expand(scope, args, { path: [deps.managerId], hops: 1, maxHops });
    const result = parseExpandResult(answered.result);
    // The callers come most relevant first: the best one not already in the chain, if it bears enough.
    const best = result.leads
      .map((lead) => ({ lead, step: result.steps[lead.path[0] ?? -1] as SearchStep | undefined }))
      .find(({ lead, step }) => step && lead.exit && !inChain.has(`${step.file_path}:${step.cite.line_start}`));
    const needed = CLIMB_SHARE * startRelevance;
    if (!best?.step || !best.lead.exit || relevance(question, best.step.matches) < needed) {
      decisions.push({ at: "start", detail: best?.step ? `began at ${current.symbol}: its best caller in ${scope}, ${best.step.qualified}, bears ${fmt(relevance(question, best.step.matches))} on the question, less than its ${fmt(needed)}` : `began at ${current.symbol}: nothing else in ${scope} calls it` });
      break;
    }
    const caller = toStep(best.step, scope, answered.agent, null, "entry");
    // The step it calls now joins the chain through the caller's call line.
    const called: ChainStep = { ...current, role: "callee", call_site: best.lead.exit.call_site };
    steps[steps.indexOf(current)] = called;
    steps.unshift(caller);
    inChain.add(`${caller.file_path}:${caller.line_start}`);
    // The first hop is in this scope: the caller is one more of its steps (the scope is not visited again).
    const firstHop = hops[0] as TracedHop;
    hops[0] = { ...firstHop, steps: [caller, ...firstHop.steps.map((s) => (s === current ? called : s))], result: { ...firstHop.result, steps: [...firstHop.result.steps, best.step] } };
    deps.onHop?.({ hop: 1, scope, agent: answered.agent, symbols: [caller.symbol] });
    decisions.push({ at: "start", detail: `went back to ${caller.symbol} (${best.lead.exit.call_site.file_path}:${best.lead.exit.call_site.line}), which calls ${current.symbol}: it bears ${fmt(relevance(question, best.step.matches))} on the question (${explainMatches(best.step.matches) || "its body"}), at least ${fmt(needed)}` });
    current = caller;
  }
  return { ...outcome, steps, hops, decisions };
}
