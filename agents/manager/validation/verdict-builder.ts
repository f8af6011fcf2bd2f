// Collects checks, warnings and rejections while the checklist runs, then settles the verdict.
import type { TaskErrorBody } from "../../protocol/index.js";
import { REJECTION_PRECEDENCE, type Check, type CitationResult, type CriterionResult, type RejectionCode, type Verdict } from "./verdict.js";

interface Rejection {
  code: RejectionCode;
  reason: string;
}

export class VerdictBuilder {
  private readonly checks: Check[] = [];
  private readonly rejections: Rejection[] = [];
  private readonly warnings: string[] = [];
  private readonly followups: string[] = [];
  citations: CitationResult[] = [];
  criteria: CriterionResult[] = [];
  workerError: TaskErrorBody | undefined;

  /** Records a check and returns whether it passed, so callers can branch on it. */
  check(name: string, passed: boolean, detail: string): boolean {
    this.checks.push({ name, passed, detail });
    return passed;
  }

  reject(code: RejectionCode, reason: string): void {
    this.rejections.push({ code, reason });
  }

  warn(warning: string): void {
    this.warnings.push(warning);
  }

  followUp(item: string): void {
    if (!this.followups.includes(item)) this.followups.push(item);
  }

  isRejectedWith(code: RejectionCode): boolean {
    return this.rejections.some((rejection) => rejection.code === code);
  }

  build(): Verdict {
    // Stable sort: reasons of the deciding code first, each code's reasons in the order found.
    const ordered = [...this.rejections].sort((a, b) => REJECTION_PRECEDENCE.indexOf(a.code) - REJECTION_PRECEDENCE.indexOf(b.code));
    const reasons = ordered.map((rejection) => rejection.reason);
    const code = ordered[0]?.code;
    const status = code ? "rejected" : this.warnings.length > 0 ? "accepted_with_warnings" : "accepted";
    const checked = this.citations.filter((c) => c.outcome === "verified" || c.outcome === "fabricated" || c.outcome === "unverifiable");
    return {
      status,
      ...(code ? { code } : {}),
      reasons,
      warnings: [...this.warnings],
      checks: [...this.checks],
      citations_checked: checked.length,
      citations_verified: checked.filter((c) => c.outcome === "verified").length,
      citations: this.citations,
      criteria: this.criteria,
      needs_followup: [...this.followups, ...reasons.filter((reason) => !this.followups.includes(reason))],
      ...(this.workerError ? { worker_error: this.workerError } : {}),
    };
  }
}
