// Where a traced chain goes next from a scope: its exits looked ahead into (the best by their own score, and
// the one whose owner the entry round found most promising), each valued by what its owner's best path adds,
// and followed only if the chain through it covers at least as much as staying does.
import { dispatchPrefix, eventName, parseExpandResult, type ExpandArgs, type ExpandResult, type SearchLead, type SearchStep } from "../../protocol/index.js";
import { cover, coverageShare, DEPTH_COST, explainMatches, relevance, RELEVANCE_CARRY, type Coverage } from "../../search/relevance.js";
import { destinationTerms } from "../../search/question-roles.js";
import { asModuleExit, callSiteKey, chainedConstructions, ownersOfExit, soleBinder } from "./exit-owner.js";
import { oneOwnerEach } from "./one-owner.js";
import type { ScoredCandidate } from "../entry/entry-round.js";
import type { SearchDecision, TraceDeps, TracedHop, TraceRequest, Trail } from "./trace-chain.js";

const fmt = (n: number) => n.toFixed(2);

/**
 * An exit is followed only when its value — its score (what its callee's name adds to the question, plus
 * half its relevance, less 0.02 a call of depth) plus the share of the question its owner's best path from
 * the callee adds — reaches this: below it, the call leads to nothing the question asks about (a lock, a
 * free, a print), and the chain ends where it is.
 */
export const FOLLOW_THRESHOLD = 0.03;
/**
 * Exits looked into per hop, best first by their own score: their owners are asked in parallel what
 * following each would add (a callee named `netdev_alloc_skb` says little; its owner's path from it, to
 * "take a socket buffer from the pool", says what the question asks). One more is looked into when its
 * owner promises more (ownerPotential): at most this many plus one extra requests a hop. Measured on the
 * grounding benchmark (2026-11-26, start / final / recall over 115 questions): 3 gave 78.3 / 69.6 / 49.7,
 * 5 78.3 / 72.2 / 49.9 (three finals won, where the exit that goes on names little of the question and
 * its owner's path the rest: tRPC's `resolveResponse` → the router's `create` on the way to
 * `getProcedureAtPath`), 8 77.4 / 72.2 / 49.9, 2–4% slower per question.
 */
export const LOOKAHEAD_BEAM = 5;

export function trailAt(deps: Pick<TraceDeps, "managerId">, hops: readonly TracedHop[], maxHops: number): Trail {
  return { path: [deps.managerId, ...hops.map((h) => h.agent)], hops: hops.length + 1, maxHops };
}

export async function expandParsed(deps: TraceDeps, scope: string, args: ExpandArgs, trail: Trail): Promise<{ agent: string; failovers: number; result: ExpandResult }> {
  const answered = await deps.expand(scope, args, trail);
  return { agent: answered.agent, failovers: answered.failovers, result: parseExpandResult(answered.result) };
}

/** An exit looked into: its owner's expansion from the callee, and what following it would add. */
export interface Probe {
  lead: SearchLead;
  owner: string;
  args: ExpandArgs;
  agent: string;
  failovers: number;
  result: ExpandResult;
  /** The exit's own worth: its name's score, or half its callee's relevance in its owner if that is more. */
  own: number;
  /** The share of the question its owner's best path from the callee adds past it. */
  adds: number;
  /** The callee's own relevance in its owner, carried (RELEVANCE_CARRY): which of several owners' definitions is meant. */
  carried: number;
  /** own + adds: what following the exit is worth. */
  value: number;
  /** The chain's coverage of the question through this exit, at the end of its owner's best path. */
  reach: number;
}

/** The coverage after a lead's path and its exit's name, on top of what the chain covered before the hop. */
function coveredAfter(result: ExpandResult, lead: SearchLead, before: Coverage): Coverage {
  let covered = before;
  for (const index of lead.path) covered = cover(covered, (result.steps[index] as SearchStep).matches);
  return lead.exit ? cover(covered, lead.exit.matches) : covered;
}

async function lookAhead(deps: TraceDeps, request: TraceRequest, lead: SearchLead, owner: string, result: ExpandResult, before: Coverage, hops: readonly TracedHop[]): Promise<Probe | { failed: string }> {
  const exit = lead.exit as NonNullable<SearchLead["exit"]>;
  const covered = coveredAfter(result, lead, before);
  const args: ExpandArgs = { question: request.question, mode: "forward", from: { symbol: exit.receiver_class ? `${exit.receiver_class}.${exit.target}` : exit.target, ...(exit.module ? { module: exit.module } : {}), called: true, ...(exit.via === "member" ? { member: true } : {}), ...(exit.via === "field" ? { field: true, ...(soleBinder(deps, exit.target, owner) ? { sole: true } : {}) } : {}) }, covered: Object.fromEntries(covered) };
  try {
    const answered = await expandParsed(deps, owner, args, trailAt(deps, hops, request.maxHops));
    if (!answered.result.resolved) return { failed: exit.via === "field" ? `${owner} stores no function the question names into the field ${exit.target}` : `${owner} does not define ${exit.target} as a function` };
    // The callee's own fields (doc, body) are known only to its owner: its relevance there is carried as
    // any step's is, and its best path adds what it newly covers.
    const now = coverageShare(request.question, covered);
    const best = Math.max(now, ...answered.result.leads.map((l) => l.coverage));
    const callee = answered.result.steps[0];
    const carried = callee ? RELEVANCE_CARRY * relevance(request.question, callee.matches) : 0;
    const own = Math.max(lead.score, carried);
    return { lead, owner, args, ...answered, own, carried, adds: best - now, value: own + (best - now), reach: best };
  } catch (error) {
    return { failed: `${owner} did not answer: ${(error as Error).message}` };
  }
}

/**
 * What an exit into `owner` could add past the lead's path: the most any of the owner's entry-round
 * candidates covers of the question beyond it. An estimate only (the callee need not lead there); the
 * look-ahead measures it.
 */
function ownerPotential(request: TraceRequest, result: ExpandResult, before: Coverage): (lead: SearchLead, owner: string) => number {
  const byScope = new Map<string, ScoredCandidate[]>();
  for (const c of request.candidates ?? []) byScope.set(c.scope, [...(byScope.get(c.scope) ?? []), c]);
  return (lead, owner) => {
    const after = coveredAfter(result, lead, before);
    const now = coverageShare(request.question, after);
    return Math.max(0, ...(byScope.get(owner) ?? []).map((c) => coverageShare(request.question, cover(after, c.matches)) - now));
  };
}

/** Exits looked through: the owners that add nothing themselves, best first, and their exits each. */
export const PASS_THROUGH_BEAM = 2;

/**
 * An exit's owner may add nothing itself and still pass the chain on: `notify_change` names nothing of "an
 * ext4 file shrunk with truncate()", but calls the file system's `setattr`, where ext4's code is; all of
 * `call_write_iter`'s work is its call through `f_op->write_iter`. For the best PASS_THROUGH_BEAM
 * looked-into exits whose owner adds nothing (besides the exit already chosen), its own best exits
 * (PASS_THROUGH_BEAM of them; a field exit in each of its first FIELD_OWNER_BEAM binders) are looked into in
 * turn; the first exit is followed when one of those leads further than `bar` — staying, or the exit chosen
 * by its own look-ahead — by more than what the steps through the owner and the step into the next cost
 * (DEPTH_COST each: a path of five steps through a scope that adds nothing, into a logger whose class name
 * holds a word of the question, does not pay for itself), and the chain then goes on by that exit (`then`).
 * Up to 4 more requests a hop, 16 when every one is a field exit.
 */
async function passThrough(deps: TraceDeps, request: TraceRequest, result: ExpandResult, looked: readonly Probe[], before: Coverage, visited: ReadonlySet<string>, scope: string, hops: readonly TracedHop[], bar: number): Promise<{ probe: Probe; next: Probe } | null> {
  const through = looked.filter((p) => p.adds < FOLLOW_THRESHOLD && p.result.leads.some((l) => l.exit)).slice(0, PASS_THROUGH_BEAM);
  const pending: Promise<{ probe: Probe; next: Probe | { failed: string } }>[] = [];
  for (const probe of through) {
    const after = coveredAfter(result, probe.lead, before);
    const exits = byFleetCallSites(deps.ownership, probe.result.leads.filter((l) => l.exit)).slice(0, PASS_THROUGH_BEAM * 2);
    const potential = ownerPotential(request, probe.result, after);
    let taken = 0;
    for (const original of exits) {
      if (taken >= PASS_THROUGH_BEAM) break;
      const exit = asModuleExit(original.exit as NonNullable<SearchLead["exit"]>, deps.ownership);
      const owners = ownersOfExit(exit, probe.owner, deps, request.scopeScores, (owner) => potential(original, owner));
      // A field exit is looked into in each of its first binders at once, as at any hop (one beam place for them all).
      const fresh = "none" in owners ? [] : owners.scopes.filter((o) => o !== scope && !visited.has(o) && o !== probe.owner);
      if (fresh.length === 0) continue;
      taken++;
      const lead = exit === original.exit ? original : { ...original, exit };
      for (const owner of fresh) pending.push(lookAhead(deps, request, lead, owner, probe.result, after, [...hops, { scope: probe.owner, agent: probe.agent } as TracedHop]).then((next) => ({ probe, next })));
    }
  }
  // The steps through the owner that adds nothing, and the step into the next, must be paid for, as any
  // step adding nothing is (DEPTH_COST each; chainCost): `call_write_iter`, one step, costs two.
  const found = (await Promise.all(pending)).filter((f): f is { probe: Probe; next: Probe } => !("failed" in f.next) && f.next.reach > bar + DEPTH_COST * (f.next.lead.path.length + 1) && f.next.value >= FOLLOW_THRESHOLD);
  return found.sort((a, b) => b.next.reach - a.next.reach)[0] ?? null;
}

/**
 * Whether the chain through the exit covers more of the question than the best path staying in the scope
 * does once the terms of where the question says its path ends ("… end up with a development HTTP server
 * bound to a port": `port`; destinationTerms) count twice: then the exit is followed even when the staying
 * path covers somewhat more of the rest, since the chain must reach where the question ends, picking up its
 * words on its way. Counted twice, not put first: "… must not be sent to the new location" had left
 * requests' redirect handling (0.52 of the question) for urllib3 (0.37), which names `location` once more.
 */
function nearerDestination(request: TraceRequest, result: ExpandResult, before: Coverage, probe: Probe): boolean {
  const destination = destinationTerms(request.question);
  if (destination.size === 0) return false;
  const weighted = { terms: request.question.terms.map((t) => (destination.has(t.term) ? { ...t, weight: t.weight * 2 } : t)) };
  const endings = result.leads.filter((l) => l.exit === null);
  const staying = Math.max(coverageShare(weighted, before), ...endings.map((l) => coverageShare(weighted, coveredAfter(result, l, before))));
  const through = coveredAfter(result, probe.lead, before);
  const going = Math.max(coverageShare(weighted, through), ...probe.result.leads.map((l) => coverageShare(weighted, coveredAfter(probe.result, { ...l, exit: null }, through))));
  return going > staying;
}

/** Whether `scope` may own an exit of `from`'s path. */
function ownsExit(deps: TraceDeps, request: TraceRequest, exit: NonNullable<SearchLead["exit"]>, from: string, scope: string): boolean {
  const owners = ownersOfExit(asModuleExit(exit, deps.ownership), from, deps, request.scopeScores);
  return !("none" in owners) && owners.scopes.includes(scope);
}

/** The call sites the fleet reports for an exit's callee from outside the scopes defining it: by name, or through its struct field. */
function fleetCallSites(ownership: TraceDeps["ownership"], exit: NonNullable<SearchLead["exit"]>): number {
  const callers = exit.via === "field" ? ownership.fieldCallersOf?.(exit.target) : ownership.callersOf?.(exit.target);
  return (callers ?? []).reduce((sum, c) => sum + c.count, 0);
}

/**
 * Leads with exits, those that score alike by how few call sites the fleet has for their callee, from the
 * references each scope reports (a lock or a log call has hundreds; the next step of one flow a few);
 * otherwise in the worker's order, which put them by its own scope's callers.
 */
function byFleetCallSites(ownership: TraceDeps["ownership"], leads: readonly SearchLead[]): SearchLead[] {
  const sites = new Map(leads.map((l) => [l, fleetCallSites(ownership, l.exit as NonNullable<SearchLead["exit"]>)]));
  return [...leads].sort((a, b) => b.score - a.score || (sites.get(a) as number) - (sites.get(b) as number));
}

export async function chooseExit(
  deps: TraceDeps,
  request: TraceRequest,
  result: ExpandResult,
  scope: string,
  before: Coverage,
  visited: ReadonlySet<string>,
  plan: string[] | null,
  hops: readonly TracedHop[],
): Promise<{ probe: Probe | null; decisions: SearchDecision[]; stop: string; then?: Probe }> {
  const decisions: SearchDecision[] = [];
  if (request.to && scope === request.to) return { probe: null, decisions, stop: `reached ${scope}` };
  const wanted = plan?.[hops.length] ?? null;
  const viable: { lead: SearchLead; owners: string[]; estimate: number }[] = [];
  let skipped = 0;
  const builtThenCalled = chainedConstructions(result.leads);
  const potential = ownerPotential(request, result, before);
  for (const original of result.leads) {
    if (!original.exit) continue;
    const exit = asModuleExit(original.exit, deps.ownership);
    const lead = exit === original.exit ? original : { ...original, exit };
    // `Parser(…).parsestr(…)`: the flow goes on into the method; the constructor only builds its object.
    if (builtThenCalled.has(callSiteKey(exit))) continue;
    const owners = ownersOfExit(exit, scope, deps, request.scopeScores, (owner) => potential(lead, owner));
    if ("none" in owners) {
      if (skipped < LOOKAHEAD_BEAM && lead.score >= FOLLOW_THRESHOLD) {
        skipped++;
        decisions.push({ at: "skip", detail: `${exit.target} (${exit.call_site.file_path}:${exit.call_site.line}) scored ${fmt(lead.score)}, but ${owners.none}` });
      }
      continue;
    }
    // A field exit is looked into in each of its first binders at once (one beam place for them all).
    const fresh = owners.scopes.filter((owner) => !visited.has(owner) && (wanted === null || owner === wanted) && !viable.some((c) => c.lead.exit?.target === exit.target && c.owners.includes(owner)));
    if (fresh.length === 0) continue;
    viable.push({ lead, owners: fresh, estimate: lead.score + Math.max(...fresh.map((owner) => potential(lead, owner))) });
  }
  // Exits that score alike, by how few call sites the whole fleet has for their callee (the worker ordered
  // them by its own scope's callers; a small scope calls most things once).
  const order = new Map(byFleetCallSites(deps.ownership, viable.map((v) => v.lead)).map((l, i) => [l, i]));
  viable.sort((a, b) => (order.get(a.lead) as number) - (order.get(b.lead) as number));
  // The exits looked into: the best by their own score, and the best of the rest by what their owners
  // could add, as the entry round saw those scopes (a callee named `urlopen` says little; urllib3's
  // "connection pool" says more).
  const beam = viable.slice(0, LOOKAHEAD_BEAM);
  const hopeful = viable.slice(LOOKAHEAD_BEAM).sort((a, b) => b.estimate - a.estimate)[0];
  if (hopeful && hopeful.estimate > (beam.at(-1)?.estimate ?? 0)) beam.push(hopeful);
  const candidates = beam.flatMap((v) => v.owners.map((owner) => ({ lead: v.lead, owner })));
  const probes = await Promise.all(candidates.map((c) => lookAhead(deps, request, c.lead, c.owner, result, before, hops)));
  const looked: Probe[] = [];
  for (const [i, probe] of probes.entries()) {
    if ("failed" in probe) decisions.push({ at: "skip", detail: `${candidates[i]?.lead.exit?.target}: ${probe.failed}` });
    else looked.push(probe);
  }
  const contenders = oneOwnerEach(looked);
  // On a planned route, an exit whose owner's paths go on into the route's next scope but one comes first:
  // the route must go on from where the exit leads (`dma_map_single`, not `dma_mapping_error`, leaves the
  // driver for kernel on the way to mm).
  const after = plan?.[hops.length + 1];
  const onward = new Map(contenders.map((p) => [p, after !== undefined && p.result.leads.some((l) => l.exit && ownsExit(deps, request, l.exit, p.owner, after)) ? 1 : 0]));
  const goesOn = (p: Probe) => onward.get(p) ?? 0;
  // Of exits worth the same, the worker's order stands (the fleet's order above only chose which to look into).
  const siteOf = (exit: SearchLead["exit"]) => (exit ? callSiteKey(exit) : "");
  const place = new Map(result.leads.map((l, i) => [siteOf(l.exit), i]));
  const placeOf = (p: Probe) => place.get(siteOf(p.lead.exit)) ?? result.leads.length;
  contenders.sort((a, b) => goesOn(b) - goesOn(a) || b.value - a.value || placeOf(a) - placeOf(b));
  const best = contenders[0];
  // Staying is an option too: the best path that ends in this scope. An exit is followed only if the
  // chain through it covers at least as much of the question as that path does.
  const stay = Math.max(coverageShare(request.question, before), ...result.leads.filter((l) => l.exit === null).map((l) => l.coverage));
  const towards = best ? nearerDestination(request, result, before, best) : false;
  let followed = best && (wanted !== null || (best.value >= FOLLOW_THRESHOLD && (best.reach >= stay || towards))) ? best : null;
  // The exit worth most may lead less far than staying while another leads as far: the chain goes on by the
  // one worth most of those that do (fsync's chain leaves ext4 for jbd2 by `ext4_jbd2_inode_add_wait` when
  // `ext4_force_commit`, worth more, ends short of what staying covers).
  const asFar = !followed && wanted === null && best && best.value >= FOLLOW_THRESHOLD ? contenders.find((p) => p !== best && p.value >= FOLLOW_THRESHOLD && p.reach >= stay) : undefined;
  if (asFar) followed = asFar;
  // An exit whose owner adds nothing itself may pass the chain on further than staying, or than the exit
  // chosen so far leads (`call_write_iter`, all of whose work is the call through `f_op->write_iter`).
  let passedOn: { probe: Probe; next: Probe } | null = null;
  const chosen = followed;
  const bar = Math.max(stay, chosen?.reach ?? 0);
  if (wanted === null && hops.length + 2 <= request.maxHops) {
    passedOn = await passThrough(deps, request, result, contenders.filter((p) => p !== chosen), before, visited, scope, hops, bar);
    if (passedOn) followed = passedOn.probe;
  }
  if (followed) {
    const exit = followed.lead.exit as NonNullable<SearchLead["exit"]>;
    // An exit looked into in several owners is told apart by its owner.
    const shared = (p: Probe) => looked.some((q) => q !== p && q.lead.exit?.target === p.lead.exit?.target);
    const others = looked.filter((p) => p !== followed).map((p) => `${p.lead.exit?.target}${shared(p) ? ` in ${p.owner}` : ""} ${fmt(p.value)}`);
    const named = explainMatches(exit.matches) || "its name matches nothing new";
    const reason = wanted !== null
      ? `the planned route goes to ${wanted}${goesOn(followed) ? `, and ${wanted}'s path from ${exit.target} goes on into ${after}` : ""}`
      : passedOn
        ? `${followed.owner} adds nothing itself (${fmt(followed.value)}), but passes the chain on by ${passedOn.next.lead.exit?.target} (${passedOn.next.lead.exit?.call_site.file_path}:${passedOn.next.lead.exit?.call_site.line}) into ${passedOn.next.owner}, which leads to ${fmt(passedOn.next.reach)} of the question, more than staying (${fmt(stay)})${chosen ? ` and than ${chosen.lead.exit?.target} (${fmt(chosen.reach)}), worth ${fmt(chosen.value)} itself` : ""}`
        : `it scored ${fmt(followed.value)} (${fmt(followed.own)} for ${named}, ${fmt(followed.adds)} for what ${followed.owner} adds past it)${followed.reach < stay ? `, and covers more than staying does once where the question says its path ends counts twice (staying covers ${fmt(stay)} of the question, it ${fmt(followed.reach)})` : ""}${followed === asFar && best ? `; ${best.lead.exit?.target}, worth more (${fmt(best.value)}), leads to ${fmt(best.reach)} of the question, less than staying (${fmt(stay)}), and this one as far (${fmt(followed.reach)})` : ""}`;
    const bound = followed.result.bound_at;
    const prefix = exit.via === "field" ? dispatchPrefix(exit.target) : null;
    const how = prefix !== null
      ? `by the name it builds from ${JSON.stringify(prefix)} (${exit.call_site.file_path}:${exit.call_site.line}), which ${followed.owner} defines as ${followed.result.steps[0]?.qualified ?? "?"}${bound ? ` at ${bound.file_path}:${bound.line}` : ""},`
      : exit.via === "field" && eventName(exit.target) !== null ? `by the event ${JSON.stringify(eventName(exit.target))} (${exit.call_site.file_path}:${exit.call_site.line}), whose handler ${followed.owner} registers as ${followed.result.steps[0]?.qualified ?? "?"}${bound ? ` at ${bound.file_path}:${bound.line}` : ""},`
      : exit.via === "field" ? `through the field ${exit.target} (${exit.call_site.file_path}:${exit.call_site.line}), which ${followed.owner} sets to ${followed.result.steps[0]?.qualified ?? "?"}${bound ? ` at ${bound.file_path}:${bound.line}` : ""},` : `by ${exit.target} (${exit.call_site.file_path}:${exit.call_site.line})`;
    decisions.push({ at: "exit", detail: `left ${scope} ${how} into ${followed.owner}: ${reason}${others.length > 0 ? `; also looked at: ${others.join(", ")}` : ""}` });
    return { probe: followed, decisions, stop: "", ...(passedOn ? { then: passedOn.next } : {}) };
  }
  const stop = wanted !== null
    ? `no call from ${scope} into ${wanted}, the next scope of the planned route`
    : best
      ? best.value < FOLLOW_THRESHOLD
        ? `no exit from ${scope} bears on the question enough to follow (best: ${best.lead.exit?.target} ${fmt(best.value)} < ${FOLLOW_THRESHOLD})`
        : `the best path in ${scope} covers more of the question (${fmt(stay)}) than any exit leads to (${looked.map((p) => `${p.lead.exit?.target} ${fmt(p.reach)}`).join(", ")})`
      : `${scope}'s paths leave it by no call another scope defines`;
  decisions.push({ at: "end", detail: stop });
  return { probe: null, decisions, stop };
}
