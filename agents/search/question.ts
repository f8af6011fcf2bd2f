// A question parsed once, into the one value the whole search carries: its intent, the code names it
// uses, and its weighted terms. The manager parses; workers receive it on the wire (protocol/search.ts).
import { identifiersInQuery, termForms, tokenize } from "../pgc/retrieval/index.js";
import { calledName, intentOf, type QuestionIntent } from "./question-intent.js";

export type { QuestionIntent };

export interface QuestionTerm {
  /** The term as the tokenizer keys it (stemmed, lower-case; a whole identifier stays whole). */
  term: string;
  /** Other spellings code uses for it (receive → rcv, recv, rx). */
  forms: string[];
  /** How much covering this term is worth: the prior below, times the fleet's rarity once known. */
  weight: number;
  /** The term comes from a code-shaped name the question writes (`tcp_sendmsg`, `SMTP.send_message`). */
  name: boolean;
  /** The term is only a part of a longer word the question writes (`open` of "OpenGL"): it cannot anchor a start. */
  fragment?: boolean;
}

export interface ParsedQuestion {
  text: string;
  intent: QuestionIntent;
  /** Code identifiers the question writes, in order (a qualified one also by its last part). */
  names: string[];
  terms: QuestionTerm[];
}

export const QUALIFIED = /\.|::|->/;

export function lastPart(name: string): string {
  return name.split(QUALIFIED).at(-1) ?? name;
}

/** Words that say what kind of answer is wanted, not what it is about ("what path does … take"). */
const QUESTION_NOISE: ReadonlySet<string> = new Set(
  tokenize(
    "how what path take takes taken way ways step steps flow work works happen happens get gets go goes reach reaches end ends " +
      "code function functions method methods class classes module modules file files implement implemented implementation " +
      "use uses used using call calls called caller callers invoke invokes thing things done make makes made describe explain " +
      "show tell where which who whom why to " +
      // Conversational fillers ("something like …", "where are they actually pulled out", "for example") and function
      // words the stop list leaves out ("without running my constructor", "instead of the server's …").
      "something somehow somewhere actually really basically exactly like example examples whose " +
      "without instead already still even ever never always often within across along among around behind " +
      "beyond despite except since toward towards unlike whenever wherever whatever however rather otherwise anyway " +
      // Quantifiers ("over one connection", "several requests", "each one"): how many, never what; "one" stems to "on".
      "one several many every another various",
  ),
);

/** A code-shaped name the user wrote weighs this many times a plain word: it is the most precise anchor there is. */
export const NAME_TERM_PRIOR = 2;

/**
 * The subject of "how does X do Y through Z" is X: English puts it first. The k-th distinct content term
 * (from 0) gets 1 + 1/(k + 1): the first ×2, the second ×1.5, then fading towards ×1.
 */
export function positionPrior(position: number): number {
  return 1 + 1 / (position + 1);
}

/**
 * The question's terms in order. A compound word the user wrote as prose ("OpenGL") is one term, whole:
 * its parts ("open", "gl") are not things the question asks about. A code name it writes (`setInterval`,
 * `sock_sendmsg`) keeps its parts too, as names in code are made of them.
 */
export function questionTokens(text: string, names: readonly string[]): { term: string; fragment: boolean; example?: true }[] {
  const code = new Set(names.flatMap((name) => [name, ...name.split(/\.|::|->/)]).map((n) => n.toLowerCase()));
  const out: { term: string; fragment: boolean; example?: true }[] = [];
  const words = text.split(/\s+/);
  for (const [i, word] of words.entries()) {
    if (EXAMPLE_PATH.test(word) || word.startsWith(LITERAL_MARK)) {
      for (const term of tokenize(word)) out.push({ term, fragment: false, example: true });
      continue;
    }
    const version = versionTerm(words[i - 1], word);
    if (version) {
      out.push({ term: version, fragment: false });
      continue;
    }
    const tokens = tokenize(word);
    const bare = word.replace(/^[^\w$]+|[^\w$]+$/g, "").replace(/\(\)$/, "").toLowerCase();
    const compound = tokens.length > 1 && /^[A-Za-z][a-z]*[A-Z]/.test(word.replace(/^[^\w$]+/, "")) && !/[._:()-]/.test(word) && !code.has(bare);
    if (compound) {
      out.push({ term: tokens.at(-1) as string, fragment: false });
      continue;
    }
    // Parts a case split makes of one word (`pv4` of "IPv4", `gl` of "OpenGL") are fragments, not words;
    // the parts of a hyphenated prose word ("JIT-compile", "multi-hop") are words of their own.
    // Words a slash joins ("8250/16550", "read/write") are words of their own, as are numbers.
    const separated = /[_.\-:>/]/.test(word);
    const hyphenated = /^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(bare);
    const slashed = /^[\w$]+(?:\/[\w$]+)+$/.test(bare);
    tokens.forEach((t, i) => {
      const last = i === tokens.length - 1;
      if (last || (t.length >= 3 && (separated || !/\d/.test(t)))) out.push({ term: t, fragment: !last && !hyphenated && !slashed && !/^\d+$/.test(t) });
    });
  }
  return out;
}

/**
 * A path the question writes as an example of data, not code: a URL path or a device file
 * (`/posts/123/comments`, `/items?page=2`, `/dev/ttyUSB0`), after any opening quote or bracket. Its words
 * say what the data looks like; the question's prose says what the code does with it ("an FTDI USB-serial
 * adapter"). Measured both ways on the fifth held-out set (docs/BENCHMARKS.md): a device file taken as a
 * name gave c-linux-usb-08 its start word `acm` and c-linux-usb-07 no chain; taken as an example, the
 * reverse, with one more start and final right.
 */
const EXAMPLE_PATH = /^[("'`[{]*\/[\w$.-]*[A-Za-z]/;

/**
 * A string literal the question writes (`self.render("page.html", …)`, `params: { postId: 'hello world' }`,
 * `'todos/todoAdded'`) is an example of data too, when it holds more than letters: its quotes open after no
 * word character and close before none (not an apostrophe: "the router's core"). A one-word literal
 * (`'eager'`) may be a value the code itself compares against, and stays a word.
 */
const LITERAL = /(?<![\w$])(["'])([^"'\n]*?[^A-Za-z"'\n][^"'\n]*?)\1(?![\w$])/g;
/** Marks each word of a literal in the text the question's words are read from (no word begins with it). */
const LITERAL_MARK = "\u241f";

/**
 * A code-shaped word the question gives as an example of what it asks about — after "such as", "like",
 * "e.g." or "for example": "a newly registered skcipher such as cbc(aes)", "an HMAC DRBG such as
 * drbg_nopr_hmac_sha256", "a tool like i2cget", "long options like --name=value". It says which instance is
 * meant (an algorithm's name, a tool, an argument), not which code runs: an example, as a literal is. Only a
 * word with a mark of code in it (`_ . ( - / :` or a digit); "such as Markdown" stays a word of the question.
 */
const EXAMPLE_NAME = /\b(such as|like|e\.g\.,?|for example,?)(\s+)([`'"]?)((?=[^\s`'"]*[_.(\-/:\d])[^\s`'",;?!]+?)\3(?=[\s,;:?!]|$)/gi;

/** The text with each string literal's words (and each example name's) marked as an example's, and the text with them left out (where code names are read). */
function literals(text: string): { marked: string; prose: string } {
  const quoted = text.replace(LITERAL, (_all, _quote: string, inner: string) => ` ${inner.split(/\s+/).filter(Boolean).map((w) => LITERAL_MARK + w).join(" ")} `);
  return {
    marked: quoted.replace(EXAMPLE_NAME, (_all, lead: string, space: string, _quote: string, name: string) => `${lead}${space}${LITERAL_MARK}${name}`),
    prose: text.replace(LITERAL, " ").replace(EXAMPLE_NAME, (_all, lead: string, space: string) => `${lead}${space}`),
  };
}

/**
 * A term only an example path gives weighs this much of what its place in the question would give it, and
 * takes no place (the terms after it keep theirs): `/posts/123/comments` says a URL is meant, not that
 * the code handles posts or comments.
 */
export const EXAMPLE_PRIOR = 0.25;

/**
 * A number written after a name ("Zod 4", "Python 3", "HTTP 2") is a version, which code spells `v4` in its
 * directories and names (src/v4/, api/v2/). The tokenizer drops a lone digit; this keeps it as that term.
 */
function versionTerm(before: string | undefined, word: string): string | null {
  const number = /^(\d{1,2})[,.;:?!)]*$/.exec(word)?.[1];
  if (!number || !before || !/^[A-Z][\w$]*$/.test(before)) return null;
  return `v${number}`;
}

/**
 * The terms that are only parts of a longer word the question writes (`open` of "OpenGL", `set` of
 * `setInterval`): they help score a place, but a place matching only them is not what the question names.
 */
export function fragmentTerms(text: string): Set<string> {
  return new Set(parseQuestion(text).terms.filter((t) => t.fragment).map((t) => t.term));
}

/**
 * Who sets the path going, when it is someone outside the code: "When a program write()s to …", "When a
 * user-space tool queries …", "When the user moves the caret …", "A program reads /dev/mtd0, …" (a when,
 * if, once, after or before clause's subject, or a sentence's). The words of such an actor name no code
 * (the code is what the program calls), and as the first words of the question they took its subject's
 * weight; they are read as noise. Only these actors: "the client", "the driver", "a task" are code.
 * OUTSIDE_ACTOR_WORDS are the actors; named-start.ts's USER_CALL reads them too ("when a tool calls X").
 */
export const OUTSIDE_ACTOR_WORDS = String.raw`(?:(?:a|an|the|some)\s+)?(?:(?:user[- ]space|userspace|user-level)\s+(?:programs?|applications?|apps?|tools?|utilit(?:y|ies)|process(?:es)?)|user\s*space|programs?|applications?|apps?|tools?|utilit(?:y|ies)|users?)`;
/** An outside actor where it sets a path going: at a sentence's start or after when / if / once / after / before (the lead-in is group 1). */
export const OUTSIDE_ACTOR_AT = String.raw`(^\s*|[.?!]\s+|\b(?:when|whenever|if|once|after|before)\s+)${OUTSIDE_ACTOR_WORDS}`;
const OUTSIDE_ACTOR = new RegExp(String.raw`${OUTSIDE_ACTOR_AT}\b`, "gi");

/** Parses a question into its intent, names and weighted terms. Pure; the same text gives the same value. */
export function parseQuestion(text: string): ParsedQuestion {
  const intent = intentOf(text);
  const called = intent === "callers" ? calledName(text, QUESTION_NOISE) : null;
  const { marked: withActor, prose: literalFree } = literals(text);
  const marked = withActor.replace(OUTSIDE_ACTOR, "$1");
  const names = [...new Set([...(called ? [called, ...(/[.:>]/.test(called) ? [called.split(/\.|::|->/).at(-1) as string] : [])] : []), ...identifiersInQuery(literalFree)])];
  const nameTerms = new Set(names.flatMap((name) => tokenize(name)));
  // The words of a longer name (`respons` of `responseSchema`), not the whole name and not a one-word name (`write()`).
  const wholes = new Set(names.flatMap((name) => [name.toLowerCase(), lastPart(name).toLowerCase()]));
  const single = new Set(names.map((name) => tokenize(name)).filter((parts) => parts.length === 1).flat());
  const partsOnly = new Set([...nameTerms].filter((t) => !single.has(t) && !wholes.has(t)));
  const terms: QuestionTerm[] = [];
  const seen = new Set<string>();
  const tokens = questionTokens(marked, names);
  // Written outside every example too, a term is the question's own.
  const prose = new Set(tokens.filter((t) => !t.example).map((t) => t.term));
  // Places taken by the question's own terms (an example's take none), and each term's.
  let place = 0;
  const places = new Map<string, number>();
  for (const { term, fragment } of tokens) {
    if (QUESTION_NOISE.has(term)) continue;
    if (seen.has(term)) {
      // Written whole somewhere, a term is no fragment.
      const known = terms.find((t) => t.term === term);
      if (known?.fragment && !fragment) delete known.fragment;
      continue;
    }
    seen.add(term);
    const name = nameTerms.has(term);
    // A word of a longer name (`respons` of `responseSchema`) is that name's: the whole name, a term of its
    // own below, carries the name's weight, and its words count as plain words.
    const own = name && !partsOnly.has(term);
    const example = !prose.has(term);
    places.set(term, place);
    const weight = example ? positionPrior(place) * EXAMPLE_PRIOR : positionPrior(place++) * (own ? NAME_TERM_PRIOR : 1);
    terms.push({ term, forms: [...termForms(term), ...closedForms(term)], weight, name, ...(fragment ? { fragment: true } : {}) });
  }
  // Each name the question writes is also a term of its own, whole: it matches a function named exactly so
  // (the `symbol` field) above one that only has it as a word of its name.
  // It weighs as the words where the question writes it (`requests.get` first is the subject, not an afterthought).
  // A qualified name (`collection.update`, `requests.get`) is one term, `owner.name`: it matches a function
  // named so whose class, file or directory is the owner (relevance.ts, qualifiedMatch).
  const qualifiedLast = new Set(names.filter((n) => QUALIFIED.test(n)).map((n) => lastPart(n).toLowerCase()));
  for (const name of names) {
    const qualified = name.split(QUALIFIED).filter(Boolean).length > 1;
    const whole = wholeNameTerm(name);
    // The bare last part of a qualified name is that name's, not a term of its own.
    if (!qualified && qualifiedLast.has(whole)) continue;
    if (seen.has(whole)) continue;
    seen.add(whole);
    const parts = new Set(tokenize(name));
    const at = terms.find((t) => parts.has(t.term));
    terms.push({ term: whole, forms: closedForms(whole), weight: positionPrior(at ? (places.get(at.term) ?? terms.indexOf(at)) : terms.length) * NAME_TERM_PRIOR, name: true });
  }
  addClosedCompounds(text, terms);
  return { text, intent, names, terms };
}

/**
 * The one-word spellings code closes a term of several words into. A snake-case name the question writes
 * (`end_io`, `null_blk`) as code often closes it into one name part (`req_bio_endio`, `nullb_`): its words
 * run together, as the tokenizer keys them, are a form of it; a hyphenated prose word, below.
 */
function closedForms(whole: string): string[] {
  if (/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(whole)) return hyphenClosed(whole);
  if (!/^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(whole)) return [];
  const closed = tokenize(whole.replace(/_/g, ""));
  return closed.length === 1 ? [closed[0] as string] : [];
}

/**
 * A hyphenated word the question writes in prose ("keep-alive", "URL-encoded", "carrier-detect") is one
 * name in code run together: whole in a camel-case name (`urlEncoded` keys `urlencoded`) or as one part of
 * a snake-case one (`tcp_keepalive` keys `keepal`). Both are forms of the whole word.
 */
function hyphenClosed(whole: string): string[] {
  const raw = whole.replace(/-/g, "");
  const stemmed = tokenize(raw);
  return [...new Set([raw, ...(stemmed.length === 1 ? stemmed : [])])];
}

/** Forms a term may have at most (the wire's limit, agents/protocol/search.ts). */
const MAX_FORMS = 16;

/**
 * Two words a question writes apart that code closes into one name part ("file name" → `filename`, "run
 * queue" → `runqueue`, "work queue" → `workqueue`, "time stamp" → `timestamp`): the closed word, as the
 * tokenizer keys it, is a form of each of the two words that is a term, so a name part spelling it matches
 * them whole. Only two plain words of three letters or more side by side (no punctuation between), neither
 * a stop word; a word the question uses for the kind of answer ("file", "work") still closes its neighbour.
 */
function addClosedCompounds(text: string, terms: QuestionTerm[]): void {
  const words = text.split(/\s+/);
  for (let i = 0; i + 1 < words.length; i++) {
    const left = words[i] as string;
    const right = (words[i + 1] as string).replace(/[^A-Za-z]+$/, "");
    if (!/^[A-Za-z]{3,}$/.test(left) || !/^[A-Za-z]{3,}$/.test(right)) continue;
    const [a, b, closed] = [tokenize(left), tokenize(right), tokenize(left + right)];
    if (a.length !== 1 || b.length !== 1 || closed.length !== 1) continue;
    for (const stem of [a[0], b[0]]) {
      const term = terms.find((t) => t.term === stem);
      if (term && !term.forms.includes(closed[0] as string) && term.forms.length < MAX_FORMS) term.forms.push(closed[0] as string);
    }
  }
}

/** The term a name the question writes is keyed by, whole: `owner.name` for a qualified one, else its last part (parseQuestion). */
export function wholeNameTerm(name: string): string {
  const segments = name.split(QUALIFIED).filter(Boolean);
  return segments.length > 1 ? `${(segments.at(-2) as string).replace(/\(\)$/, "")}.${segments.at(-1) as string}`.toLowerCase() : lastPart(name).toLowerCase();
}

/** The total weight of a question's terms (what full coverage is worth). */
export function totalWeight(question: Pick<ParsedQuestion, "terms">): number {
  return question.terms.reduce((sum, t) => sum + t.weight, 0);
}
