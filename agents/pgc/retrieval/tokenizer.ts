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

// A run starts at a word boundary, so literals like 0xff or 1e5 never yield a run; kebab parts must start with a letter.
const RUN_PATTERN = /\b[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*/g;

const runCache = new Map<string, readonly string[]>();

const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Splits one identifier run into its raw parts: at "_" and "-", before a capital that follows a lowercase
 * letter or digit (dmaAlloc), before the last capital of an acronym (HTTPServer), and where letters follow
 * digits (md5sum). Digits stay attached to the letters before them, so e1000 and utf8 stay whole.
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

function termsOfRun(run: string): readonly string[] {
  const cached = runCache.get(run);
  if (cached !== undefined) return cached;
  const parts = splitIdentifier(run);
  const terms: string[] = [];
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (lower.length < MIN_PART_LENGTH || isDigit(lower.charCodeAt(0)) || STOPWORDS.has(lower)) continue;
    terms.push(porterStem(baseForm(lower)));
  }
  const whole = run.toLowerCase();
  const isCompound = parts.length > 1 || whole !== parts[0]?.toLowerCase();
  if (isCompound && whole.length >= MIN_WHOLE_IDENTIFIER_LENGTH) terms.push(whole);
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
