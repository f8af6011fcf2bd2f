// "Who calls X?" on the same search, walking the edges backwards: X's definition first, then, scope by
// scope (most call sites first, from the references the topology is built from), the functions whose
// bodies call X, each with the call line; for a C function stored into struct fields, also the functions
// calling through those fields, each with its call line and the line that stored X into the field; for a
// method, the callers through its class in every other scope; last, X's own scope's callers.
import { dispatchPrefix, parseExpandResult, type BindingSiteRef, type ExpandArgs, type ExpandResult, type SearchStep } from "../../protocol/index.js";
import { coverageShare, cover } from "../../search/relevance.js";
import { splitIdentifier } from "../../pgc/retrieval/index.js";
import { bounded } from "../entry/entry-round.js";
import { toStep, type ChainStep, type SearchDecision, type TraceDeps, type TraceOutcome, type TraceRequest, type TracedHop } from "./trace-chain.js";

/**
 * Callers cited per scope: the most relevant few, not every call site of a popular function (a scope with
 * more says how many it has, in a decision). 3 until 2026-11-27: aiohttp's multipart and payload modules,
 * one scope, call `parse_mimetype` from five functions, and "Who calls parse_mimetype?" listed three.
 */
export const CALLERS_PER_SCOPE = 5;

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
    // Python: a method is reached through a dispatch's pseudo-field only where some scope dispatches by its prefix.
    const prefix = dispatchPrefix(bound.field);
    if (prefix !== null) {
      if (through.length > 0) decisions.push({ at: "start", detail: `${target} (${bound.file_path}:${bound.line}) may be called by a name built from ${JSON.stringify(prefix)}: ${through.join(", ")} dispatch so` });
    } else decisions.push({ at: "start", detail: `${start.scope} stores ${target} into the field ${bound.field} (${bound.file_path}:${bound.line}); ${through.length > 0 ? `${through.join(", ")} call through it` : "no scope calls through it"}` });
    asks.push(...through.map((scope) => ({ scope, through: bound })));
    if (through.length > 0) stopped = "every scope calling it was asked";
  }
  // A method is asked for by its class too (`Retry.from_int`): a scope counts only calls through that class.
  const method = start.qualified.includes(".") ? start.qualified : null;
  // A method whose compound name no other scope defines (`VcsSupport.get_backend_for_scheme`) is what a call
  // of that name runs, whatever the object it goes through (a module's `vcs` instance): the other scopes
  // are asked by name, a call shown to be another class's not counting (`method_of`).
  const uniqueOf = method !== null && uniqueMethodName(deps.ownership, target, start.scope) ? method.slice(0, method.lastIndexOf(".")).split(".").at(-1) : undefined;
  if (uniqueOf) decisions.push({ at: "start", detail: `${method} has a name no other scope defines: its calls through any object count, except those shown to be another class's` });
  for (const ask of asks) {
    if (hops.length >= request.maxHops) {
      stopped = `hop budget of ${request.maxHops} spent`;
      break;
    }
    const symbol = ask.through ? ask.through.field : uniqueOf ? target : (method ?? target);
    const { hop, result } = await expandFor(deps, hops, request, ask.scope, { question, mode: "callers", from: { symbol, ...(ask.through ? { field: true } : uniqueOf ? { method_of: uniqueOf } : {}) }, covered: Object.fromEntries(covered), max_depth: 0 });
    covered = addCallers(hop, result, ask, covered, decisions);
    // Asked for a class's method, a scope whose calls of the name go through objects of other or unknown classes has none to give.
    if (hop.steps.length === 0) decisions.push({ at: "skip", detail: method && !ask.through ? `${ask.scope}'s code calls ${target}, but ${uniqueOf ? `each of its calls is shown to be another class's than ${method}'s` : `none of its calls is shown to be ${method}'s`}` : `${ask.scope}'s code calls ${symbol}, but no function of it could be cited as the caller` });
  }
  if (method && hops.length < request.maxHops) {
    // Method calls go through objects, which the references of the scope facts do not list: every other
    // scope is asked once, in parallel, and those with callers join, most callers first.
    const asked = new Set([start.scope, ...asks.map((a) => a.scope)]);
    const others = deps.graph.nodes().map((n) => n.name).filter((scope) => !asked.has(scope));
    const args: ExpandArgs = { question, mode: "callers", from: { symbol: method }, covered: Object.fromEntries(covered), max_depth: 0 };
    const trail = { path: [deps.managerId, ...hops.map((h) => h.agent)], hops: hops.length + 1, maxHops: request.maxHops };
    const answers = await bounded(others, METHOD_CALLERS_CONCURRENCY, async (scope) => {
      try {
        const answered = await deps.expand(scope, args, trail);
        return { scope, answered, result: parseExpandResult(answered.result) };
      } catch {
        return null;
      }
    });
    const found = answers.filter((a): a is NonNullable<typeof a> => a !== null && a.result.leads.length > 0).sort((a, b) => b.result.leads.length - a.result.leads.length || a.scope.localeCompare(b.scope));
    decisions.push({ at: "start", detail: `${method} is a method: the ${others.length} other scopes were asked for calls through its class; ${found.length > 0 ? `${found.map((f) => f.scope).join(", ")} make them` : "none makes one"}` });
    if (found.length > 0) stopped = "every scope calling it was asked";
    for (const { scope, answered, result } of found) {
      if (hops.length >= request.maxHops) {
        stopped = `hop budget of ${request.maxHops} spent`;
        break;
      }
      covered = addCallers(joinHop(deps, hops, scope, answered, args, result), result, { scope, through: null }, covered, decisions);
    }
  }
  if (hops.length < request.maxHops) {
    // Its own scope's callers last, while the budget has a hop: the other scopes' are what the mesh adds.
    // The trail names only the manager: the scope was asked before in this answer, by design.
    const args: ExpandArgs = { question, mode: "callers", from: { symbol: method ?? target }, covered: Object.fromEntries(covered), max_depth: 0 };
    try {
      const answered = await deps.expand(start.scope, args, { path: [deps.managerId], hops: 1, maxHops: request.maxHops });
      const result = parseExpandResult(answered.result);
      if (result.leads.length > 0) {
        const hop = joinHop(deps, hops, start.scope, answered, args, result);
        covered = addCallers(hop, result, { scope: start.scope, through: null }, covered, decisions);
        decisions.push({ at: "start", detail: `${start.scope}, which defines ${target}, calls it too: ${hop.steps.map((s) => s.symbol).join(", ")}` });
      }
    } catch (error) {
      decisions.push({ at: "skip", detail: `${start.scope} was not asked for its own callers of ${target}: ${(error as Error).message}` });
    }
  } else decisions.push({ at: "skip", detail: `${start.scope}'s own callers of ${target} were not asked: the hop budget of ${request.maxHops} was spent` });
  for (const hop of hops) steps.push(...hop.steps);
  return { steps, hops, decisions, coverage: coverageShare(question, covered), stopped_because: stopped };
}

/** Scopes asked at once for a method's callers (as the entry round bounds its fan-out). */
export const METHOD_CALLERS_CONCURRENCY = 32;

/** The hop's best callers (CALLERS_PER_SCOPE), as steps with their call lines; the coverage after them. A scope with more says so in `decisions`. */
function addCallers(hop: TracedHop, result: ExpandResult, ask: CallerAsk, covered: Map<string, number>, decisions: SearchDecision[]): Map<string, number> {
  let after = covered;
  const callers = result.leads.filter((lead) => lead.exit && result.steps[lead.path[0] ?? -1]).length;
  if (callers > CALLERS_PER_SCOPE) decisions.push({ at: "skip", detail: `${ask.scope} answered with ${callers} callers; the ${CALLERS_PER_SCOPE} bearing most on the question are cited` });
  for (const lead of result.leads.slice(0, CALLERS_PER_SCOPE)) {
    const step = result.steps[lead.path[0] ?? -1] as SearchStep | undefined;
    if (!step || !lead.exit) continue;
    const site = ask.through ? { ...lead.exit.call_site, bound_at: ask.through } : lead.exit.call_site;
    hop.steps.push(toStep(step, ask.scope, hop.agent, site, "caller"));
    after = cover(after, step.matches);
  }
  return after;
}

async function expandFor(deps: TraceDeps, hops: TracedHop[], request: TraceRequest, scope: string, args: ExpandArgs): Promise<{ hop: TracedHop; result: ExpandResult }> {
  const answered = await deps.expand(scope, args, { path: [deps.managerId, ...hops.map((h) => h.agent)], hops: hops.length + 1, maxHops: request.maxHops });
  const result = parseExpandResult(answered.result);
  return { hop: joinHop(deps, hops, scope, answered, args, result), result };
}

/** A scope's answer as the next hop of the record (its steps added by the caller), told to `onHop`. */
function joinHop(deps: TraceDeps, hops: TracedHop[], scope: string, answered: { agent: string; failovers: number }, args: ExpandArgs, result: ExpandResult): TracedHop {
  const hop: TracedHop = { scope, agent: answered.agent, args, result, steps: [], failovers: answered.failovers };
  hops.push(hop);
  deps.onHop?.({ hop: hops.length, scope, agent: answered.agent, symbols: [] });
  return hop;
}

/**
 * Whether a method's name is its own in the fleet: made of two or more words (`get_backend_for_scheme`,
 * not `send`, which a socket of the standard library has too) and defined by no scope but its own.
 */
export function uniqueMethodName(ownership: Pick<TraceDeps["ownership"], "ownersOf">, name: string, scope: string): boolean {
  if (splitIdentifier(name).length < 2) return false;
  const owners = ownership.ownersOf(name);
  return owners.length === 1 && owners[0] === scope;
}
