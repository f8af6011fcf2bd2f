// Builds the inverted index from IndexDocs: per-term postings with BM25F weights precomputed at build time.
import { OVERLAYS, type IndexDoc } from "../types.js";
import { FIELD_BOOSTS, FIELD_LENGTH_NORMALISATION, FIELDS } from "./fields.js";
import { forEachTerm } from "./tokenizer.js";

/** Per-field counts are kept in 16 bits while building; a term repeated more often than this is saturated anyway. */
const MAX_FIELD_COUNT = 65_535;
const FIELD_COUNT = FIELDS.length;

/** The in-memory (and serialized) shape of a lexical index. Postings of term t are [offsets[t], offsets[t+1]). */
export interface IndexData {
  readonly docIds: readonly string[];
  /** Index into OVERLAYS for each document. */
  readonly docOverlays: Uint8Array;
  /** The symbol a document is about, "" when none. */
  readonly docSymbols: readonly string[];
  readonly terms: readonly string[];
  readonly offsets: Uint32Array;
  /** Document numbers, ascending within each term. */
  readonly postingDocs: Uint32Array;
  /** BM25F pseudo term frequency: field counts times boosts, each divided by its field's length norm. */
  readonly postingWeights: Float32Array;
}

interface DocTerms {
  termIds: Uint32Array;
  /** FIELD_COUNT counts per term, in termIds order. */
  counts: Uint16Array;
}

class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly terms: string[] = [];
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}

/** Counts one document's terms per field, reusing a slot table stamped per document instead of clearing it. */
class DocCounter {
  private slot = new Int32Array(1024);
  private stamp = new Int32Array(1024);
  private generation = 0;
  private termIds: number[] = [];
  private counts: number[] = [];

  begin(): void {
    this.generation++;
    this.termIds = [];
    this.counts = [];
  }

  add(termId: number, field: number): void {
    if (termId >= this.slot.length) this.grow(termId);
    let local = this.slot[termId] as number;
    if (this.stamp[termId] !== this.generation) {
      local = this.termIds.length;
      this.termIds.push(termId);
      for (let f = 0; f < FIELD_COUNT; f++) this.counts.push(0);
      this.slot[termId] = local;
      this.stamp[termId] = this.generation;
    }
    const at = local * FIELD_COUNT + field;
    this.counts[at] = Math.min(MAX_FIELD_COUNT, (this.counts[at] as number) + 1);
  }

  finish(): DocTerms {
    return { termIds: Uint32Array.from(this.termIds), counts: Uint16Array.from(this.counts) };
  }

  private grow(minSize: number): void {
    const size = Math.max(minSize + 1, this.slot.length * 2);
    const slot = new Int32Array(size);
    slot.set(this.slot);
    const stamp = new Int32Array(size);
    stamp.set(this.stamp);
    this.slot = slot;
    this.stamp = stamp;
  }
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

function termWeight(counts: Uint16Array, slot: number, lengths: Uint32Array, doc: number, avg: Float64Array): number {
  let weight = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    const count = counts[slot * FIELD_COUNT + f] as number;
    if (count === 0) continue;
    const field = FIELDS[f] as (typeof FIELDS)[number];
    const b = FIELD_LENGTH_NORMALISATION[field];
    const norm = 1 - b + (b * (lengths[doc * FIELD_COUNT + f] as number)) / (avg[f] as number);
    weight += (FIELD_BOOSTS[field] * count) / norm;
  }
  return weight;
}

function overlayNumber(doc: IndexDoc): number {
  const at = OVERLAYS.indexOf(doc.overlay);
  return at < 0 ? 0 : at;
}

interface Counted {
  vocabulary: Vocabulary;
  perDoc: DocTerms[];
  /** FIELD_COUNT term counts (field lengths) per document. */
  lengths: Uint32Array;
}

/** Pass 1: tokenize every field of every document and count terms per field. */
function countTerms(docs: readonly IndexDoc[]): Counted {
  const vocabulary = new Vocabulary();
  const counter = new DocCounter();
  const lengths = new Uint32Array(docs.length * FIELD_COUNT);
  const perDoc = docs.map((doc, d) => {
    counter.begin();
    FIELDS.forEach((field, f) => {
      const text = doc.fields[field];
      if (text === undefined || text.length === 0) return;
      let length = 0;
      forEachTerm(text, (term) => {
        counter.add(vocabulary.idOf(term), f);
        length++;
      });
      lengths[d * FIELD_COUNT + f] = length;
    });
    return counter.finish();
  });
  return { vocabulary, perDoc, lengths };
}

/** Pass 2: lay postings out term by term (documents ascending) with their BM25F weights. */
function writePostings({ vocabulary, perDoc, lengths }: Counted): Pick<IndexData, "offsets" | "postingDocs" | "postingWeights"> {
  const termCount = vocabulary.terms.length;
  const avg = averageFieldLengths(lengths, perDoc.length);
  const offsets = new Uint32Array(termCount + 1);
  for (const { termIds } of perDoc) for (const id of termIds) offsets[id + 1] = (offsets[id + 1] as number) + 1;
  for (let t = 0; t < termCount; t++) offsets[t + 1] = (offsets[t + 1] as number) + (offsets[t] as number);
  const total = offsets[termCount] as number;
  const postingDocs = new Uint32Array(total);
  const postingWeights = new Float32Array(total);
  const cursor = offsets.slice(0, termCount);
  perDoc.forEach(({ termIds, counts }, d) => {
    termIds.forEach((id, slot) => {
      const at = cursor[id] as number;
      postingDocs[at] = d;
      postingWeights[at] = termWeight(counts, slot, lengths, d, avg);
      cursor[id] = at + 1;
    });
  });
  return { offsets, postingDocs, postingWeights };
}

/** Builds the index in two passes: count terms per field, then weigh them once field averages are known. */
export function buildIndexData(docs: readonly IndexDoc[]): IndexData {
  const counted = countTerms(docs);
  return {
    docIds: docs.map((doc) => doc.id),
    docOverlays: Uint8Array.from(docs, overlayNumber),
    docSymbols: docs.map((doc) => doc.symbol ?? doc.fields.name ?? ""),
    terms: counted.vocabulary.terms,
    ...writePostings(counted),
  };
}
