// HANDOFF.md for a delegated task (CDP, seed 000), opened by the delegation-chain preamble and depth
// line of seed 004, with the PGC evidence the worker gathered as checkable citations.
import { delegationPreamble, STRATEGY_DESCRIPTIONS, type Citation, type DelegatedTask } from "../../protocol/index.js";
import type { ScopeInfo } from "../executor.js";

function list(items: readonly string[], empty: string): string {
  return items.length > 0 ? items.map((i) => `- ${i}`).join("\n") : empty;
}

function evidenceLines(evidence: readonly Citation[]): string {
  if (evidence.length === 0) return "(none gathered: strategy none, or nothing in this scope matched)";
  return evidence
    .map((c, i) => `${i + 1}. [${c.overlay}] \`${c.file_path}:${c.line_start}-${c.line_end}\` sha256=${c.sha256} (${c.similarity_kind} ${c.similarity.toFixed(2)}) — ${(c.content.split("\n")[0] ?? "").slice(0, 160)}`)
    .join("\n");
}

export function renderHandoff(task: DelegatedTask, scope: ScopeInfo, workerId: string, evidence: readonly Citation[], deadline: number): string {
  const grounding = task.grounding;
  const strategy = grounding?.strategy ?? "none";
  return `${delegationPreamble(task)}

# Task Handoff: ${task.id}

## Task
${task.task}

## Context
${task.context ?? "(none)"}

## Key Files
${list([...new Set(evidence.map((c) => `\`${c.file_path}\` — cited below`))], "(none identified yet)")}

## Constraints
- Scope: ${scope.name} (${scope.paths.length > 0 ? scope.paths.join(", ") : "the whole root"}) under \`${scope.root}\`; do not read or change files outside it.
- Deadline: ${new Date(deadline).toISOString()}; the process is stopped after it.
- Worker: ${workerId}

## Grounding
- Strategy: ${strategy} — ${STRATEGY_DESCRIPTIONS[strategy].workerBehavior}
- Overlay hints: ${grounding?.overlay_hints?.join(", ") ?? "(none)"}
- Query hints: ${grounding?.query_hints?.join("; ") ?? "(none)"}
- Evidence required: ${grounding?.evidence_required === true ? "yes" : "no"}

## Evidence from the PGC
${evidenceLines(evidence)}

## Expected Deliverables
${list(task.acceptance_criteria.map((c) => `[ ] ${c}`), "- [ ] Complete the task")}

## Return Requirements
Write OUTPUT.md in this directory: a \`**Status:**\` line (completed, partial, blocked, failed or
needs-input), then \`## Summary\`, \`## Key Findings\` (a list), \`## Files Referenced\` (a list of
root-relative paths) and, when blocked or needing input, \`## For Primary\` saying why.
`;
}
