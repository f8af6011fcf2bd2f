// Citations are checked, not trusted: every one must lie inside the worker's scope, and a sample (all of
// them for a critical task) must hash to its sha256 — re-read by the manager or re-hashed by a replica.
import type { Citation } from "../../protocol/index.js";
import { checkHashes, type HashCheck, type HashSources } from "./hash-check.js";
import { sampleIndices } from "./sample.js";
import { outOfScopeProblem } from "./scope.js";
import type { CitationResult } from "./verdict.js";
import type { VerdictBuilder } from "./verdict-builder.js";

export interface CitationCheckInput {
  citations: readonly Citation[];
  scope: { name: string; paths: readonly string[] };
  /** Critical tasks check every citation, and an unverifiable one rejects. */
  critical: boolean;
  sampleSize: number;
  random: () => number;
  sources: HashSources;
}

/** A citation whose hash matched, with the cited text when the manager read it itself. */
export interface VerifiedCitation {
  citation: Citation;
  text?: string;
}

export function citedLines(citation: Pick<Citation, "file_path" | "line_start" | "line_end">): string {
  return `${citation.file_path}:${citation.line_start}-${citation.line_end}`;
}

function resultOf(citation: Citation, outcome: CitationResult["outcome"], detail: string): CitationResult {
  const { file_path, line_start, line_end, overlay } = citation;
  return { file_path, line_start, line_end, overlay, outcome, detail };
}

/** Marks out-of-scope citations (never read) and returns the indices of the others. */
function checkScope(input: CitationCheckInput, results: CitationResult[], v: VerdictBuilder): number[] {
  const inside: number[] = [];
  input.citations.forEach((citation, i) => {
    const problem = outOfScopeProblem(citation.file_path, input.scope.paths);
    if (problem === undefined) {
      inside.push(i);
    } else {
      results[i] = resultOf(citation, "out_of_scope", problem);
      v.reject("CITATION_OUT_OF_SCOPE", `citation ${citedLines(citation)} lies outside scope ${input.scope.name}: ${problem}`);
    }
  });
  v.check("citations_in_scope", inside.length === input.citations.length, `${inside.length}/${input.citations.length} citation(s) inside scope ${input.scope.name}`);
  return inside;
}

function applyHashCheck(input: CitationCheckInput, citation: Citation, check: HashCheck, v: VerdictBuilder): void {
  const where = citedLines(citation);
  if (check.outcome === "fabricated") v.reject("FABRICATED_CITATION", `citation ${where} is stale or fabricated: ${check.detail}`);
  if (check.outcome !== "unverifiable") return;
  if (input.critical) v.reject("UNVERIFIABLE_CITATION", `citation ${where} could not be checked on a critical task: ${check.detail}`);
  else v.warn(`citation ${where} could not be checked: ${check.detail}`);
}

/** Runs the citation checks into `v` and returns the citations whose hash matched. */
export async function checkCitations(input: CitationCheckInput, v: VerdictBuilder): Promise<VerifiedCitation[]> {
  const results = input.citations.map((c) => resultOf(c, "not_sampled", "not in the sample"));
  const inside = checkScope(input, results, v);
  const size = input.critical ? inside.length : input.sampleSize;
  const sampled = sampleIndices(inside.length, size, input.random).map((k) => inside[k] as number);
  const chosen = sampled.map((i) => input.citations[i] as Citation);
  const checks = await checkHashes(chosen, input.sources);
  const verified: VerifiedCitation[] = [];
  checks.forEach((check, k) => {
    const citation = chosen[k] as Citation;
    results[sampled[k] as number] = resultOf(citation, check.outcome, check.detail);
    applyHashCheck(input, citation, check, v);
    if (check.outcome === "verified") verified.push(check.text === undefined ? { citation } : { citation, text: check.text });
  });
  v.check("citations_verified", verified.length === chosen.length, `${verified.length}/${chosen.length} sampled citation(s) hash to the cited lines (${input.citations.length} cited)`);
  v.citations = results;
  return verified;
}
