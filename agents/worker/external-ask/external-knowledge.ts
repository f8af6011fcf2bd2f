// A worker whose evidence comes from an external `ask --json` command instead of the built-in index.
// Its sources become citations marked "external", and only those that name a file, lines and a hash
// that still match the scope's files are cited. Topology facts and checks come from the scope's own index.
import pino, { type Logger } from "pino";
import type { Citation } from "../../protocol/index.js";
import type { ScopeKnowledge } from "../knowledge.js";
import { createExternalAsk, type ExternalAskOptions } from "./external-ask.js";
import { ExternalAskError } from "./external-ask-error.js";
import { citationsFrom } from "./external-sources.js";

/** As ExternalAskOptions; the logger may be left out (nothing is logged then). */
export type ExternalKnowledgeOptions = Omit<ExternalAskOptions, "logger"> & { logger?: Logger };

/** Citations whose lines still hash as cited in the scope's files; the rest would be rejected as fabricated. */
async function checked(own: ScopeKnowledge, citations: Citation[], logger: Logger): Promise<Citation[]> {
  if (citations.length === 0) return citations;
  const valid = await own.verify(citations);
  const kept = citations.filter((_, index) => valid[index] === true);
  if (kept.length < citations.length) logger.warn({ dropped: citations.length - kept.length }, "external ask cited lines that do not match the scope's files");
  return kept;
}

/** Knowledge answering from the external command; overlays, facts and verification from `own`. */
export function externalKnowledge(own: ScopeKnowledge, options: ExternalKnowledgeOptions): ScopeKnowledge {
  const logger = options.logger ?? pino({ level: "silent" });
  const external = createExternalAsk({ ...options, logger });
  return {
    overlays: () => own.overlays(),
    query: async (text, query) => {
      try {
        const result = await external.ask(text, { ...(query.overlays ? { overlays: query.overlays } : {}), topK: query.topK, ...(query.signal ? { signal: query.signal } : {}) });
        return await checked(own, citationsFrom(result), logger);
      } catch (error) {
        // As a TaskError the code (PGC_TIMEOUT or PGC_QUERY_FAILED) survives the worker's task handling.
        throw error instanceof ExternalAskError ? error.toTaskError() : error;
      }
    },
    ask: (question, ask) => external.ask(question, ask),
    facts: () => own.facts(),
    // The call graph is the scope's own index, whatever answers `ask`.
    ...(own.search ? { search: own.search } : {}),
    verify: (citations) => own.verify(citations),
    stats: () => ({ ...own.stats(), similarity: "external" }),
  };
}
