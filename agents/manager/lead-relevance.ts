// Which of the leads a hop's evidence found bear on the question: evidence-following without a target
// follows only those, so a call every type has (startswith, print) does not take the chain astray.
import { termForms, tokenize } from "../pgc/retrieval/index.js";
import { entitiesIn, nameWords, ownersOfEntity, words, type Ownership } from "./question-names.js";

/** Words of a question that name no code of their own: "module" in "the logging module" leads nowhere. */
export const GENERIC_TERMS: ReadonlySet<string> = new Set(tokenize("module modules function functions method methods class classes code file files type types object objects value values data work works use uses used using call calls called handle handles implement implemented implementation"));

/** A term with the spellings code uses for it (the tokenizer's table, shared with the traced search). */
function spellings(term: string): string[] {
  return [term, ...termForms(term)];
}

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
  const plainWords = nameWords(plain).filter((word) => !visitedWords.has(word.toLowerCase()));
  const open = entities.filter((entity) => !ownersOfEntity(map, entity).some((owner) => visited.has(owner)));
  const terms = [...plainWords.flatMap((word) => tokenize(word)), ...open.flatMap((entity) => tokenize(entity))].filter((term) => !GENERIC_TERMS.has(term));
  return new Set(terms.flatMap(spellings));
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
 * The leads that bear on the question: a symbol with a part of its name among the question's open terms,
 * as written or as code abbreviates them (`ip_rcv` for "received")
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
