// What a planned route hands from one hop to the next: the symbols the hop's evidence mentions that the next
// scope owns ("calls X, owned by scope Y"), and the question refined by them.
import type { Citation } from "../../protocol/index.js";
import { STOPWORDS } from "../../pgc/retrieval/index.js";
import type { Ownership } from "../ownership.js";

/** Symbols carried to the next hop as its focus. */
export const MAX_FOCUS_SYMBOLS = 3;
/** Names in the evidence, "$" included (JavaScript's $ZodString, source$). */
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]{2,}/g;

/**
 * The code a piece of evidence quotes, without what the index wrote around it. A citation's first line
 * reads `kind:name | label:value | … | file:path:line` (a pgc finding adds ` — path:lines`): its paths and
 * the template's own words ("callee defined at …", "not in this scope") name nothing the code calls, so
 * they go, and the labels; the cited source lines after it stay as they are.
 */
export function quotedCode(text: string): string {
  const newline = text.indexOf("\n");
  const header = newline < 0 ? text : text.slice(0, newline);
  const body = newline < 0 ? "" : text.slice(newline);
  const kept = header
    .replace(/ — \S+$/, "")
    .split(" | ")
    .filter((segment) => !/^file:|^callee (defined at|not in this scope|outside this scope)|^in:\(file scope\)/.test(segment))
    .map((segment) => segment.replace(/^[a-z_]+:/, "").trim())
    .join(" | ");
  return kept + body;
}

/** A name followed by "(" (a call in the cited code), or after "→" (a call chain's callee). */
const CALLED = /(?:→\s*(?:[A-Za-z_$][\w$]*(?:\.|->))*)([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*\(/g;
/** All lower-case letters: a name that reads as an English word ("head", "chain", "reserved"). */
const WORD_LIKE = /^[a-z]+$/;

/**
 * Identifiers the evidence mentions, most mentioned first: calls, includes, names in the cited code. A
 * name that reads as an English word counts only where the evidence calls it (`kmalloc(…)` does; a field
 * or a comment's "head" or "chain" does not), or C's plain-word names would lead anywhere.
 */
export function mentionedSymbols(citations: readonly Citation[], findings: readonly string[]): string[] {
  const counts = new Map<string, number>();
  const called = new Set<string>();
  const texts = [...citations.map((c) => c.content), ...findings].map(quotedCode);
  for (const text of texts) {
    for (const match of text.matchAll(CALLED)) called.add((match[1] ?? match[2]) as string);
    for (const match of text.match(IDENTIFIER) ?? []) if (!STOPWORDS.has(match.toLowerCase())) counts.set(match, (counts.get(match) ?? 0) + 1);
  }
  return [...counts]
    .filter(([name]) => !WORD_LIKE.test(name) || called.has(name))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name]) => name);
}

/** Per other scope, the symbols the evidence mentions that it owns (ambiguous symbols are skipped). */
export function pointers(citations: readonly Citation[], findings: readonly string[], map: Ownership, here: string): Map<string, string[]> {
  const byScope = new Map<string, string[]>();
  for (const symbol of mentionedSymbols(citations, findings)) {
    const owners = map.ownersOf(symbol);
    if (owners.length !== 1 || owners[0] === here || owners.includes(here)) continue;
    const scope = owners[0] as string;
    byScope.set(scope, [...(byScope.get(scope) ?? []), symbol]);
  }
  return byScope;
}

/** The question a hop is asked: the original, narrowed to the symbols that led to this scope. */
export function refineQuestion(question: string, fromScope: string | null, focus: readonly string[]): string {
  if (!fromScope || focus.length === 0) return question;
  return `${question} (continuing from ${fromScope}: how ${focus.length === 1 ? "is" : "are"} ${focus.join(", ")} implemented here?)`;
}
