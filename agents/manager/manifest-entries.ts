// The MANIFEST.jsonl line (seed 001 §5.1) of a finished delegation and of a plan step that never ran.
import { manifestStatusFor, type DelegatedTask, type ManifestEntryInput } from "../protocol/index.js";
import type { DelegationResult } from "./manager.js";

const TITLE_CHARS = 120;

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A delegation's line: complete, partial or blocked (a completed answer whose evidence was rejected is blocked). */
export function delegationEntry(task: DelegatedTask, result: DelegationResult, file: string): ManifestEntryInput {
  const { response, agent, verdict } = result;
  const status = verdict.status === "rejected" && response.status === "completed" ? "blocked" : manifestStatusFor(response.status);
  const followups = status !== "complete" ? [verdict.reasons.join("; ") || response.result.slice(0, 200) || "see the task output"] : [];
  return {
    id: task.id,
    file,
    title: task.task.slice(0, TITLE_CHARS) || task.id,
    date: today(),
    status,
    agent_type: `worker:${agent.scope}`,
    topics: [agent.scope, ...(response.grounding_evidence?.overlays_consulted ?? [])],
    key_findings: response.key_findings ?? [],
    actionable: verdict.status !== "rejected",
    needs_followup: followups,
    linked_tasks: [],
  };
}

/** A plan step skipped because a step it depends on failed: blocked, with the reason as its follow-up. */
export function skippedStepEntry(step: { id: string; scope: string; title: string; reason: string; linked_tasks: string[] }, file: string): ManifestEntryInput {
  return {
    id: step.id,
    file,
    title: step.title.slice(0, TITLE_CHARS),
    date: today(),
    status: "blocked",
    agent_type: `worker:${step.scope}`,
    topics: [step.scope],
    key_findings: [],
    actionable: false,
    needs_followup: [step.reason.slice(0, 900)],
    linked_tasks: step.linked_tasks,
  };
}
