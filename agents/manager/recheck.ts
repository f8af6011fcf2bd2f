// Every citation of a recorded answer, re-hashed against the code as it is now: what `mesh trace --verify`
// reports. The manager sampled one or two citations per hop when it accepted the answer; this checks all
// of them, later, so a reader can tell which still hold after the code changed.
import { SourceReader } from "../pgc/scan/index.js";
import type { MultiHopResult } from "./answer/result.js";
import { checkAgainstText } from "./validation/hash-check.js";

export interface CitationRecheck {
  hop: number;
  scope: string;
  file_path: string;
  line_start: number;
  line_end: number;
  /** match: the cited lines still hash to the cited sha256; changed: they do not, or the file is shorter now; missing: no such file inside the root. */
  outcome: "match" | "changed" | "missing";
  detail: string;
}

export interface RecheckReport {
  id: string;
  root: string;
  citations: CitationRecheck[];
  matching: number;
}

/** Re-hash every citation of `record` against the files under `root` (paths leaving the root are refused). */
export function recheckCitations(record: Pick<MultiHopResult, "id" | "knowledge_chain">, root: string): RecheckReport {
  const reader = new SourceReader(root);
  const citations: CitationRecheck[] = [];
  for (const hop of record.knowledge_chain) {
    for (const cited of hop.citations) {
      const place = { hop: hop.hop, scope: hop.scope, file_path: cited.file_path, line_start: cited.line_start, line_end: cited.line_end };
      const text = reader.read(cited.file_path);
      if (text === null) {
        citations.push({ ...place, outcome: "missing", detail: "no such regular file inside the root (deleted, moved, or a path leaving the root)" });
        continue;
      }
      const check = checkAgainstText(text, cited);
      if (check.outcome === "verified") citations.push({ ...place, outcome: "match", detail: "the cited lines hash to the cited sha256" });
      else citations.push({ ...place, outcome: "changed", detail: check.detail });
    }
  }
  return { id: record.id, root, citations, matching: citations.filter((c) => c.outcome === "match").length };
}
