// How a multi-hop question moves between scopes: where it starts (the scope owning the entities it
// names), what each hop is asked (the question refined by the symbols that led there), and which
// scope the evidence points to next ("calls X, owned by scope Y").
import type { Citation } from "../protocol/index.js";
import { identifiersInQuery, STOPWORDS, tokenize } from "../pgc/retrieval/index.js";

/** Symbols carried to the next hop as its focus. */
export const MAX_FOCUS_SYMBOLS = 3;
/** Names in the evidence, "$" included (JavaScript's $ZodString, source$). */
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]{2,}/g;

export interface Ownership {
  ownersOf(symbol: string): readonly string[];
  /** Scopes owning a module or path a question names ("urllib/request", "net/ipv4"): the most specific only. */
  ownersOfPath?(path: string): readonly string[];
}

/** A path written in a question: "mm/slab.c", "net/ipv4/" (at least one "/", no spaces). */
const PATH_IN_QUESTION = /(?<![\w/.-])[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\/?/g;
/** A dotted module name: "urllib.request", "os.path" (each part a plain name). */
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * What a question names, in order: code identifiers (symbols, and dotted names like `urllib.request`)
 * and paths (`mm/slab.c`).
 */
function entitiesIn(question: string): string[] {
  const paths = [...question.matchAll(PATH_IN_QUESTION)].map((m) => ({ at: m.index, name: m[0] }));
  const identifiers = identifiersInQuery(question).map((name) => ({ at: question.indexOf(name), name }));
  return [...new Set([...identifiers, ...paths].sort((a, b) => a.at - b.at).map((e) => e.name))];
}

/** The scopes owning what a question names: the symbol's definers, else the module's or path's scope. */
function ownersOfEntity(map: Ownership, entity: string): readonly string[] {
  const definers = map.ownersOf(entity);
  if (definers.length > 0 || !map.ownersOfPath) return definers;
  if (entity.includes("/")) return map.ownersOfPath(entity.replace(/\/$/, ""));
  return MODULE_NAME.test(entity) ? map.ownersOfPath(entity.replace(/\./g, "/")) : [];
}

/** Lower-case words of a scope name ("v4-classic" → v4, classic) or of a question. */
function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/**
 * The scope owning most of what the question names (symbols, modules, paths), or null when it names
 * nothing we know. A name several scopes define counts for each of them as a share (1/owners), so the
 * scope owning the names only it has wins; a tie goes to the scope whose name the question uses
 * ("classic", "mm"), then to the one named first.
 */
export function scopeOfEntities(question: string, map: Ownership, scopes: readonly string[], answered: ReadonlySet<string> = new Set()): string | null {
  const votes = new Map<string, { votes: number; first: number }>();
  entitiesIn(question).forEach((entity, order) => {
    const all = ownersOfEntity(map, entity);
    // A name one of its owners has already answered for is not chased to its other owners.
    if (all.some((owner) => answered.has(owner))) return;
    const owners = all.filter((owner) => scopes.includes(owner));
    for (const owner of owners) {
      const vote = votes.get(owner) ?? { votes: 0, first: order };
      vote.votes += 1 / owners.length;
      votes.set(owner, vote);
    }
  });
  const asked = new Set(words(question));
  const mentions = (scope: string) => words(scope).filter((word) => asked.has(word)).length;
  const ranked = [...votes].sort((a, b) => b[1].votes - a[1].votes || mentions(b[0]) - mentions(a[0]) || a[1].first - b[1].first || a[0].localeCompare(b[0]));
  return ranked[0]?.[0] ?? null;
}

/** Shortest plain word taken as a possible name ("kmalloc", "schedule"; not "page" or "free"). */
const MIN_PLAIN_NAME = 5;

/**
 * For a question whose names all read as words (C's `kmalloc`, `schedule`, `printk`): the scope that is
 * the only one defining the most of its plain words, or null. A word several scopes define, a stopword
 * or a generic word ("module", "function") says nothing about where to start.
 */
export function scopeOfPlainNames(question: string, map: Ownership, scopes: readonly string[]): string | null {
  const votes = new Map<string, number>();
  const seen = new Set<string>();
  for (const word of question.split(/[^A-Za-z0-9_$]+/)) {
    if (word.length < MIN_PLAIN_NAME || seen.has(word) || STOPWORDS.has(word.toLowerCase()) || tokenize(word).every((term) => GENERIC_TERMS.has(term))) continue;
    seen.add(word);
    const owners = map.ownersOf(word).filter((owner) => scopes.includes(owner));
    if (owners.length === 1) votes.set(owners[0] as string, (votes.get(owners[0] as string) ?? 0) + 1);
  }
  const best = [...votes].sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : null;
}

/** Scope names too generic to be what a question's word means ("how do I test …"). */
const GENERIC_SCOPE_NAMES = new Set(["root", "test", "tests", "src", "lib"]);

/**
 * The one scope whose whole name is a word of the question ("the email parser" → `email`), for a
 * question that names no code; null when none or several are.
 */
export function scopeNamedIn(question: string, scopes: readonly string[]): string | null {
  const asked = new Set(words(question));
  const named = scopes.filter((scope) => /^[a-z][a-z0-9]{2,}$/.test(scope) && !GENERIC_SCOPE_NAMES.has(scope) && asked.has(scope));
  return named.length === 1 ? (named[0] as string) : null;
}

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

/** Words of a question that name no code of their own: "module" in "the logging module" leads nowhere. */
const GENERIC_TERMS = new Set(tokenize("module modules function functions method methods class classes code file files type types object objects value values data work works use uses used using call calls called handle handles implement implemented implementation"));

/**
 * What a lead must share a term with to bear on the question: its plain words ("allocate DMA buffers")
 * but those naming a visited scope ("the logging module" once in logging), and the names it asks about
 * that no visited scope has answered for yet. A name already answered (its parts too: SMTPHandler's
 * "handler") asks for nothing more.
 */
function openTerms(question: string, map: Ownership, visited: ReadonlySet<string>): Set<string> {
  const entities = entitiesIn(question);
  let plain = question;
  for (const entity of entities) plain = plain.split(entity).join(" ");
  const visitedWords = new Set([...visited].flatMap((scope) => words(scope)));
  const plainWords = plain.split(/[^A-Za-z0-9_$]+/).filter((word) => word.length > 0 && !visitedWords.has(word.toLowerCase()));
  const open = entities.filter((entity) => !ownersOfEntity(map, entity).some((owner) => visited.has(owner)));
  return new Set([...plainWords.flatMap((word) => tokenize(word)), ...open.flatMap((entity) => tokenize(entity))].filter((term) => !GENERIC_TERMS.has(term)));
}

/** Shortest term that may match as the start of a longer one ("smtp" of "smtplib"). */
const MIN_PREFIX_TERM = 4;
/** Shortest question term that may match inside a name's part ("alloc" in "kzalloc"; "read" not in "thread"). */
const MIN_INNER_TERM = 5;

/** A part of a lead's name against the question's terms: equal, one starting the other, or a question term inside it. */
function termMatches(part: string, terms: ReadonlySet<string>): boolean {
  if (terms.has(part)) return true;
  for (const term of terms) {
    const [shorter, longer] = part.length <= term.length ? [part, term] : [term, part];
    if (shorter.length >= MIN_PREFIX_TERM && longer.startsWith(shorter)) return true;
    if (term.length >= MIN_INNER_TERM && part.includes(term)) return true;
  }
  return false;
}

/** Words of scope names that say where, not what ("internal-scheduler" is named by "scheduler"). */
const PLACE_WORDS = new Set(["internal", "src", "lib", "root", "pkg", "packages"]);

/**
 * Whether the question names a scope: every word of its name that says what it holds is a word of the
 * question ("the net core" names `net-core`, "the scheduler" `internal-scheduler`; "the classic API" does
 * not name `v4-classic-tests-3`). Numbers and place words (internal, src, lib) are left out.
 */
function isNamedIn(scope: string, asked: ReadonlySet<string>): boolean {
  const meaningful = words(scope).filter((word) => /^[a-z]{2,}$/.test(word) && !PLACE_WORDS.has(word) && !GENERIC_TERMS.has(word));
  return meaningful.length > 0 && meaningful.every((word) => asked.has(word));
}

/**
 * The leads that bear on the question: a symbol with a part of its name among the question's open terms
 * (`dma_alloc_coherent` for "allocate DMA buffers": dma, alloc; `kzalloc` too; `SMTP` for "smtplib"), or any lead into a scope whose name is a
 * word of the question ("the net core": net). A call like `startswith`, `print` or `partition` in the
 * cited code matches a method of that name in some other scope, and is no reason to ask it.
 */
export function relevantLeads(leads: ReadonlyMap<string, string[]>, question: string, map: Ownership, visited: ReadonlySet<string>): Map<string, string[]> {
  const terms = openTerms(question, map, visited);
  const asked = new Set(words(question));
  const out = new Map<string, string[]>();
  for (const [scope, symbols] of leads) {
    const named = isNamedIn(scope, asked);
    const kept = named ? symbols : symbols.filter((symbol) => tokenize(symbol).some((term) => termMatches(term, terms)));
    if (kept.length > 0) out.set(scope, kept);
  }
  return out;
}

/** The next scope the evidence leads to, among those not yet visited. */
export function nextScope(leads: Map<string, string[]>, visited: ReadonlySet<string>, target?: string): { scope: string; focus: string[] } | null {
  if (target && leads.has(target) && !visited.has(target)) return { scope: target, focus: (leads.get(target) ?? []).slice(0, MAX_FOCUS_SYMBOLS) };
  const ranked = [...leads].filter(([scope]) => !visited.has(scope)).sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const best = ranked[0];
  return best ? { scope: best[0], focus: best[1].slice(0, MAX_FOCUS_SYMBOLS) } : null;
}

/**
 * The unvisited scope owning names the question asks about that no visited scope answered for ("How does
 * ZodString use $ZodCheckMinLength?" after the scope of $ZodCheckMinLength answered: ZodString's), with
 * those names as its focus; null when every name is answered for. The question is not answered until
 * every part it names is.
 */
export function namedElsewhere(question: string, map: Ownership, scopes: readonly string[], visited: ReadonlySet<string>): { scope: string; focus: string[] } | null {
  const open = scopes.filter((scope) => !visited.has(scope));
  const scope = scopeOfEntities(question, map, open, visited);
  if (!scope) return null;
  const focus = entitiesIn(question).filter((name) => {
    const owners = ownersOfEntity(map, name);
    return owners.includes(scope) && !owners.some((owner) => visited.has(owner));
  });
  return { scope, focus: focus.slice(0, MAX_FOCUS_SYMBOLS) };
}

/** The question a hop is asked: the original, narrowed to the symbols that led to this scope. */
export function refineQuestion(question: string, fromScope: string | null, focus: readonly string[]): string {
  if (!fromScope || focus.length === 0) return question;
  return `${question} (continuing from ${fromScope}: how ${focus.length === 1 ? "is" : "are"} ${focus.join(", ")} implemented here?)`;
}
