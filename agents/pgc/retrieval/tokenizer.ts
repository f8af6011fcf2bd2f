// Identifier-aware tokenizer shared by indexing and querying, so both sides always agree on terms.
import { porterStem } from "./stemmer.js";
import { STOPWORDS } from "./stopwords.js";
import { baseForm } from "./irregular-forms.js";

/** Parts shorter than this ("i", "x", "t" in int32_t) carry no meaning on their own. */
export const MIN_PART_LENGTH = 2;
/** Whole identifiers shorter than this ("a_b") are noise rather than names worth matching exactly. */
export const MIN_WHOLE_IDENTIFIER_LENGTH = 4;
/** Bounds the memo of run → terms; cleared (not evicted) when full, which keeps output identical. */
const RUN_CACHE_LIMIT = 200_000;

/** A number this long or longer names a thing (the 8250 UART, the RTL8139, RFC 2822): shorter ones are counts and sizes. */
export const MIN_NUMBER_LENGTH = 3;

// A run starts at a word boundary with a letter, "_" or a number of MIN_NUMBER_LENGTH digits not led by 0
// (8250_core, 16550A), so literals like 0xff, 1e5 or 42 never yield a run; kebab parts must start with a letter.
const RUN_PATTERN = /\b(?:[A-Za-z_]|[1-9][0-9]{2})[A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*/g;

/** A name part made of a word and a model number (`serial8250`, `rtl8139`, `rfc2822`): the word, then the number. */
const WORD_NUMBER = /^([a-z]{3,})([1-9][0-9]{2,})$/;

const runCache = new Map<string, readonly string[]>();

/** A word (between `_` and `-`) of letters and digits where letters follow a digit, led by a letter: `i2c`, `l2cap`, `v4l2`, `md5sum`. */
const DIGIT_LETTER = /^[A-Za-z][A-Za-z]*[0-9]+[A-Za-z][A-Za-z0-9]*$/;

/** The words of a run split only at digit→letter boundaries, lowercased: `i2c` of `i2c_transfer`, `l2cap` of `l2cap_sock_sendmsg`. */
function digitLetterWords(run: string): string[] {
  const out: string[] = [];
  for (const word of run.split(/[_-]/)) if (word.length >= 3 && DIGIT_LETTER.test(word) && !/[a-z][A-Z]/.test(word)) out.push(word.toLowerCase());
  return out;
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Splits one identifier run into its raw parts: at "_" and "-", before a capital that follows a lowercase
 * letter or digit (dmaAlloc), before the last capital of an acronym (HTTPServer), and where letters follow
 * digits (md5sum). Digits stay attached to the letters before them, so e1000 and utf8 stay whole; a
 * name that starts with a number (`8250_core`, `16550A`) has it as its first part.
 */
export function splitIdentifier(run: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c === 95 || c === 45) {
      if (start >= 0) parts.push(run.slice(start, i));
      start = -1;
      continue;
    }
    if (start >= 0 && isBoundary(run, i, c)) {
      parts.push(run.slice(start, i));
      start = i;
    }
    if (start < 0) start = i;
  }
  if (start >= 0) parts.push(run.slice(start));
  return parts;
}

function isBoundary(run: string, i: number, c: number): boolean {
  const prev = run.charCodeAt(i - 1);
  if (isUpper(c)) {
    if (isLower(prev) || isDigit(prev)) return true;
    return isUpper(prev) && i + 1 < run.length && isLower(run.charCodeAt(i + 1));
  }
  return isLower(c) && isDigit(prev);
}

/** A part that is a number of MIN_NUMBER_LENGTH digits or more, not led by 0: a term of its own, as written. */
function isNumber(part: string): boolean {
  if (part.length < MIN_NUMBER_LENGTH || part.charCodeAt(0) === 48) return false;
  for (let i = 0; i < part.length; i++) if (!isDigit(part.charCodeAt(i))) return false;
  return true;
}

function termsOfRun(run: string): readonly string[] {
  const cached = runCache.get(run);
  if (cached !== undefined) return cached;
  const parts = splitIdentifier(run);
  const terms: string[] = [];
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (isNumber(lower)) {
      terms.push(lower);
      continue;
    }
    if (lower.length < MIN_PART_LENGTH || isDigit(lower.charCodeAt(0)) || STOPWORDS.has(lower)) continue;
    terms.push(porterStem(baseForm(lower)));
    // The 8250 driver's `serial8250_*` names are its names for "8250" and for "serial" too.
    const joined = WORD_NUMBER.exec(lower);
    if (joined) terms.push(porterStem(baseForm(joined[1] as string)), joined[2] as string);
  }
  const whole = run.toLowerCase();
  const isCompound = parts.length > 1 || whole !== parts[0]?.toLowerCase();
  // A word split only where letters follow its digits (`i2c`, `l2cap`, `k8s`, `e1000e`) is a name as written:
  // "I2C" asks about `i2c_transfer` (→ i2, i2c, transfer), whose parts alone name no I2C.
  for (const word of digitLetterWords(run)) if (word !== whole) terms.push(word);
  if (isCompound && (whole.length >= MIN_WHOLE_IDENTIFIER_LENGTH || DIGIT_LETTER.test(run))) terms.push(whole);
  if (runCache.size >= RUN_CACHE_LIMIT) runCache.clear();
  runCache.set(run, terms);
  return terms;
}

/** Calls `visit` with each term of `text`, in order, without building an array. */
export function forEachTerm(text: string, visit: (term: string) => void): void {
  // matchAll works on a copy of the pattern, so nested or interleaved calls cannot share lastIndex.
  for (const match of text.matchAll(RUN_PATTERN)) {
    for (const term of termsOfRun(match[0])) visit(term);
  }
}

/** The terms of `text`: split identifiers, lowercase, stopwords dropped, irregular past forms read as their base (`woken` → wake), Porter-stemmed, plus whole identifiers. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (term) => out.push(term));
  return out;
}
