// A criterion's anchors — what it names exactly: code identifiers, quoted strings, file paths — and how
// each is looked for in the evidence (docs/VALIDATION.md, "Acceptance criteria").
import { identifiersInQuery } from "../../pgc/retrieval/index.js";

export interface Anchors {
  /** Code identifiers (snake_case, camelCase, e1000, name(), a.b, backticked code): case-sensitive, whole tokens. */
  identifiers: string[];
  /** "Quoted" or 'quoted' text: case-insensitive, whitespace collapsed. */
  phrases: string[];
  /** dir/file paths and bare source file names (mapping.c): whole path segments. */
  paths: string[];
}

/** Longest quoted span taken as a phrase; longer quotes are prose, not something to find verbatim. */
const MAX_PHRASE_CHARS = 200;
const QUOTED = new RegExp(`"([^"\\n]{1,${MAX_PHRASE_CHARS}})"|“([^”\\n]{1,${MAX_PHRASE_CHARS}})”|(?<![\\w])'([^'\\n]{1,${MAX_PHRASE_CHARS}})'(?![\\w])`, "g");
/** Extensions that make a bare word.ext a file name rather than an abbreviation ("e.g."). */
const SOURCE_EXTENSIONS = "c|h|cc|cpp|cxx|hh|hpp|s|S|rs|go|py|rb|js|mjs|cjs|ts|tsx|jsx|java|kt|cs|swift|php|sh|mk|md|json|ya?ml|toml";
const BARE_FILE = new RegExp(`(?<![\\w./-])[\\w-]+\\.(?:${SOURCE_EXTENSIONS})(?![\\w/-])`, "g");
const SLASHED = /(?<![\w./-])[\w.-]+(?:\/[\w.-]+)+\/?/g;
/** "read/write" and "I/O" are prose: a slashed word is a path when it has an extension or two slashes. */
const looksLikePath = (path: string): boolean => /\.[A-Za-z0-9]{1,5}$/.test(path) || path.split("/").length > 2;
const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;
const PATH_CHAR_BEFORE = /[A-Za-z0-9_.-]/;
const PATH_CHAR_AFTER = /[A-Za-z0-9_/-]/;

const blank = (text: string): string => " ".repeat(text.length);

/** The anchors of `criterion`; quoted spans and paths are taken out before identifiers are looked for. */
export function anchorsOf(criterion: string): Anchors {
  const phrases = [...criterion.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? m[3] ?? "").trim()).filter((p) => p.length > 0);
  const { paths, rest } = takePaths(criterion.replace(QUOTED, blank));
  return { identifiers: identifiersInQuery(rest), phrases: [...new Set(phrases)], paths: [...new Set(paths)] };
}

/** Paths in `text` (a sentence's final "." dropped) and the text with them blanked out. */
function takePaths(text: string): { paths: string[]; rest: string } {
  const paths: string[] = [];
  let rest = text;
  for (const pattern of [SLASHED, BARE_FILE]) {
    for (const match of rest.matchAll(pattern)) {
      const path = match[0].replace(/\.+$/, "");
      if (pattern === SLASHED && !looksLikePath(path)) continue;
      paths.push(path);
      rest = rest.slice(0, match.index) + blank(path) + rest.slice(match.index + path.length);
    }
  }
  return { paths, rest };
}

export function anchorCount(anchors: Anchors): number {
  return anchors.identifiers.length + anchors.phrases.length + anchors.paths.length;
}

/** True when `needle` occurs in `text` with neither neighbour matching its boundary class. */
function occursBounded(text: string, needle: string, before: RegExp, after: RegExp): boolean {
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const previous = text[at - 1];
    const next = text[at + needle.length];
    if ((previous === undefined || !before.test(previous)) && (next === undefined || !after.test(next))) return true;
  }
  return false;
}

/** `dma_alloc` is found in "calls dma_alloc(n)" but not in "dma_alloc_coherent". */
export function containsIdentifier(text: string, identifier: string): boolean {
  return occursBounded(text, identifier, IDENTIFIER_CHAR, IDENTIFIER_CHAR);
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").toLowerCase();

export function containsPhrase(text: string, phrase: string): boolean {
  return collapse(text).includes(collapse(phrase));
}

/** `mapping.c` and `dma/mapping.c` are found in "kernel/dma/mapping.c:12", `pping.c` is not. */
export function containsPath(text: string, path: string): boolean {
  for (let at = text.indexOf(path); at !== -1; at = text.indexOf(path, at + 1)) {
    const previous = text[at - 1];
    const next = text[at + path.length];
    const startsSegment = previous === undefined || previous === "/" || !PATH_CHAR_BEFORE.test(previous);
    if (startsSegment && (next === undefined || !PATH_CHAR_AFTER.test(next))) return true;
  }
  return false;
}

/** True when a cited file is `path`, or ends with it at a segment boundary. */
export function pathIsCited(path: string, citedPaths: readonly string[]): boolean {
  return citedPaths.some((cited) => cited === path || cited.endsWith(`/${path}`));
}
