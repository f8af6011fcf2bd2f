// The searchable fields of an IndexDoc and how much a match in each one counts (BM25F).

/** Field order is part of the index format: per-field counts are stored in this order. */
export const FIELDS = ["name", "signature", "doc", "body", "path"] as const;
export type FieldName = (typeof FIELDS)[number];

/** A term in the symbol's own name is the strongest evidence of what a document is about. */
export const NAME_BOOST = 5;
/** The signature names parameters and types: nearly as telling as the name. */
export const SIGNATURE_BOOST = 3;
/** The doc comment says in prose what the code does. */
export const DOC_BOOST = 2;
/** The body mentions everything it touches, relevant or not. */
export const BODY_BOOST = 1;
/** A directory or file name is a weak, broad hint ("net", "mm"). */
export const PATH_BOOST = 0.5;

export const FIELD_BOOSTS: Readonly<Record<FieldName, number>> = Object.freeze({
  name: NAME_BOOST,
  signature: SIGNATURE_BOOST,
  doc: DOC_BOOST,
  body: BODY_BOOST,
  path: PATH_BOOST,
});

/** BM25 length normalisation per field: long bodies are penalised more than short names and paths. */
export const FIELD_LENGTH_NORMALISATION: Readonly<Record<FieldName, number>> = Object.freeze({
  name: 0.3,
  signature: 0.5,
  doc: 0.75,
  body: 0.75,
  path: 0.3,
});

/** BM25 term-frequency saturation: how fast repeated occurrences stop adding evidence. */
export const BM25_K1 = 1.2;
