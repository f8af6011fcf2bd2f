// Each document's terms and per-field counts, kept flat (one growable array for all documents), so a
// rebuild can take an unchanged document's terms from the stored index instead of tokenizing it again.
import type { IndexDoc } from "../types.js";
import { FIELDS } from "./fields.js";
import { forEachTerm } from "./tokenizer.js";

/** Per-field counts are kept in 16 bits; a term repeated more often than this is saturated anyway. */
export const MAX_FIELD_COUNT = 65_535;
export const FIELD_COUNT = FIELDS.length;

/** Term strings by id; ids are handed out in first-seen order and are not the index's final term order. */
export class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly terms: string[];

  constructor(initial: readonly string[] = []) {
    this.terms = [...initial];
    this.terms.forEach((term, id) => this.ids.set(term, id));
  }

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

/** A growable Uint32 or Uint16 column. */
class Column<T extends Uint32Array | Uint16Array> {
  length = 0;
  constructor(public data: T) {}

  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const grown = new (this.data.constructor as new (n: number) => T)(Math.max(this.length + extra, this.data.length * 2));
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }
}

/** Documents in order: document d has terms [starts[d], starts[d+1]) with FIELD_COUNT counts each. */
export class DocTermTable {
  private readonly termColumn = new Column(new Uint32Array(1024));
  private readonly countColumn = new Column(new Uint16Array(1024 * FIELD_COUNT));
  readonly starts: Uint32Array;
  /** FIELD_COUNT field lengths (terms) per document. */
  readonly lengths: Uint32Array;
  private added = 0;

  constructor(readonly docCount: number) {
    this.starts = new Uint32Array(docCount + 1);
    this.lengths = new Uint32Array(docCount * FIELD_COUNT);
  }

  get terms(): Uint32Array {
    return this.termColumn.data;
  }

  get counts(): Uint16Array {
    return this.countColumn.data;
  }

  /** Appends the next document: its term ids, FIELD_COUNT counts per term and FIELD_COUNT field lengths. */
  push(termIds: ArrayLike<number>, counts: ArrayLike<number>, lengths: ArrayLike<number>): void {
    const d = this.added++;
    this.termColumn.reserve(termIds.length);
    this.countColumn.reserve(counts.length);
    this.termColumn.data.set(termIds, this.termColumn.length);
    this.countColumn.data.set(counts, this.countColumn.length);
    this.termColumn.length += termIds.length;
    this.countColumn.length += counts.length;
    this.lengths.set(lengths, d * FIELD_COUNT);
    this.starts[d + 1] = this.termColumn.length;
  }
}

/** Counts one document's terms per field, reusing a slot table stamped per document instead of clearing it. */
export class DocCounter {
  private slot = new Int32Array(1024);
  private stamp = new Int32Array(1024);
  private generation = 0;
  private termIds: number[] = [];
  private counts: number[] = [];
  private readonly lengths = new Uint32Array(FIELD_COUNT);

  constructor(private readonly vocabulary: Vocabulary) {}

  /** Tokenizes every field of `doc` and appends it to `table`. */
  addDoc(doc: IndexDoc, table: DocTermTable): void {
    this.generation++;
    this.termIds = [];
    this.counts = [];
    this.lengths.fill(0);
    FIELDS.forEach((field, f) => {
      const text = doc.fields[field];
      if (text === undefined || text.length === 0) return;
      let length = 0;
      forEachTerm(text, (term) => {
        this.add(this.vocabulary.idOf(term), f);
        length++;
      });
      this.lengths[f] = length;
    });
    table.push(this.termIds, this.counts, this.lengths);
  }

  private add(termId: number, field: number): void {
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

/** Two 32-bit hashes of the fields a document is tokenized from: equal hashes, equal terms and counts. */
export function fieldsHash(doc: IndexDoc, out: Uint32Array, at: number): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (const field of FIELDS) {
    const text = doc.fields[field] ?? "";
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // A field boundary hashes as a char no text holds, so "ab"+"c" and "a"+"bc" differ.
    a = Math.imul(a ^ 0x10000, 0x01000193);
    b = Math.imul(b ^ 0x10000, 0x5bd1e995);
    b ^= b >>> 15;
  }
  out[at] = a >>> 0;
  out[at + 1] = b >>> 0;
}

/** Documents tokenized on their own (on a worker thread): term ids are local to `terms`. */
export interface TokenizedDocs {
  terms: string[];
  /** Document i has entries [starts[i], starts[i+1]) of termIds, FIELD_COUNT counts each. */
  starts: Uint32Array;
  termIds: Uint32Array;
  counts: Uint16Array;
  /** FIELD_COUNT field lengths per document. */
  lengths: Uint32Array;
  /** Two per document (`fieldsHash`). */
  hashes: Uint32Array;
}

/** Tokenizes `docs` with a vocabulary of their own, for a build to merge later (`buildIndexData`). */
export function tokenizeDocs(docs: readonly IndexDoc[]): TokenizedDocs {
  const vocabulary = new Vocabulary();
  const table = new DocTermTable(docs.length);
  const counter = new DocCounter(vocabulary);
  const hashes = new Uint32Array(docs.length * 2);
  docs.forEach((doc, d) => {
    counter.addDoc(doc, table);
    fieldsHash(doc, hashes, d * 2);
  });
  const total = table.starts[docs.length] as number;
  return {
    terms: vocabulary.terms,
    starts: table.starts,
    termIds: table.terms.slice(0, total),
    counts: table.counts.slice(0, total * FIELD_COUNT),
    lengths: table.lengths,
    hashes,
  };
}
