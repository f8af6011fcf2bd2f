// "Who calls X?": after the scope defining X, the chain goes to the scopes whose code calls it, most
// calls first, instead of following X's own callees (which answer how X works, not who uses it).
import { STOPWORDS } from "../pgc/retrieval/index.js";
import { entitiesIn, nameWords, type Ownership } from "./question-names.js";

/** "Who calls X", "what uses X", "callers of X", "X is called by", "where is X called". */
const CALLERS_QUESTION = /\b(who|what|which(\s+\w+)?)\s+(calls|uses|invokes)\b|\bcallers?\s+of\b|\bcalled\s+(by|from)\b|\bwhere\s+is\b.*\bcalled\b/i;

export function asksForCallers(question: string): boolean {
  return CALLERS_QUESTION.test(question);
}

/** What the question names: code-shaped names, and plain words some scope defines (C's `kmalloc`). */
function namesAsked(question: string, map: Ownership): string[] {
  const plain = nameWords(question).filter((word) => word.length >= 3 && !STOPWORDS.has(word.toLowerCase()) && map.ownersOf(word).length > 0);
  return [...new Set([...entitiesIn(question), ...plain])];
}

/**
 * The unvisited scope with the most calls to what the question names (its names, and the last part of
 * a qualified one: `json.dumps` is called as `dumps`), with those names as its focus; null when no other
 * scope calls them, or the map cannot tell.
 */
export function nextCaller(question: string, map: Ownership, visited: ReadonlySet<string>): { scope: string; focus: string[] } | null {
  if (!map.callersOf) return null;
  const calls = new Map<string, { count: number; names: Set<string> }>();
  const asked = namesAsked(question, map);
  // A qualified name whose module the callers' code names (json.dumps) stands for its last part too:
  // `dumps` alone would count pickle's callers as well.
  const precise = asked.filter((name) => name.includes(".") && map.callersOf?.(name).length);
  const covered = new Set(precise.map((name) => name.slice(name.lastIndexOf(".") + 1)));
  for (const name of asked.filter((n) => !covered.has(n))) {
    for (const { scope, count } of map.callersOf(name)) {
      if (visited.has(scope)) continue;
      const entry = calls.get(scope) ?? { count: 0, names: new Set<string>() };
      entry.count += count;
      entry.names.add(name);
      calls.set(scope, entry);
    }
  }
  const best = [...calls].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))[0];
  return best ? { scope: best[0], focus: [...best[1].names] } : null;
}
