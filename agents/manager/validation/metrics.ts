// The seed's efficiency metrics (002 §7): grounding overhead, rejection rate by confidence level,
// overlays actually cited, and how citations fared when checked.
import type { DelegatedTask, TaskResponse } from "../../protocol/index.js";
import type { Verdict } from "./verdict.js";

export interface MetricsSnapshot {
  responses: number;
  grounding_overhead: number;
  by_confidence: Record<string, { responses: number; rejected: number; rejection_rate: number }>;
  overlays_cited: Record<string, number>;
  citations: { checked: number; verified: number; rejected_responses: number };
}

export class ValidationMetrics {
  private responses = 0;
  private overheadSum = 0;
  private readonly confidence = new Map<string, { responses: number; rejected: number }>();
  private readonly overlays = new Map<string, number>();
  private checked = 0;
  private verified = 0;
  private rejected = 0;

  record(verdict: Verdict, response: TaskResponse, _task: DelegatedTask): void {
    this.responses++;
    const evidence = response.grounding_evidence;
    if (evidence) this.overheadSum += JSON.stringify(evidence).length / Math.max(1, JSON.stringify(response).length);
    const level = evidence?.grounding_confidence ?? "none";
    const entry = this.confidence.get(level) ?? { responses: 0, rejected: 0 };
    entry.responses++;
    if (verdict.status === "rejected") entry.rejected++;
    this.confidence.set(level, entry);
    for (const c of evidence?.citations ?? []) this.overlays.set(c.overlay, (this.overlays.get(c.overlay) ?? 0) + 1);
    this.checked += verdict.citations_checked;
    this.verified += verdict.citations_verified;
    if (verdict.status === "rejected") this.rejected++;
  }

  snapshot(): MetricsSnapshot {
    return {
      responses: this.responses,
      grounding_overhead: this.responses === 0 ? 0 : this.overheadSum / this.responses,
      by_confidence: Object.fromEntries([...this.confidence].map(([k, v]) => [k, { ...v, rejection_rate: v.rejected / v.responses }])),
      overlays_cited: Object.fromEntries([...this.overlays].sort()),
      citations: { checked: this.checked, verified: this.verified, rejected_responses: this.rejected },
    };
  }
}
