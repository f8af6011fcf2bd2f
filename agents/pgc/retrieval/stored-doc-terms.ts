// A previous index read by document instead of by term: which stored document has the same fields as a
// new one (by hash), and its terms and counts, to copy into the next build without tokenizing again.
import { FIELD_COUNT, type DocTermTable } from "./doc-terms.js";
import type { IndexData } from "./index-builder.js";

/** Both 32-bit hashes folded into one exact JavaScript integer (53 bits). */
const hashKey = (a: number, b: number): number => a * 2 ** 21 + (b >>> 11);

export class StoredDocTerms {
  private readonly byHash = new Map<number, number>();
  /** Document d's postings are postingOf[starts[d] .. starts[d+1]), in term order. */
  private readonly starts: Uint32Array;
  private readonly postingOf: Uint32Array;
  private readonly termOf: Uint32Array;
  private termIds = new Uint32Array(64);
  private counts = new Uint16Array(64 * FIELD_COUNT);

  constructor(private readonly data: IndexData) {
    const docCount = data.docIds.length;
    for (let d = 0; d < docCount; d++) this.byHash.set(hashKey(data.docHashes[d * 2] as number, data.docHashes[d * 2 + 1] as number), d);
    const total = data.postingDocs.length;
    this.starts = new Uint32Array(docCount + 1);
    for (let p = 0; p < total; p++) {
      const next = (data.postingDocs[p] as number) + 1;
      this.starts[next] = (this.starts[next] as number) + 1;
    }
    for (let d = 0; d < docCount; d++) this.starts[d + 1] = (this.starts[d + 1] as number) + (this.starts[d] as number);
    const cursor = this.starts.slice(0, docCount);
    this.postingOf = new Uint32Array(total);
    this.termOf = new Uint32Array(total);
    for (let t = 0; t < data.terms.length; t++) {
      for (let p = data.offsets[t] as number, end = data.offsets[t + 1] as number; p < end; p++) {
        const d = data.postingDocs[p] as number;
        const at = cursor[d] as number;
        cursor[d] = at + 1;
        this.postingOf[at] = p;
        this.termOf[at] = t;
      }
    }
  }

  /** The stored document whose fields hash to (a, b), if any. */
  find(a: number, b: number): number | undefined {
    return this.byHash.get(hashKey(a, b));
  }

  /** Appends stored document `doc` to `table`; its term ids are the previous index's (a vocabulary seeded with its terms). */
  copyInto(doc: number, table: DocTermTable): void {
    const start = this.starts[doc] as number;
    const n = (this.starts[doc + 1] as number) - start;
    if (n > this.termIds.length) {
      this.termIds = new Uint32Array(n * 2);
      this.counts = new Uint16Array(n * 2 * FIELD_COUNT);
    }
    for (let i = 0; i < n; i++) {
      const p = this.postingOf[start + i] as number;
      this.termIds[i] = this.termOf[start + i] as number;
      for (let f = 0; f < FIELD_COUNT; f++) this.counts[i * FIELD_COUNT + f] = this.data.postingCounts[p * FIELD_COUNT + f] as number;
    }
    table.push(this.termIds.subarray(0, n), this.counts.subarray(0, n * FIELD_COUNT), this.data.docLengths.subarray(doc * FIELD_COUNT, (doc + 1) * FIELD_COUNT));
  }
}
