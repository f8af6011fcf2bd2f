// Worker-thread side of the extraction pool: extracts (and tokenizes) the files the pool sends, one message each.
// Each thread loads its own tree-sitter runtime and grammars (wasm memory is per thread).
import { parentPort } from "node:worker_threads";
import { extractFile, type ExtractFileInput } from "../overlays/extract-file.js";
import { tokenizeDocs } from "../retrieval/doc-terms.js";

export interface ExtractRequest {
  slot: number;
  input: ExtractFileInput;
}

const port = parentPort;
if (port) {
  port.on("message", (request: ExtractRequest) => {
    extractFile(request.input).then(
      // The file's documents are tokenized here too, so the index build only merges them.
      (extraction) => port.postMessage({ slot: request.slot, extraction, tokens: tokenizeDocs(extraction.docs) }),
      (error: unknown) => port.postMessage({ slot: request.slot, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}
