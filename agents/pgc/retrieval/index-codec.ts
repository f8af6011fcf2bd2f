// JSON form of a lexical index: typed arrays as little-endian base64, terms as one "\n"-joined string,
// so a large scope loads with a few bulk decodes instead of millions of JSON numbers.
import { endianness } from "node:os";
import { z } from "zod";
import { OVERLAYS } from "../types.js";
import { IndexFormatError } from "./errors.js";
import type { IndexData } from "./index-builder.js";

export const INDEX_FORMAT = "lattice-pgc-lexical-index";
export const INDEX_FORMAT_VERSION = 1;
/** Terms never contain a newline: the tokenizer emits only [a-z0-9_-]. */
const TERM_SEPARATOR = "\n";

export interface IndexParams {
  k1: number;
  boosts: Record<string, number>;
  length_normalisation: Record<string, number>;
}

export interface LexicalIndexJSON {
  format: typeof INDEX_FORMAT;
  version: typeof INDEX_FORMAT_VERSION;
  params: IndexParams;
  doc_ids: string[];
  doc_symbols: string[];
  doc_overlays: string;
  terms: string;
  offsets: string;
  posting_docs: string;
  posting_weights: string;
}

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
  doc_overlays: z.string(),
  terms: z.string(),
  offsets: z.string(),
  posting_docs: z.string(),
  posting_weights: z.string(),
});

function assertLittleEndian(): void {
  if (endianness() !== "LE") throw new IndexFormatError("the index format stores little-endian arrays; this host is big-endian");
}

function toBase64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");
}

/** Decodes into a fresh, aligned buffer (a pooled Buffer may start at an offset a Uint32Array cannot use). */
function fromBase64(text: string, bytesPerElement: number, what: string): ArrayBuffer {
  const bytes = Buffer.from(text, "base64");
  if (bytes.byteLength % bytesPerElement !== 0) throw new IndexFormatError(`${what} is not a whole number of elements`);
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}

export function encodeIndex(data: IndexData, params: IndexParams): LexicalIndexJSON {
  assertLittleEndian();
  return {
    format: INDEX_FORMAT,
    version: INDEX_FORMAT_VERSION,
    params,
    doc_ids: [...data.docIds],
    doc_symbols: [...data.docSymbols],
    doc_overlays: toBase64(data.docOverlays),
    terms: data.terms.join(TERM_SEPARATOR),
    offsets: toBase64(data.offsets),
    posting_docs: toBase64(data.postingDocs),
    posting_weights: toBase64(data.postingWeights),
  };
}

function checkConsistency(data: IndexData): void {
  const docCount = data.docIds.length;
  if (data.docSymbols.length !== docCount || data.docOverlays.length !== docCount) {
    throw new IndexFormatError("per-document arrays differ in length");
  }
  if (data.offsets.length !== data.terms.length + 1) throw new IndexFormatError("offsets do not match the term count");
  const total = data.offsets[data.terms.length];
  if (total !== data.postingDocs.length || total !== data.postingWeights.length) {
    throw new IndexFormatError("posting arrays do not match the offsets");
  }
  for (let t = 0; t < data.terms.length; t++) {
    if ((data.offsets[t] as number) > (data.offsets[t + 1] as number)) throw new IndexFormatError("offsets are not ascending");
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
  const data: IndexData = {
    docIds: j.doc_ids,
    docSymbols: j.doc_symbols,
    docOverlays: new Uint8Array(fromBase64(j.doc_overlays, 1, "doc_overlays")),
    terms: j.terms.length === 0 ? [] : j.terms.split(TERM_SEPARATOR),
    offsets: new Uint32Array(fromBase64(j.offsets, 4, "offsets")),
    postingDocs: new Uint32Array(fromBase64(j.posting_docs, 4, "posting_docs")),
    postingWeights: new Float32Array(fromBase64(j.posting_weights, 4, "posting_weights")),
  };
  checkConsistency(data);
  return { data, params: j.params };
}
