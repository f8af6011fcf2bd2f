// Acceptance criteria, checked by a stated rule against the result and the verified citations:
// a criterion naming code (identifiers, quoted strings, paths) is met when every one of those anchors
// appears; a criterion in plain words is met when at least 60% of its content terms appear.
import { identifiersInQuery, tokenize } from "../../pgc/retrieval/index.js";
import type { CriterionResult } from "./verdict.js";

export const TERM_COVERAGE_TO_MEET = 0.6;
const QUOTED = /["'`]([^"'`]{2,80})["'`]/g;
const PATHLIKE = /\b[\w.-]+\/[\w./-]+\b/g;

export function anchorsOf(criterion: string): string[] {
  const quoted = [...criterion.matchAll(QUOTED)].map((m) => m[1] as string);
  const paths = criterion.match(PATHLIKE) ?? [];
  return [...new Set([...identifiersInQuery(criterion), ...quoted, ...paths])];
}

export function checkCriterion(criterion: string, evidenceText: string): CriterionResult {
  const anchors = anchorsOf(criterion);
  if (anchors.length > 0) {
    const missing = anchors.filter((a) => !evidenceText.includes(a));
    return { criterion, met: missing.length === 0, rule: "anchors", evidence: missing.length === 0 ? `found ${anchors.join(", ")}` : `missing ${missing.join(", ")}` };
  }
  const terms = [...new Set(tokenize(criterion))];
  if (terms.length === 0) return { criterion, met: true, rule: "terms", evidence: "no content terms to check" };
  const present = new Set(tokenize(evidenceText));
  const found = terms.filter((t) => present.has(t));
  const coverage = found.length / terms.length;
  return { criterion, met: coverage >= TERM_COVERAGE_TO_MEET, rule: "terms", evidence: `${found.length}/${terms.length} terms present (${Math.round(coverage * 100)}%)` };
}
