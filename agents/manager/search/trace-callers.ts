// "Who calls X?" on the same search, walking the edges backwards: X's definition first, then, scope by
// scope (most call sites first, from the references the topology is built from), the functions whose
// bodies call X, each with the call line; for a C function stored into struct fields, also the functions
// calling through those fields, each with its call line and the line that stored X into the field.
import { parseExpandResult, type BindingSiteRef, type ExpandArgs, type ExpandResult, type SearchStep } from "../../protocol/index.js";
import { coverageShare, cover } from "../../search/relevance.js";
import { toStep, type ChainStep, type SearchDecision, type TraceDeps, type TraceOutcome, type TraceRequest, type TracedHop } from "./trace-chain.js";

/** Callers cited per scope: the most relevant few, not every call site of a popular function. */
export const CALLERS_PER_SCOPE = 3;

/** One callers request: a scope asked for its calls of the target by name, or through a struct field the target is stored into. */
interface CallerAsk {
  scope: string;
  through: BindingSiteRef | null;
}

export async function traceCallers(deps: TraceDeps, request: TraceRequest): Promise<TraceOutcome> {
  const { question, start } = request;
  const target = start.symbol;
  const decisions: SearchDecision[] = [];
  const steps: ChainStep[] = [];
  const hops: TracedHop[] = [];
  let covered = new Map<string, number>();
  const callerScopes = deps.ownership.callersOf?.(target).map((c) => c.scope).filter((s) => s !== start.scope) ?? [];
  // X's own scope first (its definition, and the fields it is stored into there), then the others, most call sites first.
  const asks: CallerAsk[] = callerScopes.map((scope) => ({ scope, through: null }));
  decisions.push({ at: "start", detail: `callers of ${target}: ${start.scope} defines it; ${callerScopes.length > 0 ? `${callerScopes.join(", ")} call it (most call sites first)` : "no other scope's references call it"}` });
  let stopped = callerScopes.length > 0 ? "every scope calling it was asked" : "no other scope calls it";
  const own = await expandFor(deps, hops, request, start.scope, { question, mode: "forward", from: { symbol: start.qualified, file_path: start.file_path, line: start.line_start }, covered: {}, max_depth: 0 });
  const entry = own.result.steps[0];
  if (!entry) return { steps, hops, decisions, coverage: 0, stopped_because: `${start.scope} could not cite ${target}` };
  own.hop.steps.push(toStep(entry, start.scope, own.hop.agent, null));
  covered = cover(covered, entry.matches);
  // C: stored into a struct field (`.ndo_start_xmit = veth_xmit`), it is called through that field.
  for (const bound of own.result.entry_fields ?? []) {
    const through = deps.ownership.fieldCallersOf?.(bound.field).map((c) => c.scope) ?? [];
    decisions.push({ at: "start", detail: `${start.scope} stores ${target} into the field ${bound.field} (${bound.file_path}:${bound.line}); ${through.length > 0 ? `${through.join(", ")} call through it` : "no scope calls through it"}` });
    asks.push(...through.map((scope) => ({ scope, through: bound })));
    if (through.length > 0) stopped = "every scope calling it was asked";
  }
  for (const ask of asks) {
    if (hops.length >= request.maxHops) {
      stopped = `hop budget of ${request.maxHops} spent`;
      break;
    }
    const symbol = ask.through ? ask.through.field : target;
    const { hop, result } = await expandFor(deps, hops, request, ask.scope, { question, mode: "callers", from: { symbol, ...(ask.through ? { field: true } : {}) }, covered: Object.fromEntries(covered), max_depth: 0 });
    for (const lead of result.leads.slice(0, CALLERS_PER_SCOPE)) {
      const step = result.steps[lead.path[0] ?? -1] as SearchStep | undefined;
      if (!step || !lead.exit) continue;
      const site = ask.through ? { ...lead.exit.call_site, bound_at: ask.through } : lead.exit.call_site;
      hop.steps.push(toStep(step, ask.scope, hop.agent, site, "caller"));
      covered = cover(covered, step.matches);
    }
    if (hop.steps.length === 0) decisions.push({ at: "skip", detail: `${ask.scope}'s code calls ${symbol}, but no function of it could be cited as the caller` });
  }
  for (const hop of hops) steps.push(...hop.steps);
  return { steps, hops, decisions, coverage: coverageShare(question, covered), stopped_because: stopped };
}

async function expandFor(deps: TraceDeps, hops: TracedHop[], request: TraceRequest, scope: string, args: ExpandArgs): Promise<{ hop: TracedHop; result: ExpandResult }> {
  const answered = await deps.expand(scope, args, { path: [deps.managerId, ...hops.map((h) => h.agent)], hops: hops.length + 1, maxHops: request.maxHops });
  const result = parseExpandResult(answered.result);
  const hop: TracedHop = { scope, agent: answered.agent, args, result, steps: [], failovers: answered.failovers };
  hops.push(hop);
  deps.onHop?.({ hop: hops.length, scope, agent: answered.agent, symbols: [] });
  return { hop, result };
}
