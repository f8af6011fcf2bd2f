// Builds the inverted index from IndexDocs, from scratch or from a previous index: a document whose
// fields hash as before takes its terms and counts from the previous index instead of being tokenized.
// Either way the layout is canonical (terms sorted, documents ascending per term), so an index patched
// from a previous one is the same, array for array, as one built from scratch over the same documents.
import { OVERLAYS, type IndexDoc } from "../types.js";
import { DocCounter, DocTermTable, FIELD_COUNT, fieldsHash, Vocabulary, type TokenizedDocs } from "./doc-terms.js";
import { FIELD_BOOSTS, FIELD_LENGTH_NORMALISATION, FIELDS } from "./fields.js";
import { StoredDocTerms } from "./stored-doc-terms.js";

/** The in-memory (and serialized) shape of a lexical index. Postings of term t are [offsets[t], offsets[t+1]). */
export interface IndexData {
  readonly docIds: readonly string[];
  /** Index into OVERLAYS for each document. */
  readonly docOverlays: Uint8Array;
  /** The symbol a document is about, "" when none. */
  readonly docSymbols: readonly string[];
  /** FIELD_COUNT field lengths (in terms) per document. */
  readonly docLengths: Uint32Array;
  /** Two 32-bit hashes per document of the fields it was tokenized from (`fieldsHash`). */
  readonly docHashes: Uint32Array;
  /** Ascending (code-unit order), each once. */
  readonly terms: readonly string[];
  readonly offsets: Uint32Array;
  /** Document numbers, ascending within each term. */
  readonly postingDocs: Uint32Array;
  /** FIELD_COUNT counts per posting: how often the term occurs in each field of the document. */
  readonly postingCounts: Uint16Array;
  /** BM25F pseudo term frequency, derived from the counts: counts times boosts, each divided by its field's length norm. */
  readonly postingWeights: Float32Array;
}

/** Documents tokenized ahead (on a worker thread): `docs[first + i]` is the batch's document i. */
export interface TokenizedBatch {
  first: number;
  batch: TokenizedDocs;
}

/**
 * Builds the index of `docs`. A document's terms come from a batch tokenized ahead when one covers it,
 * else from the `previous` index when its fields hash as they did there, else from tokenizing it here.
 */
export function buildIndexData(docs: readonly IndexDoc[], previous?: IndexData, tokenized: readonly TokenizedBatch[] = []): IndexData {
  const ahead = new Int32Array(docs.length).fill(-1);
  tokenized.forEach(({ first, batch }, b) => ahead.fill(b, first, first + batch.starts.length - 1));
  const docHashes = new Uint32Array(docs.length * 2);
  docs.forEach((doc, d) => {
    const b = ahead[d] as number;
    if (b < 0) return fieldsHash(doc, docHashes, d * 2);
    const { first, batch } = tokenized[b] as TokenizedBatch;
    docHashes.set(batch.hashes.subarray((d - first) * 2, (d - first) * 2 + 2), d * 2);
  });
  const vocabulary = new Vocabulary(previous?.terms ?? []);
  const firstFresh = vocabulary.terms.length;
  const stored = previous ? new StoredDocTerms(previous) : null;
  const table = new DocTermTable(docs.length);
  const counter = new DocCounter(vocabulary);
  const merger = new BatchMerger(vocabulary);
  docs.forEach((doc, d) => {
    const b = ahead[d] as number;
    if (b >= 0) return merger.copyInto(tokenized[b] as TokenizedBatch, d, table);
    const old = stored?.find(docHashes[d * 2] as number, docHashes[d * 2 + 1] as number);
    if (stored && old !== undefined) stored.copyInto(old, table);
    else counter.addDoc(doc, table);
  });
  const postings = layOut(vocabulary.terms, firstFresh, table);
  return {
    docIds: docs.map((doc) => doc.id),
    docOverlays: Uint8Array.from(docs, overlayNumber),
    docSymbols: docs.map((doc) => doc.symbol ?? doc.fields.name ?? ""),
    docLengths: table.lengths,
    docHashes,
    ...postings,
    postingWeights: postingWeights(postings.offsets, postings.postingDocs, postings.postingCounts, table.lengths),
  };
}

/** Copies a document of a batch into the build, its local term ids mapped once per batch to the build's. */
class BatchMerger {
  private current: TokenizedBatch | null = null;
  private ids = new Uint32Array(0);

  constructor(private readonly vocabulary: Vocabulary) {}

  copyInto(entry: TokenizedBatch, d: number, table: DocTermTable): void {
    if (this.current !== entry) {
      this.current = entry;
      this.ids = Uint32Array.from(entry.batch.terms, (term) => this.vocabulary.idOf(term));
    }
    const { batch } = entry;
    const i = d - entry.first;
    const start = batch.starts[i] as number;
    const end = batch.starts[i + 1] as number;
    const termIds = new Uint32Array(end - start);
    for (let k = start; k < end; k++) termIds[k - start] = this.ids[batch.termIds[k] as number] as number;
    table.push(termIds, batch.counts.subarray(start * FIELD_COUNT, end * FIELD_COUNT), batch.lengths.subarray(i * FIELD_COUNT, (i + 1) * FIELD_COUNT));
  }
}

function overlayNumber(doc: IndexDoc): number {
  const at = OVERLAYS.indexOf(doc.overlay);
  return at < 0 ? 0 : at;
}

/**
 * Term ids in term order, used terms only. Ids below `firstFresh` came from a previous index, whose terms
 * are already sorted; only the new ones need sorting before the two runs are merged.
 */
function canonicalOrder(terms: readonly string[], firstFresh: number, df: Uint32Array): number[] {
  const old: number[] = [];
  for (let id = 0; id < firstFresh; id++) if ((df[id] as number) > 0) old.push(id);
  const fresh: number[] = [];
  for (let id = firstFresh; id < terms.length; id++) if ((df[id] as number) > 0) fresh.push(id);
  fresh.sort((a, b) => ((terms[a] as string) < (terms[b] as string) ? -1 : 1));
  const order: number[] = [];
  let i = 0;
  let j = 0;
  while (i < old.length || j < fresh.length) {
    const takeOld = j >= fresh.length || (i < old.length && (terms[old[i] as number] as string) < (terms[fresh[j] as number] as string));
    order.push(takeOld ? (old[i++] as number) : (fresh[j++] as number));
  }
  return order;
}

type Postings = Pick<IndexData, "terms" | "offsets" | "postingDocs" | "postingCounts">;

/** Lays postings out term by term in canonical term order, documents ascending within a term. */
function layOut(vocabulary: readonly string[], firstFresh: number, table: DocTermTable): Postings {
  const total = table.starts[table.docCount] as number;
  const ids = table.terms;
  const df = new Uint32Array(vocabulary.length);
  for (let i = 0; i < total; i++) df[ids[i] as number] = (df[ids[i] as number] as number) + 1;
  const order = canonicalOrder(vocabulary, firstFresh, df);
  const rank = new Uint32Array(vocabulary.length);
  const offsets = new Uint32Array(order.length + 1);
  order.forEach((id, r) => {
    rank[id] = r;
    offsets[r + 1] = (offsets[r] as number) + (df[id] as number);
  });
  const postingDocs = new Uint32Array(total);
  const postingCounts = new Uint16Array(total * FIELD_COUNT);
  const cursor = offsets.slice(0, order.length);
  const counts = table.counts;
  for (let d = 0; d < table.docCount; d++) {
    for (let i = table.starts[d] as number, end = table.starts[d + 1] as number; i < end; i++) {
      const r = rank[ids[i] as number] as number;
      const at = cursor[r] as number;
      cursor[r] = at + 1;
      postingDocs[at] = d;
      for (let f = 0; f < FIELD_COUNT; f++) postingCounts[at * FIELD_COUNT + f] = counts[i * FIELD_COUNT + f] as number;
    }
  }
  return { terms: order.map((id) => vocabulary[id] as string), offsets, postingDocs, postingCounts };
}

function averageFieldLengths(lengths: Uint32Array, docCount: number): Float64Array {
  const sums = new Float64Array(FIELD_COUNT);
  const present = new Float64Array(FIELD_COUNT);
  for (let d = 0; d < docCount; d++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const len = lengths[d * FIELD_COUNT + f] as number;
      sums[f] = (sums[f] as number) + len;
      if (len > 0) present[f] = (present[f] as number) + 1;
    }
  }
  // Averaged over documents that have the field, so O4 docs without a name do not shrink the name average.
  return sums.map((sum, f) => ((present[f] as number) > 0 ? sum / (present[f] as number) : 1));
}

/** BM25F weights of every posting from its field counts and its document's field lengths (derived, never stored). */
export function postingWeights(offsets: Uint32Array, postingDocs: Uint32Array, postingCounts: Uint16Array, docLengths: Uint32Array): Float32Array {
  const avg = averageFieldLengths(docLengths, docLengths.length / FIELD_COUNT);
  const boosts = FIELDS.map((field) => FIELD_BOOSTS[field]);
  const bs = FIELDS.map((field) => FIELD_LENGTH_NORMALISATION[field]);
  const weights = new Float32Array(postingDocs.length);
  for (let p = 0; p < postingDocs.length; p++) {
    const doc = postingDocs[p] as number;
    let weight = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const count = postingCounts[p * FIELD_COUNT + f] as number;
      if (count === 0) continue;
      const b = bs[f] as number;
      const norm = 1 - b + (b * (docLengths[doc * FIELD_COUNT + f] as number)) / (avg[f] as number);
      weight += ((boosts[f] as number) * count) / norm;
    }
    weights[p] = weight;
  }
  return weights;
}
