// Seed 002 §7's first three checklist items, made concrete: evidence present when required, hinted
// overlays consulted, confidence acceptable — plus the confidence ceiling the protocol makes checkable.
import {
  confidenceFromSimilarities,
  confidenceRank,
  requiresEvidence,
  type DelegatedTask,
  type GroundingEvidence,
  type TaskResponse,
} from "../../protocol/index.js";
import type { ValidationPolicy } from "./policy.js";
import type { VerdictBuilder } from "./verdict-builder.js";

const REASSIGN = 're-assign the task to a worker whose protocol_version is "2.0"';

/** The evidence to check further, or undefined when there is none (rejected here if it was required). */
export function checkEvidencePresent(task: DelegatedTask, response: TaskResponse, v: VerdictBuilder): GroundingEvidence | undefined {
  const evidence = response.grounding_evidence;
  const cited = evidence?.citations.length ?? 0;
  const legacy = response.protocol_version === "1.0-legacy";
  if (!requiresEvidence(task)) {
    v.check("evidence_present", true, evidence ? `${cited} citation(s); evidence not required` : "evidence not required");
    // A legacy answer to a grounded task ignored every grounding instruction, even when evidence was optional.
    if (legacy && task.grounding) v.warn(`the worker answered in legacy mode (protocol_version "1.0-legacy") and ignored the grounding instructions; for a grounded answer, ${REASSIGN}`);
    return evidence;
  }
  if (v.check("evidence_present", cited > 0, `${cited} citation(s); evidence required`)) return evidence;
  const why = legacy
    ? 'the worker answered in legacy mode (protocol_version "1.0-legacy") without grounding_evidence'
    : evidence
      ? "grounding_evidence cites nothing"
      : "the response carries no grounding_evidence";
  v.reject("PROTOCOL_MISMATCH", `evidence was required but ${why}; ${REASSIGN}`);
  return evidence;
}

/** The protocol caps the claimed confidence by the citations' similarities, so the claim can be checked. */
export function checkConfidenceCeiling(evidence: GroundingEvidence, v: VerdictBuilder): void {
  let supported: ReturnType<typeof confidenceFromSimilarities>;
  try {
    supported = confidenceFromSimilarities(evidence.citations.map((citation) => citation.similarity));
  } catch (error) {
    v.check("confidence_ceiling", false, (error as Error).message);
    return v.reject("INVALID_RESPONSE", `a citation's similarity is invalid: ${(error as Error).message}`);
  }
  const claimed = evidence.grounding_confidence;
  if (!v.check("confidence_ceiling", confidenceRank(claimed) <= confidenceRank(supported), `claims ${claimed}; citations support ${supported}`)) {
    v.reject("INVALID_RESPONSE", `grounding_confidence "${claimed}" is above the "${supported}" its citations' similarities support`);
  }
}

/** True when one of `warnings` names one of `overlays` ("O3, O4 not available - used O1 fallback"). */
function explainsFallback(warnings: readonly string[], overlays: readonly string[]): boolean {
  return warnings.some((warning) => overlays.some((overlay) => new RegExp(`\\b${overlay}\\b`).test(warning)));
}

/** Hints are a request, not a contract: a declared fallback is a warning; silence on a critical task rejects. */
export function checkOverlayHints(task: DelegatedTask, response: TaskResponse, v: VerdictBuilder): void {
  const hints = task.grounding?.overlay_hints ?? [];
  if (hints.length === 0) return;
  const consulted = response.grounding_evidence?.overlays_consulted ?? [];
  const honoured = hints.filter((hint) => consulted.includes(hint));
  if (v.check("overlay_hints", honoured.length > 0, `hinted ${hints.join(", ")}; consulted ${consulted.join(", ") || "none"}`)) return;
  const warnings = response.overlay_warnings ?? [];
  if (explainsFallback(warnings, hints)) return v.warn(`hinted overlays ${hints.join(", ")} were not consulted; the worker says: ${warnings.join("; ")}`);
  const silent = `none of the hinted overlays ${hints.join(", ")} was consulted (consulted: ${consulted.join(", ") || "none"}) and no overlay_warnings say why`;
  if (task.critical === true) v.reject("OVERLAY_HINTS_IGNORED", `${silent}; critical task`);
  else v.warn(silent);
}

/** Seed 002 §5.5: high and medium accept; low warns, or rejects a critical task under the "reject" policy. */
export function checkConfidence(task: DelegatedTask, evidence: GroundingEvidence, policy: ValidationPolicy, v: VerdictBuilder): void {
  const confidence = evidence.grounding_confidence;
  if (v.check("confidence", confidence !== "low", `grounding confidence ${confidence}`)) return;
  if (task.critical !== true) return v.warn("low grounding confidence on a non-critical task: accepted with a warning, logged for audit");
  if (policy.lowConfidenceCritical === "reject") v.reject("LOW_CONFIDENCE_CRITICAL", "low grounding confidence on a critical task: sent for review (seed 002 §5.5)");
  else v.warn("low grounding confidence on a critical task (policy: warn)");
}
