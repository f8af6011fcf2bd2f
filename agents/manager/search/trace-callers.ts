// "Who calls X?" on the same search, walking the edges backwards: X's definition first, then, scope by
// scope (most call sites first, from the references the topology is built from), the functions whose
// bodies call X, each with the call line.
import { parseExpandResult, type ExpandArgs, type SearchStep } from "../../protocol/index.js";
import { coverageShare, cover } from "../../search/relevance.js";
import { toStep, type ChainStep, type SearchDecision, type TraceDeps, type TraceOutcome, type TraceRequest, type TracedHop } from "./trace-chain.js";

/** Callers cited per scope: the most relevant few, not every call site of a popular function. */
export const CALLERS_PER_SCOPE = 3;

export async function traceCallers(deps: TraceDeps, request: TraceRequest): Promise<TraceOutcome> {
  const { question, start } = request;
  const target = start.symbol;
  const decisions: SearchDecision[] = [];
  const steps: ChainStep[] = [];
  const hops: TracedHop[] = [];
  let covered = new Map<string, number>();
  const callerScopes = deps.ownership.callersOf?.(target).map((c) => c.scope).filter((s) => s !== start.scope) ?? [];
  // X's own scope first (its definition, and its callers there), then the others, most call sites first.
  const order = [start.scope, ...callerScopes];
  decisions.push({ at: "start", detail: `callers of ${target}: ${start.scope} defines it; ${callerScopes.length > 0 ? `${callerScopes.join(", ")} call it (most call sites first)` : "no other scope's references call it"}` });
  let stopped = callerScopes.length > 0 ? "every scope calling it was asked" : "no other scope calls it";
  for (const scope of order) {
    if (hops.length >= request.maxHops) {
      stopped = `hop budget of ${request.maxHops} spent`;
      break;
    }
    const own = scope === start.scope;
    const args: ExpandArgs = { question, mode: own ? "forward" : "callers", from: { symbol: own ? start.qualified : target, ...(own ? { file_path: start.file_path, line: start.line_start } : {}) }, covered: Object.fromEntries(covered), max_depth: 0 };
    const answered = await deps.expand(scope, args, { path: [deps.managerId, ...hops.map((h) => h.agent)], hops: hops.length + 1, maxHops: request.maxHops });
    const result = parseExpandResult(answered.result);
    const hop: TracedHop = { scope, agent: answered.agent, args, result, steps: [], failovers: answered.failovers };
    hops.push(hop);
    deps.onHop?.({ hop: hops.length, scope, agent: answered.agent, symbols: [] });
    if (own) {
      const entry = result.steps[0];
      if (!entry) {
        stopped = `${scope} could not cite ${target}`;
        break;
      }
      hop.steps.push(toStep(entry, scope, answered.agent, null));
      covered = cover(covered, entry.matches);
      continue;
    }
    for (const lead of result.leads.slice(0, CALLERS_PER_SCOPE)) {
      const step = result.steps[lead.path[0] ?? -1] as SearchStep | undefined;
      if (!step || !lead.exit) continue;
      hop.steps.push(toStep(step, scope, answered.agent, lead.exit.call_site, "caller"));
      covered = cover(covered, step.matches);
    }
    if (hop.steps.length === 0) decisions.push({ at: "skip", detail: `${scope}'s references call ${target}, but no function of it could be cited as the caller` });
  }
  for (const hop of hops) steps.push(...hop.steps);
  return { steps, hops, decisions, coverage: coverageShare(question, covered), stopped_because: stopped };
}
