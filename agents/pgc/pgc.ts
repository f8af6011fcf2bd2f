// One scope's PGC in memory: retrieval with calibrated similarity, checkable citations, `ask`, and
// the code facts (symbols, cross-scope references) the manager builds its topology from.
import type { AskResult, Citation, OverlayId } from "../protocol/index.js";
import type { CodeReference, ScopeFacts } from "../../topology/index.js";
import { askResult } from "./ask.js";
import { citeHit, FileReader, verifyCitation } from "./cite.js";
import { moduleNames, retrieve, type EdgeMap, type RetrievalPgc } from "./retrieval/index.js";
import type { OpenedPgc, ScopeData } from "./store/open-pgc.js";
import type { CrossScopeReference, IndexDoc, Overlay } from "./types.js";
import { OVERLAYS } from "./types.js";
import { CallGraph, fieldCalled, type GraphNode } from "./callgraph/call-graph.js";
import { relativeTarget } from "./callgraph/reexports.js";
import { ScopeSearch } from "./callgraph/scope-search.js";

export interface PgcQueryOptions {
  overlays?: readonly OverlayId[];
  topK: number;
}

/**
 * Symbol kinds that other scopes can call or name (what the topology resolves references against). A
 * module-level `const` is one: much of a modern TypeScript API is `export const ZodString = …` or
 * `export const asyncScheduler = new AsyncScheduler(…)`.
 */
const LINKABLE_KINDS = new Set(["function", "method", "class", "struct", "union", "enum", "typedef", "interface", "type", "macro", "variable"]);
/** Python source: a function nested in another is no linkable name (facts). */
const PYTHON_FILE = /\.pyi?$/;

function edgeMap(docs: readonly IndexDoc[]): EdgeMap {
  const edges = new Map<string, string[]>();
  const add = (name: string | undefined, id: string) => {
    if (!name) return;
    const list = edges.get(name) ?? [];
    list.push(id);
    edges.set(name, list);
  };
  for (const doc of docs) {
    if (doc.overlay !== "O3" || doc.section !== "call_chain") continue;
    add(doc.fields.name, doc.id);
    add(doc.symbol, doc.id);
  }
  return edges;
}

/**
 * One entry per (kind, target), with its count and first location: a large scope makes tens of
 * thousands of identical references, and the topology needs only how many there are.
 */
function aggregateReferences(references: readonly CrossScopeReference[]): CodeReference[] {
  const byKey = new Map<string, CodeReference>();
  for (const r of references) {
    const target = r.resolved_outside ?? r.target;
    const key = `${r.kind}\0${target}\0${r.module ?? ""}`;
    const seen = byKey.get(key);
    if (seen) seen.count = (seen.count ?? 1) + 1;
    else byKey.set(key, { kind: r.kind, target, from_file: r.from_file, line: r.line, count: 1, ...(r.module === undefined ? {} : { module: r.module }) });
  }
  return [...byKey.values()];
}

/** One key for a definition, from its O1 document or its call-graph node: file, first line, name. */
function placeKey(file: string, line: number, name: string | undefined): string {
  return `${file}:${line}:${name ?? ""}`;
}

export class Pgc {
  readonly data: ScopeData;
  private readonly retrieval: RetrievalPgc;
  private readonly reader: FileReader;
  private readonly available: readonly Overlay[];
  private searchValue: ScopeSearch | null = null;
  private graphValue: CallGraph | undefined;

  constructor(
    readonly scope: string,
    readonly scopePaths: readonly string[],
    readonly opened: OpenedPgc,
  ) {
    this.data = opened.data;
    const docs = new Map(this.data.docs.map((doc) => [doc.id, doc]));
    const modules = moduleNames(this.data.files.map((f) => f.path));
    this.retrieval = { index: opened.index, calibration: opened.calibration, docs, edges: edgeMap(this.data.docs), modules };
    this.reader = new FileReader(this.data.root, new Map(this.data.files.map((f) => [f.path, f.sha256])));
    this.available = OVERLAYS.filter((o) => (this.data.stats.docs_by_overlay[o] ?? 0) > 0);
  }

  get root(): string {
    return this.data.root;
  }

  get revision(): string {
    return this.opened.manifest.index_revision;
  }

  overlays(): readonly Overlay[] {
    return this.available;
  }

  /** Citations for a query, most similar first; documents whose file changed since indexing are skipped. */
  async query(text: string, options: PgcQueryOptions): Promise<Citation[]> {
    return (await this.cited(text, options)).map((c) => c.citation);
  }

  async ask(question: string, options: PgcQueryOptions): Promise<AskResult> {
    const started = performance.now();
    return askResult(question, this.scope, await this.cited(question, options), options.topK, started);
  }

  /** Re-hash cited lines against the files as they are now (a replica checking another's citations). */
  async verifyCitations(citations: readonly Pick<Citation, "file_path" | "line_start" | "line_end" | "sha256">[]): Promise<boolean[]> {
    return Promise.all(citations.map((c) => verifyCitation(this.data.root, c)));
  }

  /** The call-graph search of this scope (ops `entry`, `expand`); its graph is built on first use. */
  search(): ScopeSearch {
    if (!this.searchValue) {
      const bodies = new Map<string, string>();
      for (const doc of this.data.docs) if (doc.overlay === "O1" && doc.fields.body !== undefined) bodies.set(placeKey(doc.file_path, doc.line_start, doc.symbol), doc.fields.body);
      const graph = this.callGraph();
      const nodes = new Map(graph.nodes.map((n) => [placeKey(n.file_path, n.line_start, n.name), n]));
      // The functions whose O1 document (name, signature, doc, body) holds a word: the lexical index's postings.
      // And those using it, whole, past their stored body (parse/body-uses.ts); a node both lists hold counts once all the same.
      const late = new Map<string, GraphNode[]>();
      for (const node of graph.nodes) {
        for (const word of node.terms.uses) {
          const list = late.get(word);
          if (list) list.push(node);
          else late.set(word, [node]);
        }
      }
      const usedBy = (word: string) => [
        ...this.retrieval.index.docsWithTerm(word).flatMap((id) => {
          const doc = this.retrieval.docs.get(id);
          const node = doc?.overlay === "O1" ? nodes.get(placeKey(doc.file_path, doc.line_start, doc.symbol)) : undefined;
          return node ? [node] : [];
        }),
        ...(late.get(word) ?? []),
      ];
      this.searchValue = new ScopeSearch(this.scope, graph, this.reader, (node) => bodies.get(placeKey(node.file_path, node.line_start, node.name)) ?? "", usedBy);
    }
    return this.searchValue;
  }

  /** The scope's call graph, built on first use (by the search or the facts). */
  private callGraph(): CallGraph {
    this.graphValue ??= new CallGraph(this.data);
    return this.graphValue;
  }

  /** What the manager's topology needs: owned paths, linkable symbols, references leaving the scope. */
  facts(): ScopeFacts {
    // A Python function defined in another's body is no name another module can import or call: not linkable.
    const closures = new Set(this.callGraph().nodes.filter((n) => n.nested && PYTHON_FILE.test(n.file_path)).map((n) => placeKey(n.file_path, n.line_start, n.name)));
    const linkable = this.data.symbols.filter((s) => LINKABLE_KINDS.has(s.kind) && !closures.has(placeKey(s.file_path, s.line_start, s.name)));
    const symbols = [...new Set(linkable.map((s) => s.name))].sort();
    // C struct fields this scope stores its functions into: a call through one elsewhere may land here.
    const fields = this.callGraph().boundFields();
    // And the fields its code calls through (`ops->ndo_start_xmit(…)`), with how many call sites: who may call those functions.
    const counts = new Map<string, number>();
    for (const call of this.data.calls) {
      const field = fieldCalled(call);
      if (field !== null) counts.set(field, (counts.get(field) ?? 0) + 1);
    }
    const through = Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
    // And the methods of other scopes' classes it calls through an object of known class, with how many call sites.
    const byClass = Object.fromEntries([...this.callGraph().classCalls()].sort(([a], [b]) => a.localeCompare(b)));
    // And its classes' bases (Python, TS/JS, C++): a class of another scope deriving from one of its classes inherits what that class calls on itself.
    const classBases = this.callGraph().classBases();
    // TS/JS re-exports (`export … from "./m.js"`), root-relative: the manager follows them from the package's entry module.
    const reexports = this.data.imports.filter((e) => e.reexport).flatMap((e) => {
      const to = e.resolved_path ?? relativeTarget(e.file_path, e.target);
      return to === null ? [] : [{ from: e.file_path, to }];
    });
    return {
      scope: this.scope,
      paths: this.scopePaths.length > 0 ? [...this.scopePaths] : [""],
      symbols,
      // And its method calls through objects of unknown class that may be another scope's method (call-graph.ts).
      references: [...aggregateReferences(this.data.crossScopeReferences), ...this.callGraph().looseCalls().map((c) => ({ kind: "call" as const, ...c }))],
      ...(fields.length > 0 ? { fields } : {}),
      ...(Object.keys(through).length > 0 ? { field_calls: through } : {}),
      ...(Object.keys(byClass).length > 0 ? { class_calls: byClass } : {}),
      ...(Object.keys(classBases).length > 0 ? { class_bases: classBases } : {}),
      ...(reexports.length > 0 ? { reexports } : {}),
    };
  }

  private async cited(text: string, options: PgcQueryOptions): Promise<{ citation: Citation; section: string }[]> {
    const overlays = options.overlays && options.overlays.length > 0 ? [...options.overlays] : undefined;
    // Ask for a few extra hits: a document whose file changed since indexing is dropped, not cited.
    const { hits } = retrieve(this.retrieval, text, { topK: Math.min(options.topK * 2, 100), ...(overlays ? { overlays } : {}) });
    const out: { citation: Citation; section: string }[] = [];
    const seen = new Set<string>();
    for (const hit of hits) {
      if (out.length >= options.topK) break;
      // Two documents may cite the same lines (a call seen from caller and callee): cite them once.
      const key = `${hit.doc.overlay}:${hit.doc.file_path}:${hit.doc.line_start}-${hit.doc.line_end}`;
      if (seen.has(key)) continue;
      const citation = await citeHit(hit, this.reader);
      if (!citation) continue;
      seen.add(key);
      out.push({ citation, section: hit.doc.section });
    }
    return out;
  }
}
