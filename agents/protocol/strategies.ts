// Grounding strategies and analysis hints (seed 002 §3) as data, for docs and for the worker to follow.
import { z } from "zod";

export const GROUNDING_STRATEGIES = Object.freeze(["pgc_first", "pgc_verify", "pgc_cite", "none"] as const);
export type GroundingStrategy = (typeof GROUNDING_STRATEGIES)[number];
export const GroundingStrategySchema = z.enum(GROUNDING_STRATEGIES);

/** When the worker queries its PGC relative to doing the work. */
export type QueryTiming = "before_work" | "after_proposal" | "any" | "never";

export interface StrategyDescription {
  readonly whenToUse: string;
  readonly workerBehavior: string;
  readonly queryTiming: QueryTiming;
  /** The response must carry citations even when `evidence_required` is not set. */
  readonly citationsRequired: boolean;
}

export const STRATEGY_DESCRIPTIONS: Readonly<Record<GroundingStrategy, StrategyDescription>> = Object.freeze({
  pgc_first: Object.freeze({
    whenToUse: "Complex features, refactoring, unfamiliar code.",
    workerBehavior: "Query the PGC (query_hints, overlay_hints) before proposing a solution; let the findings guide the work.",
    queryTiming: "before_work",
    citationsRequired: false,
  }),
  pgc_verify: Object.freeze({
    whenToUse: "Bug fixes, targeted changes in known areas.",
    workerBehavior: "Propose the solution first, then check it against the PGC for correctness and safety; adjust on conflict.",
    queryTiming: "after_proposal",
    citationsRequired: false,
  }),
  pgc_cite: Object.freeze({
    whenToUse: "Documentation, explanations, questions.",
    workerBehavior: "Cite PGC sources in the response; no required query order.",
    queryTiming: "any",
    citationsRequired: true,
  }),
  none: Object.freeze({
    whenToUse: "Simple tasks; legacy behaviour.",
    workerBehavior: "Free-form execution; no grounding required.",
    queryTiming: "never",
    citationsRequired: false,
  }),
});

export const ANALYSIS_HINT_TYPES = Object.freeze(["blast_radius", "security_impact", "dependency_check", "algebra_query"] as const);
export type AnalysisHintType = (typeof ANALYSIS_HINT_TYPES)[number];
export const AnalysisHintTypeSchema = z.enum(ANALYSIS_HINT_TYPES);

/** Phase 2 analyses (experimental in seed 002): a worker that cannot run one says so in overlay_warnings. */
export const ANALYSIS_HINT_DESCRIPTIONS: Readonly<Record<AnalysisHintType, string>> = Object.freeze({
  blast_radius: "Impact of changing the target symbol: its downstream consumers (O3 Lineage).",
  security_impact: "Whether a change to the target introduces a cross-cutting security risk (O1 + O2).",
  dependency_check: "Whether the target respects architectural dependency boundaries (O1 Structural).",
  algebra_query: "A multi-overlay composition such as O1 + O4, given by algebra_expression.",
});
