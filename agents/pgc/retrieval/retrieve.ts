// The one call a worker makes: exact facts for the identifiers a question names, then calibrated lexical hits.
import { z } from "zod";
import { OVERLAYS, type IndexDoc, type Overlay } from "../types.js";
import type { Calibration, SimilarityKind } from "./calibration-format.js";
import { assertCalibrationFits, scoreHits } from "./calibration.js";
import { IndexMismatchError, InvalidRetrievalOptionsError } from "./errors.js";
import type { LexicalIndex } from "./lexical-index.js";
import { DEFAULT_TOP_K, MAX_TOP_K } from "./search-options.js";
import { identifiersInQuery } from "./query-identifiers.js";
import { STOPWORDS } from "./stopwords.js";
import type { EdgeMap, ExactMatch } from "./symbol-table.js";

/** A name like `__init__` can be defined hundreds of times; beyond this many, exact matches say little more. */
export const MAX_EXACT_MATCHES = 100;
/** The similarity of an exact fact: the document is about the named symbol, by construction. */
export const EXACT_SIMILARITY = 1;

/** Where documents are read from by id; a Map<string, IndexDoc> is one. */
export interface DocLookup {
  get(id: string): IndexDoc | undefined;
}

export interface RetrievalPgc {
  index: LexicalIndex;
  calibration: Calibration;
  docs: DocLookup;
  /** Optional symbol → doc ids of call or include edges; their documents count as exact facts. */
  edges?: EdgeMap;
  /** Optional dotted names of this scope's own modules (see moduleNames). */
  modules?: ReadonlySet<string>;
}

export interface RetrieveOptions {
  topK?: number;
  overlays?: readonly Overlay[];
}

export interface RetrievedHit {
  doc: IndexDoc;
  /** In [0, 1]; what it means depends on similarity_kind (see SimilarityKind). */
  similarity: number;
  similarity_kind: SimilarityKind;
  matched_terms: string[];
  /** The raw BM25F score for lexical hits; null for exact facts. */
  score: number | null;
}

export interface RetrieveResult {
  hits: RetrievedHit[];
  query_terms: string[];
  exact_matches: ExactMatch[];
}

const optionsSchema = z.object({
  topK: z.number().int().min(1).max(MAX_TOP_K).default(DEFAULT_TOP_K),
  overlays: z.array(z.enum(OVERLAYS)).optional(),
});

function parseOptions(options: RetrieveOptions): z.output<typeof optionsSchema> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new InvalidRetrievalOptionsError("invalid retrieve options", { cause: parsed.error });
  return parsed.data;
}

function docOf(pgc: RetrievalPgc, docId: string): IndexDoc {
  const doc = pgc.docs.get(docId);
  if (doc === undefined) throw new IndexMismatchError(`the index names document "${docId}", which the document store lacks`);
  return doc;
}

const MODULE_FILE = /\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Files that stand for their directory as a module: Python's package file, JavaScript's index. */
const PACKAGE_FILE = /^(__init__|index)$/;
const IMPORT_SECTIONS = new Set(["import", "include"]);
/**
 * Places importing a module the question names, cited as exact facts: that this scope uses `base64` is one
 * fact, and three import lines saying it leave no room for the code that decodes.
 */
export const MAX_IMPORT_SITES = 1;

/**
 * The dotted names under which files can be imported: urllib/request.py → "urllib.request",
 * email/__init__.py → "email", src/util/index.ts → "src.util"; each with its shorter suffixes of two
 * parts or more too ("util.strings" for src/util/strings.ts), as a question may leave off a source root.
 */
export function moduleNames(paths: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    if (!MODULE_FILE.test(path)) continue;
    const parts = path.replace(MODULE_FILE, "").split("/");
    if (PACKAGE_FILE.test(parts.at(-1) ?? "")) parts.pop();
    for (let start = 0; start < parts.length; start++) if (parts.length - start >= 2 || start === 0) names.add(parts.slice(start).join("."));
  }
  names.delete("");
  return names;
}

/**
 * A dotted name in the question that is one of this scope's own modules ("urllib.request" in the scope
 * owning urllib/request.py) is about that module: the places that import it, and every symbol that
 * happens to share its last part ("request"), are not facts about it. Those are left out, so the
 * module's own code comes up by similarity. Other identifiers are looked up as they are.
 */
function lookups(identifiers: readonly string[], modules: ReadonlySet<string> | undefined): { names: string[]; ownModules: Set<string> } {
  const ownModules = new Set(identifiers.filter((name) => name.includes(".") && modules?.has(name)));
  const lastParts = new Set([...ownModules].map((name) => name.slice(name.lastIndexOf(".") + 1)));
  return { names: identifiers.filter((name) => !lastParts.has(name)), ownModules };
}

/** A query that is one bare name ("SMTP", a manager's focus symbol sent as a query hint). */
const LONE_NAME = /^\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*$/;

/** The identifiers a query names; a query of one bare name is that name, whatever its shape. */
function namesIn(query: string): string[] {
  const lone = LONE_NAME.exec(query)?.[1];
  return lone !== undefined && !STOPWORDS.has(lone.toLowerCase()) ? [lone] : identifiersInQuery(query);
}

/** A document about a place importing one of `modules`. */
function importsOneOf(doc: IndexDoc, modules: ReadonlySet<string>): boolean {
  return modules.size > 0 && IMPORT_SECTIONS.has(doc.section) && modules.has(doc.symbol ?? doc.fields.name ?? "");
}

/** Case-sensitive symbol matches first; case-insensitive ones only for a name with no exact-case match. */
function exactMatches(pgc: RetrievalPgc, identifiers: readonly string[], ownModules: ReadonlySet<string>, overlays: readonly Overlay[] | undefined): ExactMatch[] {
  const out: ExactMatch[] = [];
  const seen = new Set<string>();
  const importSites = new Map<string, number>();
  const add = (match: ExactMatch): void => {
    if (seen.has(match.doc_id) || out.length >= MAX_EXACT_MATCHES) return;
    const doc = docOf(pgc, match.doc_id);
    if (overlays !== undefined && overlays.length > 0 && !overlays.includes(doc.overlay)) return;
    if (importsOneOf(doc, ownModules)) return;
    if (IMPORT_SECTIONS.has(doc.section)) {
      const sites = importSites.get(match.identifier) ?? 0;
      if (sites >= MAX_IMPORT_SITES) return;
      importSites.set(match.identifier, sites + 1);
    }
    seen.add(match.doc_id);
    out.push(match);
  };
  for (const identifier of identifiers) {
    const exact = pgc.index.findSymbol(identifier);
    for (const docId of exact) add({ doc_id: docId, identifier, via: "symbol" });
    if (exact.length === 0) {
      for (const docId of pgc.index.findSymbol(identifier, { ignoreCase: true })) add({ doc_id: docId, identifier, via: "symbol_ignore_case" });
    }
    if (pgc.edges !== undefined) for (const match of pgc.index.lookupEdges(identifier, pgc.edges)) add(match);
  }
  return out;
}

/**
 * Answers a query from one scope's PGC: documents of the symbols (and edges) the query names, as exact facts with
 * similarity 1.0, then lexical hits with calibrated similarity, most likely first; no document appears twice.
 */
export function retrieve(pgc: RetrievalPgc, query: string, options: RetrieveOptions = {}): RetrieveResult {
  const { topK, overlays } = parseOptions(options);
  assertCalibrationFits(pgc.calibration, pgc.index);
  const { names, ownModules } = lookups(namesIn(query), pgc.modules);
  const exact = exactMatches(pgc, names, ownModules, overlays);
  // Import lines of a named module that were not taken as its one exact fact do not come back by similarity.
  const named = new Set([...ownModules, ...names]);
  const hits: RetrievedHit[] = exact.slice(0, topK).map((match) => ({
    doc: docOf(pgc, match.doc_id),
    similarity: EXACT_SIMILARITY,
    similarity_kind: "exact",
    matched_terms: [match.identifier],
    score: null,
  }));
  const taken = new Set(exact.map((match) => match.doc_id));
  // Ask for enough extra hits that dropping the exact ones still fills topK.
  const searchK = Math.min(MAX_TOP_K, topK + hits.length);
  const result = pgc.index.search(query, { topK: searchK, ...(overlays === undefined ? {} : { overlays }) });
  const lexical = scoreHits(pgc.calibration, result.hits)
    .filter((hit) => !taken.has(hit.doc_id) && !importsOneOf(docOf(pgc, hit.doc_id), named))
    .sort((a, b) => b.similarity - a.similarity || b.score - a.score);
  for (const hit of lexical.slice(0, topK - hits.length)) {
    hits.push({
      doc: docOf(pgc, hit.doc_id),
      similarity: hit.similarity,
      similarity_kind: hit.similarity_kind,
      matched_terms: hit.matched_terms,
      score: hit.score,
    });
  }
  return { hits, query_terms: result.query_terms, exact_matches: exact };
}
