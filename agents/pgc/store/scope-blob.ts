// The linked scope on disk without what the extraction shards already hold: files, symbols and each
// file's own documents are taken from the extractions on load, so a one-file rebuild rewrites only the
// scope-level part (imports, calls, cross-file documents, references, history, stats).
import type { FileExtraction } from "../overlays/index.js";
import type { IndexDoc } from "../types.js";
import { CorruptStoreError } from "./blobs.js";
import type { ScopeData } from "./open-pgc.js";

export type ScopeBlob = Omit<ScopeData, "files" | "symbols" | "docs"> & {
  /** The documents linking made (O3, O7): `data.docs` after every file's own documents. */
  scope_docs: IndexDoc[];
  /** How many documents the files contribute, checked on load. */
  file_doc_count: number;
};

export function toScopeBlob(data: ScopeData, extractions: readonly FileExtraction[]): ScopeBlob {
  const { files: _files, symbols: _symbols, docs, ...rest } = data;
  const fileDocCount = extractions.reduce((sum, extraction) => sum + extraction.docs.length, 0);
  return { ...rest, scope_docs: docs.slice(fileDocCount), file_doc_count: fileDocCount };
}

/** Reassembles ScopeData exactly as linkScope built it: files' documents first, in file order, then the scope's. */
export function fromScopeBlob(blob: ScopeBlob, extractions: readonly FileExtraction[]): ScopeData {
  const { scope_docs: scopeDocs, file_doc_count: fileDocCount, ...rest } = blob;
  const fileDocs = extractions.flatMap((extraction) => extraction.docs);
  if (fileDocs.length !== fileDocCount) throw new CorruptStoreError("the stored scope does not match the stored extractions");
  return {
    root: rest.root,
    files: extractions.map((extraction) => extraction.file),
    symbols: extractions.flatMap((extraction) => extraction.parsed.symbols),
    imports: rest.imports,
    calls: rest.calls,
    bindings: rest.bindings,
    docs: [...fileDocs, ...scopeDocs],
    crossScopeReferences: rest.crossScopeReferences,
    history: rest.history,
    stats: rest.stats,
  };
}
