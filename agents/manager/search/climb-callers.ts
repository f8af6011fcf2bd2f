// Where a "how" chain begins. The forward search starts at the entry candidate whose chain covers most of
// the question, which is sometimes a step inside the path rather than its beginning (`__udp_queue_rcv_skb`
// is reached through `udp_queue_rcv_one_skb` and `udp_queue_rcv_skb`, which name the same things). So the
// chain is extended backwards, one caller at a time, while the caller worth most is worth, as a step is worth in
// the forward search (what it adds to the chain's coverage plus RELEVANCE_CARRY of its relevance:
// `stepScore`), at least CLIMB_SHARE of what the chain's first step is worth as a start (RELEVANCE_CARRY of
// its relevance): a caller that says nearly as much, or names what the chain has not covered, is part of
// the path; one that says much less is context (an ethtool handler above the driver's ring setup). The
// caller is looked for in the first step's own scope, then, when none there is worth enough, in the scopes
// calling it from outside: by name, through a struct field it is stored into (mq-deadline's
// `dd_dispatch_request` is reached from blk-mq's scheduler code through `dispatch_request`), or, for a
// method, through an object of its class (click's `Command.parse_args` calls `parser.parse_args(…)` on the
// `OptionParser` that `make_parser` returns); that scope becomes the chain's first hop. A caller found
// there counts by its share of what all the callers found there are worth: one of several alike (each
// adapter's handler calling tRPC's `resolveResponse`) is one use of the step, not where its path begins,
// and the climb stops below it (also when it is only on the way to a caller worth enough). A first step the
// question names as code (`e1000_setup_ring`) is where the chain begins: no climb above it; and a chain
// passing through the function the question names first begins there (fromNamedStep). Each step up is
// one `callers` request to its own scope (and at most CLIMB_SCOPES others); the call line is cited as for
// any step.
import { dispatchPrefix, parseExpandResult, type BindingSiteRef, type CallSiteRef, type ExpandArgs, type ExpandResult, type SearchStep } from "../../protocol/index.js";
import type { ParsedQuestion } from "../../search/question.js";
import { cover, coverageShare, explainMatches, relevance, stepScore, RELEVANCE_CARRY, type Coverage } from "../../search/relevance.js";
import { calledAs } from "../validation/chain-check.js";
import { languageForPath } from "../../pgc/scan/index.js";
import { toStep, type ChainStep, type SearchDecision, type TraceDeps, type TraceOutcome, type TracedHop } from "./trace-chain.js";
import { fromNamedStep, namedByQuestion, searchStepOf } from "./named-start.js";

/**
 * Callers prepended at most: a chain's beginning, not the whole call stack above it (each must be worth
 * enough as well). As many as the default hop budget has hops: 4 cut `udp_rcv` → `__udp4_lib_rcv` → … →
 * `__udp_queue_rcv_skb` short of its first step; 5 changed no answer of the grounding benchmark when it was
 * tried with the old relevance rule, 6 with the step's worth completed that chain and changed nothing else.
 */
export const MAX_CLIMB = 6;
/**
 * A caller joins when it is worth at least this share of what the chain's first step is worth: the
 * functions above the best match often name less of the question (`__udp4_lib_rcv` over
 * `udp_queue_rcv_skb` for "how is a UDP datagram queued on its socket") and are still its path. Measured
 * on the grounding benchmark: 1.0 (a caller must bear as much) 54.4% chain recall, 0.85 55.4%, 0.7 56.7%;
 * with the step's worth (2026-11-26, 130 questions, start / final / recall): 0.7 76.5 / 66.1 / 47.3, 0.6
 * 75.7 / 66.1 / 47.4 and 0.5 (before the other climb changes) three starts lost, climbing past where
 * their chains begin; 0.8 75.7 / 66.1 / 46.1, chains cut short of their beginnings. With a path's worth
 * and the share of callers found elsewhere (2026-11-26, sixth stop; 115 questions): 0.7 80.0 / 76.5 / 56.8,
 * 0.6 80.0 / 76.5 / 57.4 (three chains reach further back, none lost), 0.5 78.3 / 76.5 / 57.4 (two starts
 * lost), 0.8 81.7 / 76.5 / 56.6. On 439 (2026-11-29): 0.6 68.3 / 72.2 / 50.6, 0.5 68.8 / 72.2 / 51.1 (4 starts gained, 2 lost, 9 chains cite more of their gold path, none less), 0.7 68.6 / 71.5 / 49.8.
 */
export const CLIMB_SHARE = 0.5;

/**
 * A C function the code only ever calls by name — never stores into a struct field, passes as an argument
 * (`request_irq(…, foo_irq, …)`, `INIT_WORK(…, foo_work)`) or exports — is worth this much as where a path
 * begins: it is a step inside one. The paths questions ask about begin where something outside the calls
 * the code writes comes in: a system call through `file_operations`, an interrupt, a work item, another
 * module through an exported symbol (SearchStep.address_taken). Of the grounding benchmark's 97 C "how"
 * gold chains, 76 begin at a function so used; of the 27 wrong starts the search had chosen, 16 were only
 * called. Above such a function a caller joins at this share of what it needs above one used as a value.
 * The entry round does not use it: as a prior on the start it lost more starts than it found (the best
 * match inside a path is still the way to it; the climb finds its beginning).
 */
export const CALLED_ONLY_PRIOR = 0.7;

/** CALLED_ONLY_PRIOR for a C function without `address_taken`, else 1. */
export function calledOnlyPrior(step: Pick<SearchStep, "file_path" | "address_taken" | "kind">): number {
  return step.address_taken || step.kind !== "function" || languageForPath(step.file_path) !== "c" ? 1 : CALLED_ONLY_PRIOR;
}

const [fmt, fmt3] = [(n: number) => n.toFixed(2), (n: number) => n.toFixed(3)];

/** Other scopes asked at most per step of the climb, most call sites first: the scopes calling the step by name or through a struct field it is stored into. */
export const CLIMB_SCOPES = 3;

interface Climbed {
  scope: string;
  agent: string;
  args: ExpandArgs;
  result: ExpandResult;
  step: SearchStep;
  callSite: CallSiteRef;
  /** What the other callers found beside it in its scope are worth, summed. */
  others?: number;
  /**
   * Found in other scopes: its share of what all the callers found there are worth. One of several alike
   * (each driver's `…_add` calling `add_disk`, each adapter calling `resolveResponse`) is one use of the
   * step, not where its path begins: its worth counts times this share.
   */
  share?: number;
}

/** The caller of `current` in `scope` not yet in the chain (by name, through `field`, or as a method of `ofClass`) worth most as a step. */
async function callerIn(deps: ClimbDeps, question: ParsedQuestion, scope: string, name: string, via: Via, inChain: ReadonlySet<string>, maxHops: number, worth: (step: SearchStep) => number, where?: Pick<ChainStep, "file_path" | "line_start">): Promise<Climbed | null> {
  const field = "field" in via ? via.field : null;
  const symbol = field ? field.field : "ofClass" in via ? `${via.ofClass}.${name}` : name;
  // By name, a method's callers are the calls that may be its: not those the scope shows are another class's.
  const methodOf = "byName" in via ? via.methodOf : undefined;
  // In its own scope, where the step is: a closure nothing calls by name is reached from the function defining it.
  const at = where ? { file_path: where.file_path, line: where.line_start } : {};
  const args: ExpandArgs = { question, mode: "callers", from: { symbol, ...at, ...(field ? { field: true } : {}), ...(methodOf ? { method_of: methodOf } : {}) }, covered: {}, max_depth: 0 };
  // The trail names only the manager: the climb is part of finding the start (the hop budget still counts).
  const answered = await deps.expand(scope, args, { path: [deps.managerId], hops: 1, maxHops });
  const result = parseExpandResult(answered.result);
  let best: Climbed | null = null;
  let total = 0;
  // The worker lists its callers most relevant first; of equal worth, the earlier stays.
  for (const lead of result.leads) {
    const step = result.steps[lead.path[0] ?? -1];
    if (!step || !lead.exit || inChain.has(`${step.file_path}:${step.cite.line_start}`)) continue;
    total += worth(step);
    if (best && worth(step) <= worth(best.step)) continue;
    best = { scope, agent: answered.agent, args, result, step, callSite: field ? { ...lead.exit.call_site, bound_at: field } : lead.exit.call_site };
  }
  return best ? { ...best, others: total - worth(best.step) } : null;
}

/** How a caller elsewhere reaches the step: by its name, through a C struct field it is stored into, or as a method through an object of its class. */
type Via = { byName: true; methodOf?: string } | { field: BindingSiteRef } | { ofClass: string };

/** The class a method step belongs to (`OptionParser` of `click.OptionParser.parse_args`); none for a function or a constructor (called by its class's name). */
function classOf(symbol: string): string | undefined {
  const dot = symbol.lastIndexOf(".");
  if (dot <= 0 || calledAs(symbol) !== symbol.slice(dot + 1)) return undefined;
  return symbol.slice(0, dot).split(".").at(-1);
}

/**
 * The best caller of `current` in the scopes that call it from outside its own: by name (`callersOf`), through the
 * struct fields it is stored into (`fieldCallersOf`), or, for a method, through an object of its class or of one of
 * its `bases` (`classCallersOf`: `parser.parse_args(…)` where `parser` is an `OptionParser`). Where a path enters a scope.
 */
async function callerElsewhere(deps: ClimbDeps, question: ParsedQuestion, scope: string, symbol: string, fields: readonly BindingSiteRef[], inChain: ReadonlySet<string>, maxHops: number, worth: (step: SearchStep) => number, bases: readonly string[] = []): Promise<Climbed | null> {
  const ownership = deps.ownership;
  if (!ownership) return null;
  const name = calledAs(symbol);
  const ofClass = classOf(symbol);
  const byName = (ownership.callersOf?.(name) ?? []).map((c) => ({ scope: c.scope, via: { byName: true, ...(ofClass ? { methodOf: ofClass } : {}) } as Via, count: c.count }));
  // A scope asked by name is asked for every call of the name, through an object of the class too. Other
  // scopes only, except for a Python dispatch, which may be the step's own scope's (`handle_one_request`'s
  // `'do_' + self.command` beside `do_HEAD`).
  const named = new Set(byName.map((a) => a.scope));
  const asks: { scope: string; via: Via; count: number }[] = [
    ...byName,
    ...fields.flatMap((field) => (ownership.fieldCallersOf?.(field.field) ?? []).map((c) => ({ scope: c.scope, via: { field } as Via, count: c.count }))),
    ...(ofClass ? (ownership.classCallersOf?.(`${ofClass}.${name}`) ?? []).filter((c) => !named.has(c.scope)).map((c) => ({ scope: c.scope, via: { ofClass } as Via, count: c.count })) : []),
    // Through an object of a base class (`delegate.headers_received(…)` on an `HTTPMessageDelegate`): the scope calling it cannot know the class deriving from it.
    ...(ofClass ? bases.flatMap((base) => (ownership.classCallersOf?.(`${base}.${name}`) ?? []).filter((c) => !named.has(c.scope)).map((c) => ({ scope: c.scope, via: { ofClass: base } as Via, count: c.count }))) : []),
  ].filter((a) => a.scope !== scope || ("field" in a.via && dispatchPrefix(a.via.field.field) !== null));
  asks.sort((a, b) => b.count - a.count || a.scope.localeCompare(b.scope));
  const found = (await Promise.all(asks.slice(0, CLIMB_SCOPES).map((a) => callerIn(deps, question, a.scope, name, a.via, inChain, maxHops, worth).catch(() => null)))).filter((c): c is Climbed => c !== null);
  const total = found.reduce((sum, c) => sum + worth(c.step) + (c.others ?? 0), 0);
  const best = found.sort((a, b) => worth(b.step) - worth(a.step))[0];
  return best ? { ...best, share: worth(best.step) / Math.max(1e-9, total) } : null;
}

/**
 * The struct fields a C step is stored into (`entry_fields`): for the chain's first step, as its own
 * expansion saw them; for a caller the climb added, one forward request with no depth to its scope.
 */
async function storedInto(deps: ClimbDeps, question: ParsedQuestion, scope: string, step: ChainStep, firstHop: TracedHop | undefined, maxHops: number): Promise<readonly BindingSiteRef[]> {
  if (firstHop) return firstHop.result.entry_fields ?? [];
  // Only C and C++ store functions into struct fields (`.write_end = ext4_da_write_end`) to call through them.
  const language = languageForPath(step.file_path);
  if (language !== "c" && language !== "cpp") return [];
  const args: ExpandArgs = { question, mode: "forward", from: { symbol: step.symbol, file_path: step.file_path, line: step.line_start }, covered: {}, max_depth: 0 };
  try {
    const answered = await deps.expand(scope, args, { path: [deps.managerId], hops: 1, maxHops });
    return parseExpandResult(answered.result).entry_fields ?? [];
  } catch {
    return [];
  }
}

export type ClimbDeps = Pick<TraceDeps, "expand" | "managerId" | "onHop"> & { ownership?: TraceDeps["ownership"] };

/** The chain being extended backwards: its steps and hops (first first), and the scope of its first step. */
interface Climb {
  steps: ChainStep[];
  hops: TracedHop[];
  scope: string;
  inChain: Set<string>;
}

/**
 * Callers looked through at most, above one worth too little, for one worth enough: a path often climbs
 * through plumbing that names little of the question (`blk_mq_do_dispatch_sched`,
 * `__blk_mq_sched_dispatch_requests`) to the function that does what it says (`__blk_mq_run_hw_queue`,
 * "when a hardware queue is run"). The plumbing joins only with the caller it leads to.
 */
export const CLIMB_LOOK_AHEAD = 3;

/** The caller of `current` worth most: in its own scope, else (one more hop, while the budget has one) in the scopes calling it from outside. */
async function bestCaller(deps: ClimbDeps, question: ParsedQuestion, at: { scope: string; inChain: ReadonlySet<string>; hops: number }, current: ChainStep, firstHop: TracedHop | undefined, maxHops: number, worth: (step: SearchStep) => number, needed: number, odds = 1, bases: readonly string[] = []): Promise<{ best: Climbed | null; enough: boolean }> {
  const ofClass = classOf(current.symbol);
  const here = await callerIn(deps, question, at.scope, calledAs(current.symbol), { byName: true, ...(ofClass ? { methodOf: ofClass } : {}) }, at.inChain, maxHops, worth, current);
  if (here && worth(here.step) * odds >= needed) return { best: here, enough: true };
  const elsewhere = at.hops < maxHops ? await callerElsewhere(deps, question, at.scope, current.symbol, await storedInto(deps, question, at.scope, current, firstHop, maxHops), at.inChain, maxHops, worth, bases) : null;
  if (elsewhere && worth(elsewhere.step) * (elsewhere.share ?? 1) * odds >= needed) return { best: elsewhere, enough: true };
  const best = [here, elsewhere].filter((c): c is Climbed => c !== null).sort((a, b) => worth(b.step) - worth(a.step))[0] ?? null;
  return { best, enough: false };
}

/**
 * The callers `current` is extended by, nearest first: the one worth most if it is worth `needed`; else,
 * looking up through at most CLIMB_LOOK_AHEAD callers worth less (each the best above the last), the way
 * to the first one worth `needed`. Null, with why, when there is none.
 */
async function nextCallers(deps: ClimbDeps, question: ParsedQuestion, climb: Climb, current: ChainStep, firstHop: TracedHop | undefined, maxHops: number, worth: (step: SearchStep) => number, needed: number, room: number): Promise<{ callers: Climbed[] } | { stop: string }> {
  const found = await bestCaller(deps, question, { scope: climb.scope, inChain: climb.inChain, hops: climb.hops.length }, current, firstHop, maxHops, worth, needed, 1, searchStepOf(climb.hops, current)?.class_bases);
  if (found.enough && found.best) return { callers: [found.best] };
  const nearest = found.best;
  if (!nearest) return { stop: `began at ${current.symbol}: nothing else calls it` };
  const stop = `began at ${current.symbol}: its best caller, ${nearest.step.qualified} in ${nearest.scope}, is worth ${fmt3(worth(nearest.step))} as a step${shareOf(nearest)} (it bears ${fmt(relevance(question, nearest.step.matches))} on the question), less than ${fmt3(needed)}`;
  const way: Climbed[] = [nearest];
  const inChain = new Set(climb.inChain);
  let hops = climb.hops.length + (nearest.scope === climb.scope ? 0 : 1);
  let odds = nearest.share ?? 1;
  for (let above = nearest; way.length <= Math.min(CLIMB_LOOK_AHEAD, room - 1); ) {
    inChain.add(`${above.step.file_path}:${above.step.cite.line_start}`);
    const step = toStep(above.step, above.scope, above.agent, null, "entry");
    // Looking ahead is optional: a scope that does not answer ends it, not the answer.
    const next = await bestCaller(deps, question, { scope: above.scope, inChain, hops }, step, undefined, maxHops, worth, needed, odds, above.step.class_bases).catch(() => null);
    if (!next?.best) break;
    way.push(next.best);
    if (next.enough) return { callers: way };
    odds *= next.best.share ?? 1;
    if (next.best.scope !== above.scope) hops++;
    above = next.best;
  }
  return { stop: `${stop}, and no caller within ${CLIMB_LOOK_AHEAD} above it is worth that` };
}

/** A caller found in other scopes beside others: the share its worth counts by, for a decision. */
function shareOf(c: Climbed): string {
  return c.share !== undefined && c.share < 1 ? `, times ${fmt(c.share)}, its share of what the callers found in other scopes are worth` : "";
}

/** Puts `chosen` in front of the chain as its new first step, `current` joining it through the caller's call line. */
function prepend(climb: Climb, current: ChainStep, chosen: Climbed): ChainStep {
  const caller = toStep(chosen.step, chosen.scope, chosen.agent, null, "entry");
  const called: ChainStep = { ...current, role: "callee", call_site: chosen.callSite };
  climb.steps[climb.steps.indexOf(current)] = called;
  climb.steps.unshift(caller);
  climb.inChain.add(`${caller.file_path}:${caller.line_start}`);
  const firstHop = climb.hops[0] as TracedHop;
  const relabelled = firstHop.steps.map((s) => (s === current ? called : s));
  if (chosen.scope === climb.scope) {
    // The first hop is in this scope: the caller is one more of its steps (the scope is not visited again).
    climb.hops[0] = { ...firstHop, steps: [caller, ...relabelled], result: { ...firstHop.result, steps: [...firstHop.result.steps, chosen.step] } };
  } else {
    // Into the scope the path came from: a hop of its own, before the others.
    climb.hops[0] = { ...firstHop, steps: relabelled };
    climb.hops.unshift({ scope: chosen.scope, agent: chosen.agent, args: chosen.args, result: chosen.result, steps: [caller], failovers: 0 });
    climb.scope = chosen.scope;
  }
  return caller;
}

export async function climbCallers(deps: ClimbDeps, question: ParsedQuestion, outcome: TraceOutcome, maxHops: number): Promise<TraceOutcome> {
  const trimmed = fromNamedStep(question, outcome);
  if (trimmed) return trimmed;
  const first = outcome.steps[0];
  if (!first || outcome.hops[0]?.scope !== first.scope) return outcome;
  const decisions: SearchDecision[] = [...outcome.decisions];
  const firstMatches = searchStepOf(outcome.hops, first)?.matches ?? [];
  if (namedByQuestion(question, firstMatches)) {
    decisions.push({ at: "start", detail: `began at ${first.symbol}: the question names it` });
    return { ...outcome, decisions };
  }
  const climb: Climb = { steps: [...outcome.steps], hops: [...outcome.hops], scope: first.scope, inChain: new Set(outcome.steps.map((s) => `${s.file_path}:${s.line_start}`)) };
  const needed = CLIMB_SHARE * RELEVANCE_CARRY * relevance(question, firstMatches);
  let covered: Coverage = new Map();
  for (const s of climb.steps) covered = cover(covered, searchStepOf(climb.hops, s)?.matches ?? []);
  const worth = (step: SearchStep) => stepScore(question, step.matches, covered);
  let current = first;
  for (let climbed = 0; climbed < MAX_CLIMB; ) {
    const described = searchStepOf(climb.hops, current);
    const inside = described ? calledOnlyPrior(described) : 1;
    const joins = needed * inside;
    if (inside < 1) decisions.push({ at: "start", detail: `${current.symbol} is only called, never used as a value: a step inside a path, so a caller of it joins at ${fmt3(joins)} (×${inside})` });
    const found = await nextCallers(deps, question, climb, current, current === first ? climb.hops[0] : undefined, maxHops, worth, joins, MAX_CLIMB - climbed);
    if ("stop" in found) {
      decisions.push({ at: "start", detail: found.stop });
      break;
    }
    const target = found.callers.at(-1) as Climbed;
    // Each caller's worth as it was weighed, before the way's own steps count as covered.
    const worths = new Map(found.callers.map((c) => [c, worth(c.step)]));
    for (const chosen of found.callers) {
      const caller = prepend(climb, current, chosen);
      deps.onHop?.({ hop: 1, scope: chosen.scope, agent: chosen.agent, symbols: [caller.symbol] });
      const through = chosen.callSite.bound_at ? ` through the field ${chosen.callSite.bound_at.field}` : "";
      const why = chosen === target ? `it is worth ${fmt3(worths.get(chosen) ?? 0)} as a step${shareOf(chosen)}, at least ${fmt3(joins)}` : `on the way to ${target.step.qualified} (worth ${fmt3(worths.get(chosen) ?? 0)} itself${shareOf(chosen)})`;
      decisions.push({ at: "start", detail: `went back to ${caller.symbol} (${chosen.callSite.file_path}:${chosen.callSite.line}${chosen.scope === current.scope ? "" : `, in ${chosen.scope}`}), which ${chosen.callSite.defines ? "defines" : "calls"} ${current.symbol}${through}: ${why} (it bears ${fmt(relevance(question, chosen.step.matches))} on the question: ${explainMatches(chosen.step.matches) || "its body"})` });
      covered = cover(covered, chosen.step.matches);
      current = caller;
      climbed++;
    }
  }
  // The callers added count in what the chain covers (the forward chain's coverage also counted its exits' names).
  return { ...outcome, steps: climb.steps, hops: climb.hops, decisions, coverage: Math.max(outcome.coverage, coverageShare(question, covered)) };
}
