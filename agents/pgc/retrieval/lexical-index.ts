// BM25F lexical index over IndexDoc fields: ranked search with per-term coverage, exact symbol and edge look-ups.
import type { IndexDoc } from "../types.js";
import { IndexFormatError } from "./errors.js";
import { BM25_K1, FIELD_BOOSTS, FIELD_LENGTH_NORMALISATION } from "./fields.js";
import { buildIndexData, type IndexData, type TokenizedBatch } from "./index-builder.js";
import { checkTopK, DEFAULT_TOP_K, overlayMask, type SearchOptions } from "./search-options.js";
import { decodeIndex, encodeIndexJSON, encodeIndexStored, type IndexParams, type LexicalIndexJSON, type StoredLexicalIndex } from "./index-codec.js";
import { SymbolTable, type EdgeMap, type ExactMatch } from "./symbol-table.js";
import { tokenize } from "./tokenizer.js";
import { TopK } from "./top-k.js";

/** Matched query terms are tracked as bits of a 32-bit mask; longer queries keep their first 32 distinct terms. */
export const MAX_QUERY_TERMS = 32;

/** What calibration looks at for one hit; every ratio is relative to the query's best possible score. */
export interface HitFeatures {
  /** score / max_score, in [0, 1): how much of the query this document explains. */
  score_ratio: number;
  /** (score − best other hit's score) / max_score: positive only for a clear leader. */
  margin: number;
  /** Sum of idf of matched query terms / sum of idf of all query terms. */
  coverage: number;
  query_term_count: number;
}

export interface LexicalHit {
  doc_id: string;
  doc_index: number;
  /** Raw BM25F score: a sum over query terms of idf × saturated pseudo-frequency. */
  score: number;
  matched_terms: string[];
  /** Per query term: its saturation tf/(k1+tf) in this document, 0 where absent. */
  term_coverage: Record<string, number>;
  features: HitFeatures;
}

export interface SearchResult {
  query_terms: string[];
  /** The score of a document that saturates every query term: the sum of their idf. */
  max_score: number;
  hits: LexicalHit[];
}

interface ScoredQuery {
  terms: string[];
  termIds: (number | undefined)[];
  idfs: number[];
  maxScore: number;
}

export class LexicalIndex {
  private readonly termIds: Map<string, number>;
  private readonly symbols: SymbolTable;
  /** Scratch buffers reused by every search (search is synchronous, so calls never interleave). */
  private readonly scores: Float64Array;
  private readonly masks: Uint32Array;
  /** The documents the current search touched, each once, in `touched[0 .. touchedCount)`. */
  private readonly touched: Int32Array;
  private touchedCount = 0;

  private constructor(
    private readonly data: IndexData,
    readonly params: IndexParams,
  ) {
    this.termIds = new Map(data.terms.map((term, id) => [term, id]));
    this.symbols = new SymbolTable(data);
    this.scores = new Float64Array(data.docIds.length);
    this.masks = new Uint32Array(data.docIds.length);
    this.touched = new Int32Array(data.docIds.length);
  }

  /**
   * The index of `docs`. Given the `previous` index of the same scope, documents whose fields are unchanged
   * take their terms from it rather than being tokenized again, and documents `tokenized` ahead (on worker
   * threads, `tokenizeDocs`) are merged as they are; the result is identical either way.
   */
  static build(docs: readonly IndexDoc[], previous?: LexicalIndex, tokenized?: readonly TokenizedBatch[]): LexicalIndex {
    const seen = new Set<string>();
    for (const doc of docs) {
      if (seen.has(doc.id)) throw new IndexFormatError(`duplicate document id "${doc.id}"`);
      seen.add(doc.id);
    }
    const params = { k1: BM25_K1, boosts: { ...FIELD_BOOSTS }, length_normalisation: { ...FIELD_LENGTH_NORMALISATION } };
    return new LexicalIndex(buildIndexData(docs, previous?.data, tokenized), params);
  }

  /** Reads either serialized form: `toJSON()`'s or `toStored()`'s. */
  static fromJSON(json: unknown): LexicalIndex {
    const { data, params } = decodeIndex(json);
    return new LexicalIndex(data, params);
  }

  toJSON(): LexicalIndexJSON {
    return encodeIndexJSON(this.data, this.params);
  }

  /** The form the store packs: arrays as raw bytes (msgpack binary), no base64 step either way. */
  toStored(): StoredLexicalIndex {
    return encodeIndexStored(this.data, this.params);
  }

  get docCount(): number {
    return this.data.docIds.length;
  }

  get termCount(): number {
    return this.data.terms.length;
  }

  get postingCount(): number {
    return this.data.postingDocs.length;
  }

  docId(docIndex: number): string {
    const id = this.data.docIds[docIndex];
    if (id === undefined) throw new RangeError(`no document number ${docIndex}`);
    return id;
  }

  term(termId: number): string {
    const term = this.data.terms[termId];
    if (term === undefined) throw new RangeError(`no term number ${termId}`);
    return term;
  }

  /** The term owning posting `p`: drawing p uniformly draws terms in proportion to their document frequency. */
  termOfPosting(p: number): string {
    let lo = 0;
    let hi = this.data.terms.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.data.offsets[mid] as number) <= p) lo = mid;
      else hi = mid - 1;
    }
    return this.term(lo);
  }

  /** The ids of the documents holding `term` in any field (its postings), in index order. */
  docsWithTerm(term: string): string[] {
    const id = this.termIds.get(term);
    if (id === undefined) return [];
    const out: string[] = [];
    for (let p = this.data.offsets[id] as number; p < (this.data.offsets[id + 1] as number); p++) out.push(this.docId(this.data.postingDocs[p] as number));
    return out;
  }

  /** BM25 idf, never negative; a term the corpus lacks gets the idf of a term in no document. */
  idf(term: string): number {
    const id = this.termIds.get(term);
    const df = id === undefined ? 0 : (this.data.offsets[id + 1] as number) - (this.data.offsets[id] as number);
    return Math.log(1 + (this.docCount - df + 0.5) / (df + 0.5));
  }

  /** Doc ids whose symbol is exactly `name` (case-insensitive ones too when `ignoreCase`). */
  findSymbol(name: string, options: { ignoreCase?: boolean } = {}): string[] {
    return this.symbols.find(name, options.ignoreCase === true);
  }

  /** Resolves a caller-supplied symbol → doc ids map (call or include edges) to the docs this index holds. */
  lookupEdges(symbol: string, edges: EdgeMap): ExactMatch[] {
    return this.symbols.edges(symbol, edges);
  }

  search(query: string, options: SearchOptions = {}): SearchResult {
    return this.searchTerms(tokenize(query), options);
  }

  /** Ranked search over already-tokenized terms (what calibration uses, to control the query exactly). */
  searchTerms(terms: readonly string[], options: SearchOptions = {}): SearchResult {
    const topK = checkTopK(options.topK ?? DEFAULT_TOP_K);
    const query = this.prepare(terms);
    if (query.terms.length === 0) return { query_terms: [], max_score: 0, hits: [] };
    const allowed = overlayMask(options.overlays);
    // Typed scratch buffers, no per-search array: calibration runs thousands of searches in a row.
    const { scores, masks, touched } = this;
    const overlays = this.data.docOverlays;
    this.touchedCount = 0;
    try {
      this.accumulate(query);
      // At least two, so the leader's margin over the runner-up is known even for topK = 1.
      const best = new TopK(Math.max(topK, 2));
      for (let i = 0, n = this.touchedCount; i < n; i++) {
        const doc = touched[i] as number;
        if ((allowed >>> (overlays[doc] as number)) & 1) best.offer(doc, scores[doc] as number);
      }
      const hits = best.docs.map((doc, rank) => this.describeHit(doc, rank, best.scores, query));
      return { query_terms: query.terms, max_score: query.maxScore, hits: hits.slice(0, topK) };
    } finally {
      for (let i = 0, n = this.touchedCount; i < n; i++) {
        const doc = touched[i] as number;
        scores[doc] = 0;
        masks[doc] = 0;
      }
      this.touchedCount = 0;
    }
  }

  private prepare(terms: readonly string[]): ScoredQuery {
    const unique = [...new Set(terms)].slice(0, MAX_QUERY_TERMS);
    const idfs = unique.map((term) => this.idf(term));
    return {
      terms: unique,
      termIds: unique.map((term) => this.termIds.get(term)),
      idfs,
      maxScore: idfs.reduce((sum, idf) => sum + idf, 0),
    };
  }

  /** Term-at-a-time scoring into reusable per-document buffers; records each document it touches once. */
  private accumulate(query: ScoredQuery): void {
    const { offsets, postingDocs, postingWeights } = this.data;
    const { scores, masks, touched } = this;
    const k1 = this.params.k1;
    let count = this.touchedCount;
    for (let q = 0; q < query.termIds.length; q++) {
      const id = query.termIds[q];
      if (id === undefined) continue;
      const idf = query.idfs[q] as number;
      const bit = 1 << q;
      for (let p = offsets[id] as number, end = offsets[id + 1] as number; p < end; p++) {
        const doc = postingDocs[p] as number;
        const weight = postingWeights[p] as number;
        if (masks[doc] === 0) touched[count++] = doc;
        masks[doc] = (masks[doc] as number) | bit;
        scores[doc] = (scores[doc] as number) + (idf * weight) / (k1 + weight);
      }
    }
    this.touchedCount = count;
  }

  private describeHit(doc: number, rank: number, scores: readonly number[], query: ScoredQuery): LexicalHit {
    const score = scores[rank] as number;
    const other = rank === 0 ? (scores[1] ?? 0) : (scores[0] as number);
    const mask = this.masks[doc] as number;
    const matched: string[] = [];
    const termCoverage: Record<string, number> = {};
    let matchedIdf = 0;
    query.terms.forEach((term, q) => {
      const hit = ((mask >>> q) & 1) === 1;
      const weight = hit ? this.weightOf(query.termIds[q] as number, doc) : 0;
      termCoverage[term] = weight / (this.params.k1 + weight);
      if (!hit) return;
      matched.push(term);
      matchedIdf += query.idfs[q] as number;
    });
    const max = query.maxScore;
    return {
      doc_id: this.docId(doc),
      doc_index: doc,
      score,
      matched_terms: matched,
      term_coverage: termCoverage,
      features: {
        score_ratio: max > 0 ? score / max : 0,
        margin: max > 0 ? (score - other) / max : 0,
        coverage: max > 0 ? matchedIdf / max : 0,
        query_term_count: query.terms.length,
      },
    };
  }

  /** Binary search of `doc` in the term's ascending postings. */
  private weightOf(termId: number, doc: number): number {
    let lo = this.data.offsets[termId] as number;
    let hi = (this.data.offsets[termId + 1] as number) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.data.postingDocs[mid] as number;
      if (at === doc) return this.data.postingWeights[mid] as number;
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}
