// The worker side of the ops `entry` and `expand` (protocol/search.ts): the scope's best entry points for
// a question, and its best local paths from one entry with their exits, every step cited and hashed.
import { MAX_ENTRY_FIELDS, type BindingSiteRef, type CallSiteRef, type EntryCandidate, type EntryResult, type ExpandArgs, type ExpandResult, type SearchLead, type SearchQuestion, type SearchStep } from "../../protocol/index.js";
import { matchTerms, relevance, stepScore, unexplainedWords, type Coverage } from "../../search/relevance.js";
import { tokenize } from "../retrieval/index.js";
import { fieldCalled, type BindingSite, type CallGraph, type CallerOf, type GraphNode } from "./call-graph.js";
import { callsMethodOf, callsOtherThan, extendsMethod } from "./method-callers.js";
import { asksAboutErrors } from "../../search/error-priors.js";
import type { AliasSite } from "./reexports.js";
import { EntryIndex, type ScoredNode, type UsedBy } from "./entry-index.js";
import { DEFAULT_LOCAL_DEPTH, pathOf, picksImplementation, searchForward, type NodeMatcher, type RawLead } from "./local-search.js";
import { LineCiter, placeOf, type SourceText } from "./line-citer.js";
import { inSlices, warmQuestions, type WarmUpStats } from "./warm-up.js";
import { QuestionCache, type InternedQuestion } from "./question-cache.js";

export { HEAD_LINES, MAX_CITED_LINES, type SourceText } from "./line-citer.js";

export const DEFAULT_ENTRY_TOP_K = 8;
/** Callers of a name returned at most (callers mode). */
export const MAX_CALLER_LEADS = 16;

export class ScopeSearch {
  private index: EntryIndex | undefined;
  private questions: QuestionCache | undefined;
  /**
   * Each body's terms, tokenized on first use and kept: the same functions are reached by many questions.
   * The stored body is a function's first lines (MAX_BODY_LINES); what it calls anywhere in it is part of
   * what it does too, so the names it calls are body terms as well (`this.metadataRegistry.get(schema)` on
   * line 540 of a 550-line function), and so are the compound identifiers it uses past them, whole.
   */
  private readonly bodies = new Map<number, ReadonlySet<string>>();
  private readonly bodyTerms = (node: GraphNode): ReadonlySet<string> => {
    let terms = this.bodies.get(node.id);
    if (!terms) {
      const called = [...this.graph.callsOf(node.id), ...this.graph.exitsOf(node.id)].map((edge) => edge.callee).join(" ");
      // And the compound identifiers it uses past its stored body, whole (`ui_dev_create` of a long switch).
      this.bodies.set(node.id, (terms = new Set([...tokenize(`${this.bodyOf(node)}\n${called}`), ...node.terms.uses])));
    }
    return terms;
  };

  constructor(
    private readonly scope: string,
    private readonly graph: CallGraph,
    private readonly source: SourceText,
    private readonly bodyOf: (node: GraphNode) => string,
    private readonly usedBy: UsedBy = () => [],
  ) {}

  /**
   * Once the worker is ready, the work its first questions would otherwise wait for (warm-up.ts): the entry
   * index, every body's terms, then WARM_QUESTIONS questions made of the scope's own names through `entry`,
   * `expand` and `callers`, their answers dropped. In slices; `stopped` ends it early (the worker stopping).
   */
  async warmUp(stopped: () => boolean = () => false): Promise<WarmUpStats> {
    const started = performance.now();
    this.index ??= new EntryIndex(this.graph, this.usedBy);
    const bodies = await inSlices(this.graph.nodes, (node) => void this.bodyTerms(node), stopped);
    const asked = await inSlices(warmQuestions(this.graph), async ({ question, from, callee }) => {
      this.entry(question);
      await this.expand({ question, mode: "forward", from: { symbol: from.name, file_path: from.file_path, line: from.line_start }, covered: {} });
      if (callee) await this.expand({ question, mode: "callers", from: { symbol: callee.name }, covered: {} });
    }, stopped);
    // Its questions are no user's: what they interned is dropped (the compiled code and the bodies' terms stay).
    this.questions = undefined;
    return { bodies, questions: asked, ms: Math.round(performance.now() - started) };
  }

  /** The scope's best entry points: functions whose name, class, file, directories or doc match the question. */
  entry(asked: SearchQuestion, topK = DEFAULT_ENTRY_TOP_K): EntryResult {
    this.index ??= new EntryIndex(this.graph, this.usedBy);
    const { question } = this.interned(asked);
    // Ties go to the smaller unit, then to source order: a function before the 600-line class holding it.
    // Each candidate's unexplained words counted once, not at every comparison of the sort.
    const unexplained = new Map<ScoredNode, number>();
    const words = (s: ScoredNode) => {
      let n = unexplained.get(s);
      if (n === undefined) unexplained.set(s, (n = unexplainedWords(s.node.terms.name, s.matches)));
      return n;
    };
    const { best, df } = this.index.search(question, topK, (a, b) => b.score - a.score || span(a.node) - span(b.node) || words(a) - words(b) || a.node.file_path.localeCompare(b.node.file_path) || a.node.line_start - b.node.line_start);
    const candidates: EntryCandidate[] = best.map(({ node, matches }) => ({ ...placeOf(node), matches }));
    return { scope: this.scope, nodes: this.graph.nodes.length, df, candidates };
  }

  /** Distinct questions this scope holds matchers for (question-cache.ts). */
  get questionsHeld(): number {
    return this.questions?.size ?? 0;
  }

  /** The question as this scope has seen it before, with its matchers (question-cache.ts). */
  private interned(question: SearchQuestion): InternedQuestion {
    this.questions ??= new QuestionCache(this.graph, this.bodyTerms);
    return this.questions.get(question);
  }

  async expand(asked: ExpandArgs): Promise<ExpandResult> {
    const { question, node: match, exit: matchExit } = this.interned(asked.question);
    const args = { ...asked, question };
    if (args.mode === "callers") return this.callers(args, match);
    const bound = args.from.field ? this.boundEntry(args, match) : null;
    const start = bound ? bound.node : args.from.field ? null : this.resolveEntry(args, match);
    if (!start) return { scope: this.scope, resolved: false, steps: [], leads: [] };
    const raw = searchForward(this.graph, args.question, start, new Map(Object.entries(args.covered)), args.max_depth ?? DEFAULT_LOCAL_DEPTH, match, args.from.called === true, matchExit);
    const citer = new LineCiter(this.source);
    const result = await this.withFields(await this.wire(raw, citer, lineBearing(args.question)), start, citer);
    if (!bound) return result;
    const at = await citer.line(bound.site.file_path, await citer.bindingLine(bound.site, bound.node));
    return at ? { ...result, bound_at: { field: bound.site.field, ...at } } : { scope: this.scope, resolved: false, steps: [], leads: [] };
  }

  /** The binding lines storing the entry into struct fields, cited (how code elsewhere calls it). */
  private async withFields(result: ExpandResult, entry: GraphNode, citer: LineCiter): Promise<ExpandResult> {
    const fields: BindingSiteRef[] = [];
    for (const site of this.graph.bindingsOf(entry).slice(0, MAX_ENTRY_FIELDS)) {
      const at = await citer.line(site.file_path, await citer.bindingLine(site, entry));
      if (at) fields.push({ field: site.field, ...at });
    }
    return fields.length > 0 ? { ...result, entry_fields: fields } : result;
  }

  /** Reached through a C struct field: of the functions this scope stores into it, the one bearing most on the question. */
  private boundEntry(args: ExpandArgs, match: NodeMatcher): { node: GraphNode; site: BindingSite } | null {
    const covered: Coverage = new Map(Object.entries(args.covered));
    const all = this.graph.boundTo(args.from.symbol);
    // The one function the whole fleet stores into the field is what a call through it runs, as a call by name would.
    if (args.from.sole && all.length > 0 && all.every((b) => b.node.id === all[0]?.node.id)) return all[0] ?? null;
    const bound = all.filter((b) => picksImplementation(args.question, match(b.node), args.from.symbol, covered));
    // What each adds to the chain so far, as any step is scored.
    const score = (n: GraphNode) => stepScore(args.question, match(n), covered);
    return [...bound].sort((a, b) => score(b.node) - score(a.node) || a.node.file_path.localeCompare(b.node.file_path) || a.node.line_start - b.node.line_start)[0] ?? null;
  }

  /** The node `from` names: by name (a `Class.method` by both), preferring its file, then its module's file. */
  private resolveEntry(args: ExpandArgs, match: NodeMatcher): GraphNode | null {
    const { symbol, file_path: file, line, module } = args.from;
    const dot = symbol.lastIndexOf(".");
    const name = dot >= 0 ? symbol.slice(dot + 1) : symbol;
    const owner = dot >= 0 ? symbol.slice(0, dot).split(".").at(-1) : undefined;
    // Called through an object, the name is a method: a free function of the same name is not it (`errors.map(…)` is no `map` operator).
    const named = this.graph.named(name).filter((n) => !args.from.member || n.container !== undefined);
    // `BytesGenerator.flatten` may be inherited: a method of the class or of one it derives from.
    const owners = owner === undefined ? null : new Set([owner, ...this.graph.superclassesOf(owner)]);
    let nodes = named.filter((n) => owners === null || owners.has(n.container?.split(/::|\./).at(-1) ?? "") || named.length === 1);
    if (nodes.length === 0) nodes = [...named];
    if (nodes.length <= 1) return nodes[0] ?? null;
    const exact = nodes.find((n) => n.file_path === file && (line === undefined || (n.line_start <= line && line <= n.line_end)));
    if (exact) return exact;
    const inFile = nodes.filter((n) => n.file_path === file);
    if (inFile.length > 0) return inFile[0] as GraphNode;
    const moduleTerms = module ? module.replace(/^\.+/, "").split(/[./]/).filter(Boolean) : [];
    const byModule = nodes.find((n) => moduleTerms.length > 0 && moduleTerms.every((part) => n.file_path.includes(part)));
    if (byModule) return byModule;
    // Else the definition that bears most on the question (a header's inline over a same-named static elsewhere is not knowable).
    return [...nodes].sort((a, b) => relevance(args.question, match(b)) - relevance(args.question, match(a)) || span(a) - span(b))[0] as GraphNode;
  }

  /** Callers mode: the functions of this scope that call `from.symbol`, most relevant to the question first. */
  private async callers(args: ExpandArgs, match: NodeMatcher): Promise<ExpandResult> {
    const name = args.from.symbol.slice(args.from.symbol.lastIndexOf(".") + 1);
    // Not a function calling itself (`clone` recursing); a method wrapping the name (`inst.clone = … core.clone(…)`) is a caller.
    // Through a struct field (`from.field`): only the calls through that field (`ops->ndo_start_xmit(…)`).
    const dot = args.from.symbol.lastIndexOf(".");
    const owner = dot > 0 ? args.from.symbol.slice(0, dot).split(".").at(-1) : undefined;
    const followErrors = asksAboutErrors(args.question);
    // Where the function is known, a call the scope resolved to another function of its name is not its
    // (`self.request(…)`, a method, is no call of the module's function `request`).
    const at = this.nodeAt(args.from);
    const found: (CallerOf & { defines?: true })[] = this.graph
      .callersOf(name)
      .filter((c) => !at || !c.to || nests(c.to, at) || nests(at, c.to))
      .filter((c) => (args.from.field ? (c.field ?? fieldCalled({ callee: c.callee, file_path: c.node.file_path })) === name : !(c.node.name === name && c.callee === name)))
      .filter((c) => owner === undefined || callsMethodOf(this.graph, c, owner))
      .filter((c) => args.from.method_of === undefined || !callsOtherThan(this.graph, c, args.from.method_of, args.question.intent !== "callers"))
      // Asked by name for a method in a climb, a subclass's override extending it is no caller before it ("who calls" lists it).
      .filter((c) => args.from.method_of === undefined || args.question.intent === "callers" || !extendsMethod(this.graph, c.node, name, args.from.method_of))
      // A call on an error path is where a path begins only for a question about errors, as a path search
      // follows it only then; "who calls" lists every caller.
      .filter((c) => !c.error_path || args.question.intent === "callers" || followErrors);
    const seen = new Set<number>();
    const raw: { node: GraphNode; line: number; callee: string; score: number; unexplained: number; defines?: true; bound?: BindingSite; to?: GraphNode }[] = [];
    // For a climb (a "how" question), a closure nothing here calls by name (a callback passed on: `commit`
    // inside `runClientTransaction`) is reached from the function defining it, as the forward search steps into it.
    // Not a method: it is called through its object, and the function that defines it only builds that object
    // (TanStack Table's `createColumn` gives each column its `getCanGlobalFilter`, which filtering calls later).
    const definer = found.length === 0 && at && at.kind !== "method" && args.question.intent !== "callers" ? this.graph.definerOf(at) : null;
    if (definer) found.push({ node: definer.node, line: definer.line, callee: name, defines: true });
    for (const c of found) {
      if (seen.has(c.node.id)) continue;
      seen.add(c.node.id);
      const matches = match(c.node);
      raw.push({ ...c, score: relevance(args.question, matches), unexplained: unexplainedWords(c.node.terms.name, matches) });
    }
    raw.sort((a, b) => b.score - a.score || a.unexplained - b.unexplained || a.node.file_path.localeCompare(b.node.file_path) || a.line - b.line);
    const steps: SearchStep[] = [];
    const leads: SearchLead[] = [];
    const citer = new LineCiter(this.source);
    for (const c of raw.slice(0, MAX_CALLER_LEADS)) {
      const step = await citer.step(c.node, match(c.node));
      // A call through a field the callee was stored into cites where it was (`bound_at`), for the manager's check.
      const bound = c.bound && c.to && !args.from.field ? { ...c.bound, line: await citer.bindingLine(c.bound, c.to) } : undefined;
      const site = await citer.callSite(c.node.file_path, c.line, c.defines ? { defines: true } : bound ? { bound } : {});
      if (!step || !site) continue;
      steps.push(step);
      const matches = matchTerms(args.question, { name: new Set(tokenize(name)) });
      leads.push({ path: [steps.length - 1], call_sites: [], exit: { target: name, callee: c.callee, via: "local", call_site: site, matches }, score: c.score, coverage: c.score });
    }
    return { scope: this.scope, resolved: true, steps, leads };
  }

  /** The function `from` is, when it says where (a climb's step): the one of its name whose lines hold `from.line` in `from.file_path`. */
  private nodeAt(from: ExpandArgs["from"]): GraphNode | undefined {
    const { symbol, file_path: file, line, field } = from;
    if (field || file === undefined || line === undefined) return undefined;
    return this.graph.named(symbol.slice(symbol.lastIndexOf(".") + 1)).find((n) => n.file_path === file && n.line_start <= line && line <= n.line_end);
  }

  private async wire(raw: readonly RawLead[], citer: LineCiter, bears: (text: string) => number = () => 0): Promise<ExpandResult> {
    const steps: SearchStep[] = [];
    const index = new Map<number, number>();
    const leads: SearchLead[] = [];
    // The leads share their paths' first calls: each call line is read and hashed once per request.
    const cited = new Map<string, Promise<CallSiteRef | null>>();
    const callSite = (file: string, line: number, via: { bound?: BindingSite; alias?: AliasSite; defines?: true } = {}) => {
      const key = `${file}\0${line}\0${via.bound ? `${via.bound.file_path}:${via.bound.line}:${via.bound.field}` : ""}\0${via.alias ? `${via.alias.file_path}:${via.alias.line}:${via.alias.name}` : ""}\0${via.defines ? 1 : 0}`;
      let site = cited.get(key);
      if (!site) cited.set(key, (site = citer.callSite(file, line, via)));
      return site;
    };
    for (const lead of raw) {
      const path = pathOf(lead.end);
      const ids: number[] = [];
      const sites: CallSiteRef[] = [];
      let complete = true;
      for (const reached of path) {
        let at = index.get(reached.node.id);
        if (at === undefined) {
          const step = await citer.step(reached.node, reached.matches);
          if (!step) {
            complete = false;
            break;
          }
          at = steps.push(step) - 1;
          index.set(reached.node.id, at);
        }
        ids.push(at);
        if (reached.parent && reached.callLine !== null) {
          const line = reached.defines ? await citer.definitionLine(reached.node) : await citer.bestLine(reached.parent.node.file_path, reached.callLine, reached.alsoLines, bears);
          const bound = reached.bound ? { ...reached.bound, line: await citer.bindingLine(reached.bound, reached.node) } : undefined;
          const site = await callSite(reached.parent.node.file_path, line, { ...reached, ...(bound ? { bound } : {}) });
          if (!site) {
            complete = false;
            break;
          }
          sites.push(site);
        }
      }
      if (!complete) continue;
      let exit: SearchLead["exit"] = null;
      if (lead.exit) {
        const site = await callSite(lead.end.node.file_path, await citer.bestLine(lead.end.node.file_path, lead.exit.line, lead.exit.also, bears), lead.exit);
        if (!site) continue;
        exit = { target: lead.exit.target, callee: lead.exit.callee.slice(0, 300), ...(lead.exit.module ? { module: lead.exit.module } : {}), ...(lead.exit.receiver_class ? { receiver_class: lead.exit.receiver_class } : {}), ...(lead.exit.caller_class ? { caller_class: lead.exit.caller_class } : {}), via: lead.exit.via, call_site: site, matches: lead.exit.matches };
      }
      leads.push({ path: ids, call_sites: sites, exit, score: round(lead.score), coverage: round(Math.min(1, lead.coverage)) });
    }
    return { scope: this.scope, resolved: true, steps, leads };
  }
}

function span(node: GraphNode): number {
  return node.line_end - node.line_start;
}


function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** How much a line's text bears on the question: its relevance with the line's words as a body, as a function's body is scored. */
function lineBearing(question: SearchQuestion): (text: string) => number {
  return (text) => relevance(question, matchTerms(question, { body: new Set(tokenize(text)) }));
}

/** `inner` is `outer` or lies within it (a class's constructor within its class: `new Foo()` resolved to either is a call of it). */
function nests(inner: GraphNode, outer: GraphNode): boolean {
  return inner.file_path === outer.file_path && outer.line_start <= inner.line_start && inner.line_end <= outer.line_end;
}
