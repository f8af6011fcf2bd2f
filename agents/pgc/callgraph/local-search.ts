// A worker's part of the distributed search: from an entry function, follow the calls inside the scope
// best-first, scoring each function by the part of the question it newly covers (relevance.ts), and
// collect the paths' exits — calls into other scopes — with the same score.
import { coverageShare, cover, DEPTH_COST, gain, matchTerms, stepScore, type Coverage, type TermMatch } from "../../search/relevance.js";
import { asksAboutErrors, discounted, ERROR_CLASS_PRIOR, isErrorClass } from "../../search/error-priors.js";
import type { ParsedQuestion } from "../../search/question.js";
import { dispatchPrefix } from "../../protocol/index.js";
import type { BindingSite, CallGraph, ExitEdge, GraphNode } from "./call-graph.js";
import { exitKey } from "./exit-counts.js";
import type { AliasSite } from "./reexports.js";
import { tokenize } from "../retrieval/index.js";

/** Functions expanded per request at most: bounds a request's CPU on a scope of 50,000 lines. */
export const LOCAL_SEARCH_BUDGET = 400;
/** Calls deeper than this inside one scope are not followed (a chain hands on to the next scope instead). */
export const DEFAULT_LOCAL_DEPTH = 5;
/** Exits and local endings returned per request. */
export const MAX_EXIT_LEADS = 24;
export const MAX_LOCAL_LEADS = 4;

export interface Reached {
  node: GraphNode;
  parent: Reached | null;
  /** The call site in the parent's body that calls this node. */
  callLine: number | null;
  /** Other lines of the parent's body calling this node (LocalEdge.also). */
  alsoLines?: readonly number[];
  /** A call through a C struct field: where this node was stored into it. */
  bound?: BindingSite;
  /** The call names this node by a name a re-export gave it. */
  alias?: AliasSite;
  /** Not called but defined in the parent's body (LocalEdge.defines). */
  defines?: true;
  /** What the path covers up to and with this node (set when the search reaches it; its parent's while queued). */
  covered: Coverage;
  matches: TermMatch[];
  depth: number;
  /** stepScore of this node given its parent's coverage. */
  score: number;
  /** The path's worth: its steps' scores summed, from the entry to this node (before DEPTH_COST). */
  value: number;
}

export interface RawLead {
  end: Reached;
  exit: (ExitEdge & { matches: TermMatch[] }) | null;
  score: number;
  coverage: number;
}

/** A node's matches with its body's terms too (they count little: FIELD_STRENGTH.body). */
export type NodeMatcher = (node: GraphNode) => TermMatch[];

export function nodeMatcher(question: Pick<ParsedQuestion, "terms">, bodyTermsOf: (node: GraphNode) => ReadonlySet<string>, graph?: Pick<CallGraph, "superclassesOf">): NodeMatcher {
  const memo = new Map<number, TermMatch[]>();
  return (node) => {
    let matches = memo.get(node.id);
    if (!matches) {
      matches = matchTerms(question, { ...node.terms, body: bodyTermsOf(node) });
      // A constructor stands for its class (`SMTPNotSupportedError.__init__`).
      const cls = node.kind === "class" ? node.name : CONSTRUCTORS.has(node.name) ? node.container?.split(/::|\./).at(-1) : undefined;
      if (cls && isErrorClass(cls, graph?.superclassesOf(cls) ?? [])) matches = discounted(matches, ERROR_CLASS_PRIOR);
      memo.set(node.id, matches);
    }
    return matches;
  };
}

const CONSTRUCTORS = new Set(["__init__", "constructor"]);

/** An exit's matches: its callee's name, and as the container its class or module and a member call's receiver; an error class's discounted. */
export type ExitMatcher = (exit: ExitEdge) => TermMatch[];

/**
 * The object a member call is made on, as written, without its calls' arguments (`this.metadataRegistry` of
 * `this.metadataRegistry.get(schema)`): it names what the callee belongs to, as a class or module does.
 */
export function receiverOf(exit: Pick<ExitEdge, "via" | "callee" | "target">): string {
  if (exit.via !== "member") return "";
  const end = exit.callee.lastIndexOf(`.${exit.target}`);
  if (end <= 0) return "";
  let receiver = exit.callee.slice(0, end);
  for (let before = ""; before !== receiver; ) [before, receiver] = [receiver, receiver.replace(/\([^()]*\)/g, "")];
  return receiver;
}

/**
 * The exits' matcher of one question: many paths reach the same exit, and its matches depend on the exit
 * alone, so they are worked out once per exit of the graph (keyed by the edge itself).
 */
export function exitMatcher(question: Pick<ParsedQuestion, "terms">): ExitMatcher {
  const memo = new Map<ExitEdge, TermMatch[]>();
  return (exit) => {
    let matches = memo.get(exit);
    if (!matches) {
      // Its class or module, and the object it is called on (`metadataRegistry` for "the metadata attached").
      const container = `${exit.receiver_class ?? exit.module ?? ""} ${receiverOf(exit)}`;
      const named = matchTerms(question, { name: new Set(tokenize(exit.target)), container: new Set(tokenize(container)) });
      matches = isErrorClass(exit.target) ? discounted(named, ERROR_CLASS_PRIOR) : named;
      memo.set(exit, matches);
    }
    return matches;
  };
}

/** Binary max-heap on priority; small and local so the search needs no dependency. */
class MaxHeap<T> {
  private readonly items: { priority: number; value: T }[] = [];
  get size(): number {
    return this.items.length;
  }
  push(value: T, priority: number): void {
    const items = this.items;
    items.push({ priority, value });
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as { priority: number }).priority >= priority) break;
      [items[parent], items[i]] = [items[i] as (typeof items)[number], items[parent] as (typeof items)[number]];
      i = parent;
    }
  }
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && (items[l] as { priority: number }).priority > (items[best] as { priority: number }).priority) best = l;
        if (r < items.length && (items[r] as { priority: number }).priority > (items[best] as { priority: number }).priority) best = r;
        if (best === i) break;
        [items[best], items[i]] = [items[i] as (typeof items)[number], items[best] as (typeof items)[number]];
        i = best;
      }
    }
    return top?.value;
  }
}

/**
 * Best-first from `start`: every function reached once, by the path worth most first — its steps' scores
 * summed (each what it adds to the question's coverage plus RELEVANCE_CARRY of its own relevance), less
 * DEPTH_COST a step. The same worth orders the paths that end in the scope: of two paths covering the same,
 * the one going on through functions that name the question (`dumps` → `encode` → `iterencode`) reaches
 * where the work is done, and is worth more than the one stopping at the wrapper.
 * A class has no body to follow: it starts from its methods, each a path of its own, best first (the path
 * for "how does SMTPHandler send a record" is `emit`'s, not the class's).
 */
export function searchForward(graph: CallGraph, question: Pick<ParsedQuestion, "terms">, start: GraphNode, covered: Coverage, maxDepth: number, match: NodeMatcher, called = false, matchExit: ExitMatcher = exitMatcher(question)): RawLead[] {
  // Reached through a call (`SMTP(host)`), a class is its constructor; as the question's start, its methods.
  const ctor = called ? graph.constructorOf(start) : null;
  if (ctor) start = ctor;
  const members = called ? [] : graph.membersOf(start);
  const heap = new MaxHeap<Reached>();
  // A class starts from its methods; a built value (`ZodObject`) from its methods and from its own body.
  const starts = members.length === 0 ? [start] : start.kind === "variable" ? [start, ...members] : members;
  for (const node of starts) {
    const matches = match(node);
    const score = stepScore(question, matches, covered);
    const first: Reached = { node, parent: null, callLine: null, covered: cover(covered, matches), matches, depth: 0, score, value: score };
    heap.push(first, members.length > 0 ? coverageShare(question, first.covered) + first.score : Infinity);
  }
  const seen = new Set<number>();
  const reached: Reached[] = [];
  const followErrors = asksAboutErrors(question);
  while (heap.size > 0 && reached.length < LOCAL_SEARCH_BUDGET) {
    const state = heap.pop() as Reached;
    if (seen.has(state.node.id)) continue;
    seen.add(state.node.id);
    // Its coverage is made when it is reached, not when it is queued: most queued calls never are.
    if (state.parent) state.covered = cover(state.parent.covered, state.matches);
    reached.push(state);
    if (state.depth >= maxDepth) continue;
    for (const edge of graph.callsOf(state.node.id)) {
      if (seen.has(edge.to) || (edge.error_path && !followErrors)) continue;
      const node = graph.nodes[edge.to] as GraphNode;
      const matches = match(node);
      if (edge.bound && !onlyImplementation(graph, edge.bound, state.node) && !picksImplementation(question, matches, edge.bound.field, state.covered)) continue;
      const score = stepScore(question, matches, state.covered);
      // `covered` is the parent's until the child is reached (above).
      const child: Reached = { node, parent: state, callLine: edge.line, ...(edge.also ? { alsoLines: edge.also } : {}), ...(edge.bound ? { bound: edge.bound } : {}), ...(edge.alias ? { alias: edge.alias } : {}), ...(edge.defines ? { defines: true as const } : {}), covered: state.covered, matches, depth: state.depth + 1, score, value: state.value + score };
      heap.push(child, child.value - DEPTH_COST * child.depth);
    }
  }
  return leadsOf(graph, question, reached, matchExit);
}

/** Each exit edge's key (exitKey), made once: a graph's edges live as long as the graph. */
const exitKeys = new WeakMap<ExitEdge, string>();

function keyOf(exit: ExitEdge): string {
  let key = exitKeys.get(exit);
  if (key === undefined) exitKeys.set(exit, (key = exitKey(exit)));
  return key;
}

/**
 * The paths' leads: each exit once, by the path reaching it worth most, and the paths worth ending on.
 * Hundreds of reached functions make thousands of (function, exit) pairs, most of them beaten by another
 * path to the same exit: a pair's score is worked out first and its lead built only when it is the best so
 * far. A lead's coverage is the path's plus what the exit's name adds (`gain`), with no coverage map made.
 */
function leadsOf(graph: CallGraph, question: Pick<ParsedQuestion, "terms">, reached: readonly Reached[], matchExit: ExitMatcher): RawLead[] {
  const exits = new Map<string, RawLead>();
  const endings: RawLead[] = [];
  const followErrors = asksAboutErrors(question);
  for (const state of reached) {
    const share = coverageShare(question, state.covered);
    for (const exit of graph.exitsOf(state.node.id)) {
      if (exit.error_path && !followErrors) continue;
      const matches = matchExit(exit);
      const score = Math.max(0, stepScore(question, matches, state.covered) - DEPTH_COST * state.depth);
      const key = keyOf(exit);
      const known = exits.get(key);
      if (known && score <= known.score) continue;
      exits.set(key, { end: state, exit: { ...exit, matches }, score, coverage: share + gain(question, matches, state.covered) });
    }
    // A path worth ending on: its last function adds to the question (a path of only an entry always counts).
    if (state.parent === null || state.score > 0) endings.push({ end: state, exit: null, score: state.score, coverage: share });
  }
  // Exits that score alike are ordered by how few of the scope's functions call their callee: the next step
  // of one flow before a helper called from everywhere (counted once a lead, not at every comparison).
  const fanIns = new Map<RawLead, number>();
  for (const [key, lead] of exits) fanIns.set(lead, graph.callersOfExitKey(key));
  const fanIn = (lead: RawLead) => fanIns.get(lead) as number;
  const byScore = (a: RawLead, b: RawLead) => b.score - a.score || fanIn(a) - fanIn(b) || a.end.depth - b.end.depth;
  const worth = (l: RawLead) => l.end.value - DEPTH_COST * l.end.depth;
  const byWorth = (a: RawLead, b: RawLead) => worth(b) - worth(a) || a.end.depth - b.end.depth;
  return [...endings.sort(byWorth).slice(0, MAX_LOCAL_LEADS), ...[...exits.values()].sort(byScore).slice(0, MAX_EXIT_LEADS)];
}

/**
 * Many functions may be stored into one C struct field (every driver's `ndo_start_xmit`): a call through it
 * is followed to one of them only when the question names that one by a word of its own name or its file's
 * that the field's name does not have (`veth` of `veth_xmit`; "the serial core" of serial_core.c's
 * `uart_write` behind `tty->ops->write`) and the chain does not cover yet; otherwise the path would pick
 * an implementation by chance.
 */
export function picksImplementation(question: Pick<ParsedQuestion, "terms">, matches: readonly TermMatch[], field: string, covered: Coverage = new Map()): boolean {
  const fieldTerms = new Set(matchTerms(question, { name: new Set(tokenize(field)) }).map((m) => m.term));
  // A word the chain already covers as well (`netdev` after `netdev_start_xmit`) picks nothing.
  return matches.some((m) => (m.field === "name" || m.field === "symbol" || m.field === "file") && !fieldTerms.has(m.term) && (covered.get(m.term) ?? 0) < m.strength);
}

/**
 * A C struct field the scope stores one function into, in the calling function's own file (a work item the
 * file sets up and queues: `INIT_WORK(&vi->config_work, …)`, then `schedule_work(&vi->config_work)`), has
 * one implementation here: following it picks nothing by chance. Not a Python dispatch's pseudo-field.
 */
function onlyImplementation(graph: CallGraph, bound: BindingSite, caller: GraphNode): boolean {
  if (dispatchPrefix(bound.field) !== null) return false;
  const stored = graph.boundTo(bound.field);
  return stored.length === 1 && stored[0]?.site.file_path === caller.file_path;
}

/** The nodes of a path from the entry to `end`, entry first. */
export function pathOf(end: Reached): Reached[] {
  const path: Reached[] = [];
  for (let at: Reached | null = end; at; at = at.parent) path.unshift(at);
  return path;
}
