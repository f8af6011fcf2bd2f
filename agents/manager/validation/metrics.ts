// The seed's efficiency metrics (002 §7 "For Managers", Appendix "Success Metrics"): grounding overhead,
// rejection rate by confidence level, overlays actually cited, and how citations fared when checked.
import { utf8ByteLength, type DelegatedTask, type TaskResponse } from "../../protocol/index.js";
import type { CitationOutcome, Verdict, VerdictStatus } from "./verdict.js";

/** Key for answers that carry no grounding_evidence. */
export const NO_EVIDENCE = "none";
/** Strategy key for tasks sent without `grounding` (protocol 1.0-legacy). */
export const NO_STRATEGY = "legacy";

export interface ConfidenceRate {
  responses: number;
  rejected: number;
  rejection_rate: number;
}

export interface MetricsSnapshot {
  responses: number;
  by_status: Record<VerdictStatus, number>;
  rejections_by_code: Record<string, number>;
  /** Answers (completed or partial) and how many carried no grounding_evidence (the seed's hallucination rate). */
  answers: number;
  answers_without_evidence: number;
  /** Mean over responses with evidence of (bytes of grounding_evidence JSON / bytes of response JSON). */
  grounding_overhead: number;
  /** Per grounding_confidence of answers ("none": no evidence): how many were rejected. */
  by_confidence: Record<string, ConfidenceRate>;
  /** Citations sent, by overlay; verified citations by overlay; citations sent by task strategy and overlay. */
  overlays_cited: Record<string, number>;
  overlays_verified: Record<string, number>;
  overlays_cited_by_strategy: Record<string, Record<string, number>>;
  /** `rejected_responses` repeats by_status.rejected for callers written before by_status existed. */
  citations: { cited: number; checked: number; verified: number; fabricated: number; out_of_scope: number; unverifiable: number; rejected_responses: number };
}

const EVIDENCE_KEY_BYTES = '"grounding_evidence":'.length;
const bump = (map: Map<string, number>, key: string, by = 1): void => void map.set(key, (map.get(key) ?? 0) + by);
const sorted = (map: ReadonlyMap<string, number>): Record<string, number> => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));
const rate = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

export class ValidationMetrics {
  private responses = 0;
  private answers = 0;
  private answersWithoutEvidence = 0;
  private overheadSum = 0;
  private withEvidence = 0;
  private readonly statuses = new Map<string, number>();
  private readonly codes = new Map<string, number>();
  private readonly confidence = new Map<string, { responses: number; rejected: number }>();
  private readonly cited = new Map<string, number>();
  private readonly verified = new Map<string, number>();
  private readonly byStrategy = new Map<string, Map<string, number>>();
  private readonly outcomes = new Map<CitationOutcome, number>();

  record(verdict: Verdict, response: TaskResponse, task: DelegatedTask): void {
    this.responses++;
    bump(this.statuses, verdict.status);
    if (verdict.code) bump(this.codes, verdict.code);
    this.recordOverhead(response);
    if (response.status === "completed" || response.status === "partial") this.recordAnswer(verdict, response);
    this.recordCitations(verdict, response, task);
  }

  private recordOverhead(response: TaskResponse): void {
    const { grounding_evidence: evidence, ...rest } = response;
    if (!evidence) return;
    this.withEvidence++;
    const evidenceBytes = utf8ByteLength(JSON.stringify(evidence));
    // The response's JSON is the rest's, plus `"grounding_evidence":` and the evidence (and a comma when
    // the rest has keys): the same byte count as serializing the whole response, without doing it twice.
    const restJson = JSON.stringify(rest);
    const responseBytes = utf8ByteLength(restJson) + EVIDENCE_KEY_BYTES + evidenceBytes + (restJson === "{}" ? 0 : 1);
    this.overheadSum += rate(evidenceBytes, responseBytes);
  }

  private recordAnswer(verdict: Verdict, response: TaskResponse): void {
    this.answers++;
    const level = response.grounding_evidence?.grounding_confidence ?? NO_EVIDENCE;
    if (level === NO_EVIDENCE) this.answersWithoutEvidence++;
    const entry = this.confidence.get(level) ?? { responses: 0, rejected: 0 };
    entry.responses++;
    if (verdict.status === "rejected") entry.rejected++;
    this.confidence.set(level, entry);
  }

  private recordCitations(verdict: Verdict, response: TaskResponse, task: DelegatedTask): void {
    const strategy = task.grounding?.strategy ?? NO_STRATEGY;
    const perStrategy = this.byStrategy.get(strategy) ?? new Map<string, number>();
    for (const citation of response.grounding_evidence?.citations ?? []) {
      bump(this.cited, citation.overlay);
      bump(perStrategy, citation.overlay);
    }
    if (perStrategy.size > 0) this.byStrategy.set(strategy, perStrategy);
    for (const result of verdict.citations) {
      bump(this.outcomes, result.outcome);
      if (result.outcome === "verified") bump(this.verified, result.overlay);
    }
  }

  private citationCounts(): MetricsSnapshot["citations"] {
    const count = (outcome: CitationOutcome) => this.outcomes.get(outcome) ?? 0;
    return {
      cited: [...this.cited.values()].reduce((sum, n) => sum + n, 0),
      checked: count("verified") + count("fabricated") + count("unverifiable"),
      verified: count("verified"),
      fabricated: count("fabricated"),
      out_of_scope: count("out_of_scope"),
      unverifiable: count("unverifiable"),
      rejected_responses: this.statuses.get("rejected") ?? 0,
    };
  }

  /** A copy: later records do not change it. */
  snapshot(): MetricsSnapshot {
    return {
      responses: this.responses,
      by_status: { accepted: this.statuses.get("accepted") ?? 0, accepted_with_warnings: this.statuses.get("accepted_with_warnings") ?? 0, rejected: this.statuses.get("rejected") ?? 0 },
      rejections_by_code: sorted(this.codes),
      answers: this.answers,
      answers_without_evidence: this.answersWithoutEvidence,
      grounding_overhead: rate(this.overheadSum, this.withEvidence),
      by_confidence: Object.fromEntries([...this.confidence].map(([level, e]) => [level, { ...e, rejection_rate: rate(e.rejected, e.responses) }])),
      overlays_cited: sorted(this.cited),
      overlays_verified: sorted(this.verified),
      overlays_cited_by_strategy: Object.fromEntries([...this.byStrategy].map(([strategy, overlays]) => [strategy, sorted(overlays)])),
      citations: this.citationCounts(),
    };
  }
}
