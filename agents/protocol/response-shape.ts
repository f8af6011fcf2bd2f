// A hand-written check of the TaskResponse a worker sends for every hop of a question (response.ts): it
// passes only a completed or partial response without an error or a clarification request that the zod
// schema, with all its rules on evidence, would return unchanged, and it leaves everything else to zod,
// which alone says what is wrong. Text bounds are on .length (UTF-16 units, never fewer than zod's code
// points; UTF-8 bytes at most three per unit).
import { finite, int, isPlain, keysWithin, list, scopePath, sha256, text } from "./shape-helpers.js";
import { MAX_CITATION_CHARS, MAX_CITATIONS, MAX_ID_CHARS, MAX_ITEM_CHARS, MAX_KEY_FINDING_CHARS, MAX_KEY_FINDINGS, MAX_LIST_ITEMS, MAX_METRICS, MAX_RELEVANCE_CHARS, MAX_RESULT_BYTES } from "./limits.js";
import { confidenceFromSimilarities, confidenceRank, GROUNDING_CONFIDENCE_LEVELS, type GroundingConfidence } from "./confidence.js";
import { OVERLAY_IDS } from "./overlays.js";

const ID = /^[^\s\p{Cc}]*$/u;
const OVERLAYS: ReadonlySet<string> = new Set(OVERLAY_IDS);
const LEVELS: ReadonlySet<string> = new Set(GROUNDING_CONFIDENCE_LEVELS);
const KINDS: ReadonlySet<string> = new Set(["exact", "calibrated_lexical", "coverage", "external", "none"]);

const CITATION_KEYS = new Set(["overlay", "content", "relevance", "file_path", "line_start", "line_end", "sha256", "similarity", "similarity_kind"]);
function citation(v: unknown): boolean {
  if (!isPlain(v) || !keysWithin(v, CITATION_KEYS)) return false;
  const similarity = v["similarity"];
  const kind = v["similarity_kind"];
  return (
    OVERLAYS.has(v["overlay"] as string) &&
    text(v["content"], MAX_CITATION_CHARS, 1) &&
    text(v["relevance"], MAX_RELEVANCE_CHARS) &&
    scopePath(v["file_path"]) &&
    int(v["line_start"], 1) &&
    int(v["line_end"], 1) &&
    v["line_end"] >= v["line_start"] &&
    sha256(v["sha256"]) &&
    typeof similarity === "number" &&
    similarity >= 0 &&
    similarity <= 1 &&
    KINDS.has(kind as string) &&
    (kind !== "exact" || similarity === 1) &&
    (kind !== "none" || similarity === 0)
  );
}

const EVIDENCE_KEYS = new Set(["queries_executed", "overlays_consulted", "citations", "grounding_confidence"]);
function evidence(v: unknown): boolean {
  if (!isPlain(v) || !keysWithin(v, EVIDENCE_KEYS)) return false;
  if (!list(v["queries_executed"], MAX_LIST_ITEMS, (q) => text(q, MAX_ITEM_CHARS, 1))) return false;
  const consulted = v["overlays_consulted"];
  if (!list(consulted, OVERLAY_IDS.length, (o) => OVERLAYS.has(o as string)) || new Set(consulted).size !== consulted.length) return false;
  const citations = v["citations"];
  if (!list(citations, MAX_CITATIONS, citation)) return false;
  const level = v["grounding_confidence"];
  if (!LEVELS.has(level as string)) return false;
  const cited = citations as { overlay: string; similarity: number }[];
  if (!cited.every((c) => consulted.includes(c.overlay))) return false;
  return confidenceRank(level as GroundingConfidence) <= confidenceRank(confidenceFromSimilarities(cited.map((c) => c.similarity)));
}

function metrics(v: unknown): boolean {
  if (!isPlain(v) || !finite(v["elapsed_ms"], 0) || !int(v["pgc_queries"], 0)) return false;
  let n = 0;
  for (const key in v) {
    n++;
    if (!finite(v[key], 0)) return false;
  }
  return n <= MAX_METRICS;
}

const RESPONSE_KEYS = new Set(["task_id", "status", "result", "protocol_version", "overlay_warnings", "grounding_evidence", "key_findings", "metrics"]);
/** A completed or partial TaskResponse, without error or clarification request, its zod schema would return unchanged. */
export function isPlainTaskResponse(v: unknown): boolean {
  if (!isPlain(v) || !keysWithin(v, RESPONSE_KEYS)) return false;
  return (
    text(v["task_id"], MAX_ID_CHARS, 1) &&
    ID.test(v["task_id"]) &&
    (v["status"] === "completed" || v["status"] === "partial") &&
    text(v["result"], Math.floor(MAX_RESULT_BYTES / 3)) &&
    (v["protocol_version"] === "2.0" || v["protocol_version"] === "1.0-legacy") &&
    (!("overlay_warnings" in v) || list(v["overlay_warnings"], MAX_LIST_ITEMS, (w) => text(w, MAX_ITEM_CHARS, 1))) &&
    (!("grounding_evidence" in v) || evidence(v["grounding_evidence"])) &&
    (!("key_findings" in v) || list(v["key_findings"], MAX_KEY_FINDINGS, (f) => text(f, MAX_KEY_FINDING_CHARS, 1))) &&
    (!("metrics" in v) || metrics(v["metrics"]))
  );
}
