// A worker's knowledge backed by its own PGC.
import type { Pgc } from "../pgc/pgc.js";
import type { ScopeKnowledge } from "./knowledge.js";

export const DEFAULT_KNOWLEDGE_TOP_K = 5;

export function knowledgeFromPgc(pgc: Pgc): ScopeKnowledge {
  return {
    overlays: () => pgc.overlays(),
    query: (text, options) => pgc.query(text, { topK: options.topK, ...(options.overlays ? { overlays: options.overlays } : {}) }),
    ask: (question, options) => pgc.ask(question, { topK: options.topK ?? DEFAULT_KNOWLEDGE_TOP_K, ...(options.overlays ? { overlays: options.overlays } : {}) }),
    facts: () => pgc.facts(),
    search: { entry: (question, topK) => pgc.search().entry(question, topK), expand: (args) => pgc.search().expand(args), warmUp: (stopped) => pgc.search().warmUp(stopped) },
    verify: (citations) => pgc.verifyCitations(citations),
    stats: () => ({
      revision: pgc.revision,
      documents: pgc.data.docs.length,
      symbols: pgc.data.symbols.length,
      files: pgc.data.files.length,
      lines: pgc.data.files.reduce((sum, file) => sum + file.lines, 0),
      overlays: pgc.overlays(),
      similarity: pgc.opened.calibration.kind,
    }),
  };
}
