// The one scoring model of the search. Every decision — where a question starts, which call or exit a
// path follows, when it stops — is this function of the question's weighted terms and a place in the
// code, and each score can say which terms it matched where.
import { termForms, tokenize } from "../pgc/retrieval/index.js";
import { matchWord, PARTIAL_MATCH, termMatcher } from "./word-match.js";
import type { ParsedQuestion, QuestionTerm } from "./question.js";
import { calledNames, spelledOtherwise, writtenIdentifiers } from "./written-names.js";

export { calledNames, writtenIdentifiers } from "./written-names.js";

/** Where in a function's description a question term can be found, from most to least telling. */
export type Field = "symbol" | "name" | "bound" | "container" | "file" | "dir" | "doc" | "body";

/**
 * How much a match in each field says that the function is about the term: its whole name (`clone` for
 * "who calls clone") says most, then a word of its name (`objectClone`), or the whole name of a C struct
 * field it is stored into (`read` of `.read = spidev_read`: what the code calling it through the field
 * names it, as "a program calls read()" does; every driver's read is so named, so no more than a word of
 * its own name, and a word of its name first when both match); its class, file and directory say what it
 * belongs to — a package or driver directory as much as a file ("urllib's HTTP handler", "the e1000
 * driver"); its doc comment describes it; its body only uses it.
 */
export const FIELD_STRENGTH: Readonly<Record<Field, number>> = { symbol: 1, name: 0.9, bound: 0.9, container: 0.8, file: 0.7, dir: 0.7, doc: 0.4, body: 0.15 };
const FIELDS = Object.keys(FIELD_STRENGTH) as readonly Field[];

/**
 * A body that uses, whole, a compound identifier the question writes (`responseSchema`, `max_retries`,
 * `O_CREAT`: an option, a field, a flag) is where that identifier is handled: the body match of such a term
 * counts this much, not FIELD_STRENGTH.body. A one-word name (`write`, `get`) is used everywhere and gets no more.
 */
export const CODE_USE_STRENGTH = 0.5;

/** How much a match in `field` can say about `term`: FIELD_STRENGTH, or CODE_USE_STRENGTH for a written identifier in a body. */
function fieldStrength(term: QuestionTerm, field: Field, identifiers: ReadonlySet<string>, called: ReadonlySet<string> = NO_NAMES): number {
  if (field === "body" && identifiers.has(term.term)) return CODE_USE_STRENGTH;
  // A called name (`read()`) is matched whole by a function of that name, or stored into a field of that name.
  if (field !== "symbol" && field !== "bound" && called.has(term.term)) return FIELD_STRENGTH[field] * PARTIAL_MATCH;
  return FIELD_STRENGTH[field];
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * One field's terms (tokenizer output) of a place in the code; `cased`, the place's own names as the code
 * spells them (`CLIENT`, `Client`), which a name the question writes must spell alike to match it whole.
 */
export type FieldTerms = Partial<Record<Field, ReadonlySet<string>>> & {
  readonly cased?: ReadonlySet<string>;
  /** A long function's compound identifiers past its indexed body, lower-cased as a question's names are (`ui_dev_create`). */
  readonly uses?: ReadonlySet<string>;
  /** A function defined inside another function's body (nesting.ts): no qualified name (`engine.connect`) names it. */
  readonly nested?: true;
};

export { MIN_INNER_TERM, MIN_PREFIX_TERM, MIN_SPELLING_AFFIX, PARTIAL_MATCH, matchWord, wordMatch } from "./word-match.js";

export interface TermMatch {
  term: string;
  field: Field;
  /** The field's term it matched (a spelling like "rx" for "receiv"). */
  matched: string;
  /** FIELD_STRENGTH of the field, times PARTIAL_MATCH for a prefix or inner match. */
  strength: number;
}

/**
 * A qualified name the question writes (`collection.update`, `requests.get`, `loop.create_connection`)
 * matches a function whose whole name is its last part: in full when the function's class, file or
 * directories hold its owner (`CollectionImpl`, requests/, `BaseEventLoop`), else PARTIAL_MATCH (an
 * `update` of some other class). Nothing else matches it.
 */
function qualifiedMatch(question: { readonly names?: readonly string[] }, term: QuestionTerm, fields: FieldTerms): TermMatch | null {
  // A closure is no attribute of anything: `engine.connect` is not the `connect` create_engine defines inside itself.
  if (fields.nested) return null;
  const dot = term.term.lastIndexOf(".");
  const name = term.term.slice(dot + 1);
  if (!fields.symbol?.has(name) || spelledOtherwise(question, name, fields.cased)) return null;
  // The owner's words (`my_task` is `task`): a compound's whole run-together token is not one more word to find.
  const ownerText = term.term.slice(0, dot);
  const tokens = tokenize(ownerText);
  const owner = tokens.length > 1 ? tokens.filter((t) => t !== ownerText.toLowerCase() && !t.includes("_")) : tokens;
  // A method is owned by its class or its file (`session.get`, `app.route` of flask/app.py's `Flask`), not by
  // the package above it: `requests.get` is requests/api.py's function, not requests/sessions.py's `Session.get`.
  const method = (fields.container?.size ?? 0) > 0;
  const places = method ? [fields.container, fields.file] : [fields.file, fields.dir];
  const owned = owner.length > 0 && owner.every((part) => places.some((words) => [...(words ?? [])].some((w) => matchWord({ term: part, forms: [...termForms(part)], weight: 1, name: true }, w) > 0)));
  return { term: term.term, field: "symbol", matched: name, strength: FIELD_STRENGTH.symbol * (owned ? 1 : PARTIAL_MATCH) };
}

/**
 * Code words matched in part so far, by field and word, with the terms they matched: one code word does
 * not answer in part both a word the question writes and a fragment of it (`post` for "PostgreSQL" and
 * for its `postgr`).
 */
type PartlyTaken = Map<string, QuestionTerm[]>;

function sameWritten(a: QuestionTerm, b: QuestionTerm): boolean {
  return (a.fragment === true || b.fragment === true) && (a.term.includes(b.term) || b.term.includes(a.term));
}

function bestInField(term: QuestionTerm, field: Field, words: ReadonlySet<string>, taken: ReadonlySet<string>, partly: PartlyTaken, identifiers: ReadonlySet<string>, called: ReadonlySet<string>): TermMatch | null {
  if (words.has(term.term) && !taken.has(`${field}\0${term.term}`)) return { term: term.term, field, matched: term.term, strength: fieldStrength(term, field, identifiers, called) };
  // The whole name says "this is the function named so": only the same name matches it. A name of several
  // words the question writes (`E1000_COPYBREAK`) is matched in part by its words, which are terms too, and
  // whole by its words run together (`endio` of `req_bio_endio` for `end_io`: question.ts, closedForms).
  if (field === "symbol" || field === "bound") return null;
  if (identifiers.has(term.term)) {
    const closed = term.forms.find((form) => words.has(form) && !taken.has(`${field}\0${form}`));
    return closed === undefined ? null : { term: term.term, field, matched: closed, strength: fieldStrength(term, field, identifiers, called) };
  }
  let best: TermMatch | null = null;
  const matchOf = termMatcher(term);
  for (const word of words) {
    // Most words match nothing: ask that first (memoized), before building the keys of what is used up.
    const quality = matchOf(word);
    if (quality === 0) continue;
    if (taken.has(`${field}\0${word}`)) continue;
    if (partly.get(`${field}\0${word}`)?.some((other) => sameWritten(other, term))) continue;
    // A partial match of an identifier in a body says no more than any word's does.
    const strength = (field === "body" ? FIELD_STRENGTH.body : fieldStrength(term, field, identifiers, called)) * quality;
    if (!best || strength > best.strength) best = { term: term.term, field, matched: word, strength };
    if (quality === 1) break;
  }
  return best;
}

/**
 * For each question term, its strongest match in the place's fields (terms it does not match are left
 * out). One whole word of the code answers one term: the heavier terms choose first, so the `tx` of
 * `e1000_clean_tx_irq` counts for "transmit" or for "sent", not for both, and the `open` of `e1000_open`
 * for "open" or for "OpenGL".
 */
export function matchTerms(question: Pick<ParsedQuestion, "terms"> & { readonly names?: readonly string[]; readonly text?: string }, fields: FieldTerms): TermMatch[] {
  const out: TermMatch[] = [];
  const taken = new Set<string>();
  const partly: PartlyTaken = new Map();
  const identifiers = writtenIdentifiers(question);
  const called = calledNames(question);
  for (const term of heaviestFirst(question.terms)) {
    if (term.term.includes(".")) {
      const qualified = qualifiedMatch(question, term, fields);
      if (qualified) out.push(qualified);
      continue;
    }
    let best: TermMatch | null = null;
    for (const field of FIELDS) {
      const words = fields[field];
      if (!words || words.size === 0 || (best && best.strength >= fieldStrength(term, field, identifiers, called))) continue;
      if (field === "symbol" && term.name && spelledOtherwise(question, term.term, fields.cased)) continue;
      const match = bestInField(term, field, words, taken, partly, identifiers, called);
      if (match && (!best || match.strength > best.strength)) best = match;
    }
    if (best) {
      out.push(best);
      // A word matched whole is used up; a compound matched in part (`msg` of `sendmsg`) may hold another term.
      if (best.matched === best.term || best.strength === FIELD_STRENGTH[best.field]) taken.add(`${best.field}\0${best.matched}`);
      else if (best.matched !== best.term) {
        const key = `${best.field}\0${best.matched}`;
        partly.set(key, [...(partly.get(key) ?? []), term]);
      }
    }
  }
  // In question order, as before: explanations read like the question.
  const position = positions(question.terms);
  return out.sort((a, b) => (position.get(a.term) ?? 0) - (position.get(b.term) ?? 0));
}

const orderMemo = new WeakMap<readonly QuestionTerm[], readonly QuestionTerm[]>();
const positionMemo = new WeakMap<readonly QuestionTerm[], ReadonlyMap<string, number>>();

/** The terms heaviest first (in question order among equals), once per question. */
function heaviestFirst(terms: readonly QuestionTerm[]): readonly QuestionTerm[] {
  let order = orderMemo.get(terms);
  if (!order) orderMemo.set(terms, (order = terms.map((term, i) => ({ term, i })).sort((a, b) => b.term.weight - a.term.weight || a.i - b.i).map(({ term }) => term)));
  return order;
}

function positions(terms: readonly QuestionTerm[]): ReadonlyMap<string, number> {
  let position = positionMemo.get(terms);
  if (!position) positionMemo.set(terms, (position = new Map(terms.map((t, i) => [t.term, i]))));
  return position;
}

/** How strongly each question term is covered so far (0 when not at all). */
export type Coverage = ReadonlyMap<string, number>;

export const NO_COVERAGE: Coverage = new Map();

const weightsMemo = new WeakMap<readonly QuestionTerm[], { byTerm: ReadonlyMap<string, number>; total: number }>();

/** Each term's weight and their sum, once per question (a search asks for them at every step it scores). */
function weights(question: Pick<ParsedQuestion, "terms">): { byTerm: ReadonlyMap<string, number>; total: number } {
  let known = weightsMemo.get(question.terms);
  if (!known) weightsMemo.set(question.terms, (known = { byTerm: new Map(question.terms.map((t) => [t.term, t.weight])), total: question.terms.reduce((sum, t) => sum + t.weight, 0) }));
  return known;
}

/** Relevance: the weighted share of the question a place matches, in [0, 1]. */
export function relevance(question: Pick<ParsedQuestion, "terms">, matches: readonly TermMatch[]): number {
  return gain(question, matches, NO_COVERAGE);
}

/** Gain: the weighted share of the question a place adds beyond what is already covered, in [0, 1]. */
export function gain(question: Pick<ParsedQuestion, "terms">, matches: readonly TermMatch[], covered: Coverage): number {
  const { byTerm, total } = weights(question);
  if (total <= 0) return 0;
  let sum = 0;
  for (const m of matches) sum += (byTerm.get(m.term) ?? 0) * Math.max(0, m.strength - (covered.get(m.term) ?? 0));
  return sum / total;
}

/** The coverage after a place's matches are added. */
export function cover(covered: Coverage, matches: readonly TermMatch[]): Map<string, number> {
  const next = new Map(covered);
  for (const m of matches) if (m.strength > (next.get(m.term) ?? 0)) next.set(m.term, m.strength);
  return next;
}

/** The weighted share of the question a coverage holds, in [0, 1]. */
export function coverageShare(question: Pick<ParsedQuestion, "terms">, covered: Coverage): number {
  const { byTerm, total } = weights(question);
  if (total <= 0) return 0;
  let sum = 0;
  for (const [term, strength] of covered) sum += (byTerm.get(term) ?? 0) * strength;
  return sum / total;
}

/**
 * A step's worth, for a path's next call and the chain's next exit alike: what it adds to the question's
 * coverage, plus RELEVANCE_CARRY of its own relevance, so a step that names the question's subject again
 * (jbd2's journal start after ext4's wrapper of it) is still followed, while a call that adds nothing and
 * names nothing of the question (a lock, a print) scores 0.
 */
export const RELEVANCE_CARRY = 0.5;

export function stepScore(question: Pick<ParsedQuestion, "terms">, matches: readonly TermMatch[], covered: Coverage): number {
  return gain(question, matches, covered) + RELEVANCE_CARRY * relevance(question, matches);
}

/**
 * A function in test code shows how something is used, not how it works: as a start it counts this much of
 * its relevance, unless the question is about tests.
 */
export const TEST_CODE_PRIOR = 0.6;
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs)\/|(^|\/)test_[^/]*$|[._-](test|spec)\.[^/]+$|_test\.[^/]+$/;

export function placePrior(filePath: string, question: Pick<ParsedQuestion, "terms">): number {
  if (!TEST_PATH.test(filePath)) return 1;
  return question.terms.some((t) => t.term === "test" || t.term === "spec") ? 1 : TEST_CODE_PRIOR;
}

/** Each call along a path costs this much of the question's coverage: of two equal paths, the shorter wins. */
export const DEPTH_COST = 0.02;

/**
 * The words of a name the question does not ask about (`jumbo` of `e1000_clean_jumbo_rx_irq` for "how does
 * e1000 pass received packets up"): of two places that bear equally on the question, the one whose name
 * says less beside it is the likelier meant. A tie-break, never a score. A method's class is part of its
 * name (`FormGroupApi.setFieldValue` says `group` beside what `FormApi.setFieldValue` says, for "when I
 * call form.setFieldValue"): words its class matched are explained too.
 */
export function unexplainedWords(nameWords: ReadonlySet<string>, matches: readonly TermMatch[]): number {
  const explained = new Set(matches.filter((m) => m.field === "name" || m.field === "symbol" || m.field === "bound" || m.field === "container").map((m) => m.matched));
  let count = 0;
  for (const word of nameWords) if (!explained.has(word)) count++;
  return count;
}

/** "e1000 (name), receiv as rx (name), driver (dir)": why a place scored what it did. */
export function explainMatches(matches: readonly TermMatch[]): string {
  return matches.map((m) => `${m.term}${m.matched === m.term ? "" : ` as ${m.matched}`} (${m.field})`).join(", ");
}
