// Serialized forms of a lexical index: typed arrays as little-endian base64 (JSON) or as raw bytes (the
// store's msgpack, with no base64 step), terms as one "\n"-joined string, so a large scope loads with a
// few bulk decodes instead of millions of numbers. Posting weights are not stored: they are derived from
// the stored per-field counts and document lengths on load.
import { endianness } from "node:os";
import { z } from "zod";
import { OVERLAYS } from "../types.js";
import { IndexFormatError } from "./errors.js";
import { postingWeights, type IndexData } from "./index-builder.js";
import { FIELD_COUNT } from "./doc-terms.js";

export const INDEX_FORMAT = "lattice-pgc-lexical-index";
/** 2: terms sorted; per-field counts, document lengths and field hashes stored (weights derived), so an index can be patched. */
export const INDEX_FORMAT_VERSION = 2;
/** Terms never contain a newline: the tokenizer emits only [a-z0-9_-]. */
const TERM_SEPARATOR = "\n";

export interface IndexParams {
  k1: number;
  boosts: Record<string, number>;
  length_normalisation: Record<string, number>;
}

type ArrayField = "doc_overlays" | "doc_lengths" | "doc_hashes" | "offsets" | "posting_docs" | "posting_counts";

/** An index with its typed arrays as `A`: base64 strings in JSON, bytes in the store. */
export type EncodedIndex<A extends string | Uint8Array> = {
  format: typeof INDEX_FORMAT;
  version: typeof INDEX_FORMAT_VERSION;
  params: IndexParams;
  doc_ids: string[];
  doc_symbols: string[];
  terms: string;
} & Record<ArrayField, A>;

export type LexicalIndexJSON = EncodedIndex<string>;
export type StoredLexicalIndex = EncodedIndex<Uint8Array>;

const arrayField = z.union([z.string(), z.instanceof(Uint8Array)]);
const indexJsonSchema = z.object({
  format: z.literal(INDEX_FORMAT),
  version: z.literal(INDEX_FORMAT_VERSION),
  params: z.object({
    k1: z.number().positive(),
    boosts: z.record(z.string(), z.number()),
    length_normalisation: z.record(z.string(), z.number()),
  }),
  doc_ids: z.array(z.string()),
  doc_symbols: z.array(z.string()),
  doc_overlays: arrayField,
  doc_lengths: arrayField,
  doc_hashes: arrayField,
  terms: z.string(),
  offsets: arrayField,
  posting_docs: arrayField,
  posting_counts: arrayField,
});

function assertLittleEndian(): void {
  if (endianness() !== "LE") throw new IndexFormatError("the index format stores little-endian arrays; this host is big-endian");
}

function toBase64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");
}

function toBytes(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Decodes into a fresh, aligned buffer (a pooled Buffer may start at an offset a Uint32Array cannot use). */
function fromBase64(encoded: string | Uint8Array, bytesPerElement: number, what: string): ArrayBuffer {
  const bytes = typeof encoded === "string" ? Buffer.from(encoded, "base64") : encoded;
  if (bytes.byteLength % bytesPerElement !== 0) throw new IndexFormatError(`${what} is not a whole number of elements`);
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}

export function encodeIndex<A extends string | Uint8Array>(data: IndexData, params: IndexParams, encode: (view: ArrayBufferView) => A): EncodedIndex<A> {
  assertLittleEndian();
  return {
    format: INDEX_FORMAT,
    version: INDEX_FORMAT_VERSION,
    params,
    doc_ids: [...data.docIds],
    doc_symbols: [...data.docSymbols],
    doc_overlays: encode(data.docOverlays),
    doc_lengths: encode(data.docLengths),
    doc_hashes: encode(data.docHashes),
    terms: data.terms.join(TERM_SEPARATOR),
    offsets: encode(data.offsets),
    posting_docs: encode(data.postingDocs),
    posting_counts: encode(data.postingCounts),
  };
}

/** The JSON form (base64 arrays). */
export const encodeIndexJSON = (data: IndexData, params: IndexParams): LexicalIndexJSON => encodeIndex(data, params, toBase64);
/** The store's form (raw little-endian bytes; views of the index's own arrays, not copies). */
export const encodeIndexStored = (data: IndexData, params: IndexParams): StoredLexicalIndex => encodeIndex(data, params, toBytes);

type StoredArrays = Omit<IndexData, "postingWeights">;

function checkConsistency(data: StoredArrays): void {
  const docCount = data.docIds.length;
  if (data.docSymbols.length !== docCount || data.docOverlays.length !== docCount || data.docLengths.length !== docCount * FIELD_COUNT || data.docHashes.length !== docCount * 2) {
    throw new IndexFormatError("per-document arrays differ in length");
  }
  if (data.offsets.length !== data.terms.length + 1) throw new IndexFormatError("offsets do not match the term count");
  const total = data.offsets[data.terms.length];
  if (total !== data.postingDocs.length || (total as number) * FIELD_COUNT !== data.postingCounts.length) {
    throw new IndexFormatError("posting arrays do not match the offsets");
  }
  for (let t = 0; t < data.terms.length; t++) {
    if ((data.offsets[t] as number) > (data.offsets[t + 1] as number)) throw new IndexFormatError("offsets are not ascending");
    // A patched build merges new terms into the stored ones and relies on this order.
    if (t > 0 && !((data.terms[t - 1] as string) < (data.terms[t] as string))) throw new IndexFormatError("terms are not strictly ascending");
  }
  for (const doc of data.postingDocs) if (doc >= docCount) throw new IndexFormatError("a posting names a document out of range");
  for (const overlay of data.docOverlays) if (overlay >= OVERLAYS.length) throw new IndexFormatError("unknown overlay number");
}

/** Parses and checks a serialized index; throws IndexFormatError on anything it cannot trust. */
export function decodeIndex(json: unknown): { data: IndexData; params: IndexParams } {
  assertLittleEndian();
  const parsed = indexJsonSchema.safeParse(json);
  if (!parsed.success) throw new IndexFormatError(`not a ${INDEX_FORMAT} v${INDEX_FORMAT_VERSION}`, { cause: parsed.error });
  const j = parsed.data;
  const stored: StoredArrays = {
    docIds: j.doc_ids,
    docSymbols: j.doc_symbols,
    docOverlays: new Uint8Array(fromBase64(j.doc_overlays, 1, "doc_overlays")),
    docLengths: new Uint32Array(fromBase64(j.doc_lengths, 4, "doc_lengths")),
    docHashes: new Uint32Array(fromBase64(j.doc_hashes, 4, "doc_hashes")),
    terms: j.terms.length === 0 ? [] : j.terms.split(TERM_SEPARATOR),
    offsets: new Uint32Array(fromBase64(j.offsets, 4, "offsets")),
    postingDocs: new Uint32Array(fromBase64(j.posting_docs, 4, "posting_docs")),
    postingCounts: new Uint16Array(fromBase64(j.posting_counts, 2, "posting_counts")),
  };
  checkConsistency(stored);
  const weights = postingWeights(stored.offsets, stored.postingDocs, stored.postingCounts, stored.docLengths);
  return { data: { ...stored, postingWeights: weights }, params: j.params };
}
