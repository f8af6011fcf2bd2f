// Where a multi-hop question starts: the scope owning what it names, a name that reads as a word only
// one scope defines, or a scope it names by a word.
import { STOPWORDS, tokenize } from "../pgc/retrieval/index.js";
import { GENERIC_TERMS } from "./lead-relevance.js";
import { entitiesIn, nameWords, ownersOfEntity, words, type Ownership } from "./question-names.js";

/** The least a scope must own of what a question names to be chosen for it: one name shared with one other scope. */
const MIN_VOTES = 0.5;

/**
 * The scope owning most of what the question names (symbols, modules, paths), or null when it names
 * nothing we know. A name several scopes define counts for each of them as a share (1/owners), so the
 * scope owning the names only it has wins; a tie goes to the scope whose name the question uses
 * ("classic", "mm"), then to the one named first. Null too when the best holds less than MIN_VOTES.
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
  const best = ranked[0];
  // Shares of names many scopes define (`join`, `__init__`) do not pick a scope: that would be a guess.
  return best && best[1].votes >= MIN_VOTES ? best[0] : null;
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
  for (const word of nameWords(question)) {
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
