// Acceptance criteria, each judged by one stated rule against the answer and the verified citations
// (docs/VALIDATION.md): anchors must all appear; a "cites …" criterion needs a verified citation; a
// criterion in plain words needs TERM_COVERAGE_TO_MEET of its content terms.
import { porterStem, tokenize } from "../../pgc/retrieval/index.js";
import { anchorCount, anchorsOf, containsIdentifier, containsPath, containsPhrase, pathIsCited, type Anchors } from "./anchors.js";
import type { CriterionResult } from "./verdict.js";

/** Share of a plain-words criterion's content terms that must appear in the evidence. */
export const TERM_COVERAGE_TO_MEET = 0.6;
/** Slack for the coverage comparison, so 3 of 5 terms (0.6) counts as 0.6. */
const COVERAGE_EPSILON = 1e-9;

/** Words that tell the worker what to do (compared stemmed, so "names" and "named" too); finding them in an answer proves nothing. */
const DIRECTIVE_WORDS = [
  "name", "explain", "describe", "list", "mention", "identify", "show", "shown", "state", "give", "given",
  "provide", "answer", "say", "said", "tell", "told", "specify", "summarize", "confirm", "point",
];
const DIRECTIVE_TERMS: ReadonlySet<string> = new Set(DIRECTIVE_WORDS.map(porterStem));
/** Words that make a criterion about citing ("cites the source", "with citations"); `cite_source` is not one. */
const CITATION_WORD = /\bcit(?:e|es|ed|ing|ation|ations)\b/i;

/** What a criterion is checked against: the worker's words and the text of its verified citations. */
export interface CriterionEvidence {
  /** The result and key findings. */
  answer: string;
  /** Verified citations: their paths, excerpts, and the cited lines the manager re-read. */
  cited: string;
  citedPaths: readonly string[];
}

interface AnchorSearch {
  found: string[];
  missing: string[];
}

/** Looks for every anchor; a found one is tagged "(cited)" when a verified citation shows it, else "(answer)". */
function searchAnchors(anchors: Anchors, evidence: CriterionEvidence, pathsMustBeCited: boolean): AnchorSearch {
  const search: AnchorSearch = { found: [], missing: [] };
  const record = (anchor: string, inCited: boolean, inAnswer: boolean) => {
    if (inCited || inAnswer) search.found.push(`${anchor} (${inCited ? "cited" : "answer"})`);
    else search.missing.push(anchor);
  };
  for (const id of anchors.identifiers) record(id, containsIdentifier(evidence.cited, id), containsIdentifier(evidence.answer, id));
  for (const phrase of anchors.phrases) record(`"${phrase}"`, containsPhrase(evidence.cited, phrase), containsPhrase(evidence.answer, phrase));
  for (const path of anchors.paths) {
    const cited = pathIsCited(path, evidence.citedPaths);
    record(path, cited, !pathsMustBeCited && containsPath(evidence.answer, path));
  }
  return search;
}

function describe(search: AnchorSearch): string {
  const parts = [search.missing.length > 0 ? `missing ${search.missing.join(", ")}` : "", search.found.length > 0 ? `found ${search.found.join(", ")}` : ""];
  return parts.filter((part) => part.length > 0).join("; ");
}

function byAnchors(criterion: string, anchors: Anchors, evidence: CriterionEvidence): CriterionResult {
  const search = searchAnchors(anchors, evidence, false);
  return { criterion, met: search.missing.length === 0, rule: "anchors", evidence: describe(search) };
}

/** A "cites …" criterion: at least one verified citation, and any path it names is a cited file. */
function byCitation(criterion: string, anchors: Anchors, evidence: CriterionEvidence): CriterionResult {
  const count = evidence.citedPaths.length;
  if (count === 0) return { criterion, met: false, rule: "citation", evidence: "no verified citation" };
  const search = searchAnchors(anchors, evidence, true);
  const found = `${count} verified citation(s): ${[...new Set(evidence.citedPaths)].join(", ")}`;
  return { criterion, met: search.missing.length === 0, rule: "citation", evidence: [found, describe(search)].filter((s) => s).join("; ") };
}

function byTerms(criterion: string, terms: readonly string[], evidence: CriterionEvidence): CriterionResult {
  if (terms.length === 0) return { criterion, met: true, rule: "unchecked", evidence: "nothing checkable: no anchors and no content terms" };
  const present = new Set(tokenize(`${evidence.answer}\n${evidence.cited}`));
  const found = terms.filter((term) => present.has(term));
  const coverage = found.length / terms.length;
  const missing = terms.filter((term) => !present.has(term));
  const detail = `${found.length}/${terms.length} content terms present (${Math.round(coverage * 100)}%, need ${TERM_COVERAGE_TO_MEET * 100}%)${missing.length > 0 ? `; missing ${missing.join(", ")}` : ""}`;
  return { criterion, met: coverage >= TERM_COVERAGE_TO_MEET - COVERAGE_EPSILON, rule: "terms", evidence: detail };
}

/** Content terms of a plain-words criterion: stemmed, stop words and directive words out, "-"/"_" split. */
function contentTerms(criterion: string): string[] {
  return [...new Set(tokenize(criterion.replace(/[-_]/g, " ")))].filter((term) => !DIRECTIVE_TERMS.has(term));
}

export function checkCriterion(criterion: string, evidence: CriterionEvidence): CriterionResult {
  const anchors = anchorsOf(criterion);
  if (CITATION_WORD.test(criterion)) return byCitation(criterion, anchors, evidence);
  if (anchorCount(anchors) > 0) return byAnchors(criterion, anchors, evidence);
  return byTerms(criterion, contentTerms(criterion), evidence);
}
