// Exact look-ups: which documents are about a named symbol, and which a caller's edge map points at.
import type { IndexData } from "./index-builder.js";

/** Caller-supplied edges: a symbol → ids of documents that state a fact about it (call sites, includes). */
export type EdgeMap = ReadonlyMap<string, readonly string[]>;

/** A document found by name rather than by similarity. */
export interface ExactMatch {
  doc_id: string;
  /** The identifier as it was looked up. */
  identifier: string;
  via: "symbol" | "symbol_ignore_case" | "edge";
}

/** Built lazily: a worker that only ever runs ranked search never pays for these maps. */
export class SymbolTable {
  private exact: Map<string, number[]> | undefined;
  private folded: Map<string, number[]> | undefined;
  private byId: Map<string, number> | undefined;

  constructor(private readonly data: IndexData) {}

  find(name: string, ignoreCase: boolean): string[] {
    this.ensureSymbols();
    const docs = ignoreCase ? this.folded?.get(name.toLowerCase()) : this.exact?.get(name);
    return (docs ?? []).map((doc) => this.data.docIds[doc] as string);
  }

  indexOf(docId: string): number | undefined {
    if (this.byId === undefined) this.byId = new Map(this.data.docIds.map((id, doc) => [id, doc]));
    return this.byId.get(docId);
  }

  edges(symbol: string, edges: EdgeMap): ExactMatch[] {
    const out: ExactMatch[] = [];
    const seen = new Set<string>();
    for (const docId of edges.get(symbol) ?? []) {
      if (seen.has(docId) || this.indexOf(docId) === undefined) continue;
      seen.add(docId);
      out.push({ doc_id: docId, identifier: symbol, via: "edge" });
    }
    return out;
  }

  private ensureSymbols(): void {
    if (this.exact !== undefined) return;
    const exact = new Map<string, number[]>();
    const folded = new Map<string, number[]>();
    this.data.docSymbols.forEach((symbol, doc) => {
      if (symbol.length === 0) return;
      push(exact, symbol, doc);
      push(folded, symbol.toLowerCase(), doc);
    });
    this.exact = exact;
    this.folded = folded;
  }
}

function push(map: Map<string, number[]>, key: string, doc: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [doc]);
  else list.push(doc);
}
