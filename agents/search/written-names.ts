// The names a question writes, read as the scoring model needs them (relevance.ts): the compound
// identifiers a body may use whole, the one-word functions written as calls, and each name's spelling, since
// code names are case-sensitive. Each is memoized per question object.
import { tokenize } from "../pgc/retrieval/index.js";
import { OUTSIDE_ACTOR_AT } from "./question.js";

/**
 * What someone outside the code does to it, said as a verb ("A program reads /dev/mtd0", "When an application
 * opens the PCM device", "When a program changes the baud rate"): a call into the code, as "a program calls
 * read()" is — the system call a driver implements behind `.read`, `.open`. The verb is read as a name
 * called: a function of that name, or stored into a struct field of that name, matches it in full; a word of
 * a longer name, as a part.
 */
const ACTOR_VERB = new RegExp(String.raw`${OUTSIDE_ACTOR_AT}\s+([a-z]+s)\b`, "gi");

const identifierMemo = new WeakMap<object, ReadonlySet<string>>();

/** The compound identifiers the question writes (`responseSchema` → "responseschema"), as the tokenizer keys them whole. */
export function writtenIdentifiers(question: { readonly names?: readonly string[] }): ReadonlySet<string> {
  let ids = identifierMemo.get(question);
  if (!ids) {
    ids = new Set((question.names ?? []).map((n) => n.split(/\.|::|->/).at(-1) ?? n).filter((n) => tokenize(n).length > 1).map((n) => n.toLowerCase()));
    identifierMemo.set(question, ids);
  }
  return ids;
}

const calledMemo = new WeakMap<object, ReadonlySet<string>>();

/**
 * The one-word function names the question writes as calls or code (`write()`, `` `schedule` ``), and the verb
 * of an outside actor (ACTOR_VERB): the user names a function, so `write` as a word of `ext4_write_end` is
 * another function, matched as a part is.
 */
export function calledNames(question: { readonly names?: readonly string[]; readonly text?: string }): ReadonlySet<string> {
  let called = calledMemo.get(question);
  if (!called) {
    const text = question.text ?? "";
    const found = new Set((question.names ?? []).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && tokenize(n).length === 1 && (text.includes(`${n}(`) || text.includes(`\`${n}\``))).map((n) => n.toLowerCase()));
    for (const verb of text.matchAll(ACTOR_VERB)) for (const term of tokenize(verb[2] ?? "")) found.add(term);
    called = found;
    calledMemo.set(question, called);
  }
  return called;
}

const writtenMemo = new WeakMap<object, ReadonlyMap<string, readonly string[]>>();

/** The names the question writes, by their last part as the tokenizer keys it whole: `httpx.Client` under "client". */
function writtenSpellings(question: { readonly names?: readonly string[] }): ReadonlyMap<string, readonly string[]> {
  let spellings = writtenMemo.get(question);
  if (!spellings) {
    const out = new Map<string, string[]>();
    for (const name of question.names ?? []) {
      const last = name.replace(/\(\)$/, "").split(/\.|::|->/).at(-1) ?? name;
      out.set(last.toLowerCase(), [...(out.get(last.toLowerCase()) ?? []), last]);
    }
    writtenMemo.set(question, (spellings = out));
  }
  return spellings;
}

/**
 * Code names are case-sensitive: a name the question writes (`httpx.Client`) is not a place named in
 * another case (h11's `CLIENT`), which matches it only as a word of its name.
 */
export function spelledOtherwise(question: { readonly names?: readonly string[] }, word: string, cased: ReadonlySet<string> | undefined): boolean {
  const written = writtenSpellings(question).get(word);
  return written !== undefined && cased !== undefined && !written.some((w) => cased.has(w));
}
