// Builds one tree-sitter query per grammar from patterns, dropping patterns the grammar cannot express.
import { Query } from "web-tree-sitter";
import type { LoadedGrammar } from "./grammars.js";

/** A query pattern and the node types it needs; the TS, TSX and JS grammars differ in a few of them. */
export interface QueryPattern {
  source: string;
  nodeTypes: readonly string[];
}

const compiled = new Map<string, Query>();

/** The cached query `key` for `grammar`, compiled on first use. */
export function queryFor(grammar: LoadedGrammar, key: string, patterns: readonly QueryPattern[]): Query {
  const cacheKey = `${grammar.name}:${key}`;
  const cached = compiled.get(cacheKey);
  if (cached) return cached;
  const supported = patterns.filter((pattern) =>
    pattern.nodeTypes.every((type) => grammar.language.idForNodeType(type, true) != null),
  );
  const query = new Query(grammar.language, supported.map((pattern) => pattern.source).join("\n"));
  compiled.set(cacheKey, query);
  return query;
}

/** Shorthand for a pattern whose node types are listed once. */
export function pattern(source: string, ...nodeTypes: string[]): QueryPattern {
  return { source, nodeTypes };
}
