// `ask` over one scope's PGC, in the shape of the seed's `ask --json`: an extractive answer (no LLM)
// assembled from the best sources, each with its file, lines, hash and similarity.
import { createHash } from "node:crypto";
import type { AskResult, AskSource, Citation, QueryIntent } from "../protocol/index.js";
import { identifiersInQuery, tokenize } from "./retrieval/index.js";

/** Sources quoted in the answer text (all sources are returned). */
export const ANSWER_SOURCES = 3;

const INTENTS: readonly [RegExp, string][] = [
  [/\b(who|what)\s+calls\b|\bcallers?\b|\bcall(ed)? by\b/i, "call_graph"],
  [/\bwhere\b|\bwhich file\b|\bdefined\b/i, "location"],
  [/\bwhy\b|\bpurpose\b|\bintent\b/i, "rationale"],
  [/\bhow\b|\bmechanism\b|\bwork(s)?\b/i, "mechanism"],
  [/\brisk|unsafe|secur|overflow|vulnerab/i, "security"],
  [/\bbuild|config|makefile|kconfig|script\b/i, "operational"],
];

export function queryIntent(question: string, scope: string): QueryIntent {
  const intent = INTENTS.find(([pattern]) => pattern.test(question))?.[1] ?? "lookup";
  const identifiers = identifiersInQuery(question);
  const terms = tokenize(question);
  return {
    intent,
    entities: identifiers.length > 0 ? identifiers.slice(0, 10) : [...new Set(terms)].slice(0, 5),
    scope,
    refined_query: [...new Set(terms)].join(" ").slice(0, 1000),
  };
}

function sourceOf(citation: Citation, section: string): AskSource {
  return {
    overlay: citation.overlay,
    section,
    text: citation.content,
    similarity: citation.similarity,
    weight: 1,
    file_path: citation.file_path,
    line_start: citation.line_start,
    line_end: citation.line_end,
    sha256: citation.sha256,
    similarity_kind: citation.similarity_kind,
  };
}

function answerFrom(citations: readonly Citation[], scope: string): string {
  if (citations.length === 0) return `Nothing in scope ${scope} matches this question.`;
  const lines = citations.slice(0, ANSWER_SOURCES).map((c) => {
    const summary = c.content.split("\n")[0] ?? "";
    return `- ${summary} (${c.file_path}:${c.line_start}-${c.line_end}, ${c.similarity_kind} similarity ${c.similarity.toFixed(2)})`;
  });
  return `From scope ${scope}:\n${lines.join("\n")}`;
}

export function askResult(question: string, scope: string, cited: readonly { citation: Citation; section: string }[], topK: number, started: number): AskResult {
  return {
    question,
    answer: answerFrom(cited.map((c) => c.citation), scope),
    query_intent: queryIntent(question, scope),
    sources: cited.map((c) => sourceOf(c.citation, c.section)),
    metadata: {
      question_hash: createHash("sha256").update(question).digest("hex"),
      top_k: topK,
      elapsed_ms: Math.round((performance.now() - started) * 1000) / 1000,
    },
  };
}
