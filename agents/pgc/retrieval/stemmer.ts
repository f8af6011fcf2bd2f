// A Porter (1980) stemmer, written from the published algorithm so stems are deterministic and dependency-free.
// Input must be lowercase ASCII letters; anything else (digits, "_", "-") is returned unchanged.

const MIN_STEMMABLE_LENGTH = 3;
const ASCII_WORD = /^[a-z]+$/;

type Rule = readonly [suffix: string, replacement: string];

const STEP2_RULES: readonly Rule[] = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
  ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
  ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"], ["iveness", "ive"],
  ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"],
];

const STEP3_RULES: readonly Rule[] = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""],
];

// Longest first where suffixes overlap ("ement" before "ment" before "ent"): Porter removes the longest match.
const STEP4_SUFFIXES: readonly string[] = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
  "ism", "ate", "iti", "ous", "ive", "ize",
].sort((a, b) => b.length - a.length);

function isConsonant(word: string, i: number): boolean {
  const c = word.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  // "y" is a consonant at the start or after a vowel, a vowel after a consonant.
  if (c === 121) return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in word[0, end). */
function measure(word: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(word, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(word, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(word, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(word, i)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string, end: number): boolean {
  return end >= 2 && word[end - 1] === word[end - 2] && isConsonant(word, end - 1);
}

/** Consonant-vowel-consonant ending where the last consonant is not w, x or y. */
function endsCvc(word: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(word, end - 1) || isConsonant(word, end - 2) || !isConsonant(word, end - 3)) return false;
  const last = word[end - 1];
  return last !== "w" && last !== "x" && last !== "y";
}

function step1a(w: string): string {
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function step1bRepair(w: string): string {
  if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) return w + "e";
  if (endsWithDoubleConsonant(w, w.length)) {
    const last = w[w.length - 1];
    return last === "l" || last === "s" || last === "z" ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return w + "e";
  return w;
}

function step1b(w: string): string {
  if (w.endsWith("eed")) return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  for (const suffix of ["ed", "ing"]) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    return hasVowel(w, stemEnd) ? step1bRepair(w.slice(0, stemEnd)) : w;
  }
  return w;
}

function step1c(w: string): string {
  return w.endsWith("y") && hasVowel(w, w.length - 1) ? w.slice(0, -1) + "i" : w;
}

function applyRules(w: string, rules: readonly Rule[], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    return measure(w, stemEnd) > minMeasure ? w.slice(0, stemEnd) + replacement : w;
  }
  return w;
}

function step4(w: string): string {
  for (const suffix of STEP4_SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    if (measure(w, stemEnd) <= 1) return w;
    if (suffix === "ion" && w[stemEnd - 1] !== "s" && w[stemEnd - 1] !== "t") return w;
    return w.slice(0, stemEnd);
  }
  return w;
}

function step5(w: string): string {
  let out = w;
  if (out.endsWith("e")) {
    const m = measure(out, out.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(out, out.length - 1))) out = out.slice(0, -1);
  }
  if (out.endsWith("ll") && measure(out, out.length) > 1) out = out.slice(0, -1);
  return out;
}

/** Porter-stems one lowercase word ("allocates", "allocation", "allocating" → "alloc"). */
export function porterStem(word: string): string {
  if (word.length < MIN_STEMMABLE_LENGTH || !ASCII_WORD.test(word)) return word;
  let w = step1a(word);
  w = step1b(w);
  w = step1c(w);
  w = applyRules(w, STEP2_RULES, 0);
  w = applyRules(w, STEP3_RULES, 0);
  w = step4(w);
  return step5(w);
}
