// HANDOFF.md for a delegated task (CDP, seed 000), opened by the delegation-chain preamble and depth
// line of seed 004, with the PGC evidence the worker gathered as checkable citations (file:lines, sha256).
import {
  canDelegate,
  delegationDepthOf,
  delegationPreamble,
  MAX_DELEGATION_DEPTH,
  STRATEGY_DESCRIPTIONS,
  type Citation,
  type DelegatedTask,
  type Execution,
  type Grounding,
} from "../../protocol/index.js";
import type { ScopeInfo } from "../executor.js";

/** Longest one-line excerpt of a citation in the evidence list; the file and lines give the rest. */
export const EVIDENCE_EXCERPT_CHARS = 160;

function bullets(items: readonly string[], empty: string): string {
  return items.length > 0 ? items.map((item) => `- ${item}`).join("\n") : empty;
}

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim().length > 0) ?? "").trim().slice(0, EVIDENCE_EXCERPT_CHARS);
}

/** One citation per line: where (file:start-end), which overlay, the sha256 of those lines, how it matched. */
export function citationLine(citation: Citation, index: number): string {
  const where = `\`${citation.file_path}:${citation.line_start}-${citation.line_end}\``;
  const score = `${citation.similarity_kind} ${citation.similarity.toFixed(2)}`;
  return `${index + 1}. ${where} [${citation.overlay}] sha256=${citation.sha256} (${score}) — ${firstLine(citation.content)}`;
}

function groundingSection(grounding: Grounding | undefined): string {
  const strategy = grounding?.strategy ?? "none";
  const lines = [
    `- Strategy: ${strategy} — ${STRATEGY_DESCRIPTIONS[strategy].workerBehavior}`,
    `- Overlay hints: ${grounding?.overlay_hints?.join(", ") || "(none)"}`,
    `- Query hints: ${grounding?.query_hints?.map((q) => JSON.stringify(q)).join("; ") || "(none)"}`,
    `- Evidence required: ${grounding?.evidence_required === true || STRATEGY_DESCRIPTIONS[strategy].citationsRequired ? "yes — back every claim with a file and line range" : "no"}`,
  ];
  if (grounding?.algebra_expression) lines.push(`- Algebra expression: ${grounding.algebra_expression}`);
  for (const hint of grounding?.analysis_hints ?? []) lines.push(`- Analysis hint: ${hint.type} on ${JSON.stringify(hint.target)}`);
  return lines.join("\n");
}

/** Seed 000's "Execution Strategy" section: how the plan this task belongs to runs. */
function executionSection(execution: Execution): string {
  return [`- **Mode**: ${execution.mode}`, `- **Complexity**: ${execution.complexity.toFixed(2)}`, `- **Model Hint**: ${execution.model_hint}`, `- **Auto-calculated**: ${execution.auto_calculated}`].join("\n");
}

function evidenceSection(evidence: readonly Citation[], workerId: string): string {
  if (evidence.length === 0) return "(none gathered: strategy none or pgc_verify, or nothing in this scope matched)";
  const intro = `Gathered by ${workerId} from its PGC. Each line: \`file:start-end\` (relative to the scope root, 1-based, inclusive), overlay, the sha256 of those lines, similarity kind and value.`;
  return `${intro}\n\n${evidence.map(citationLine).join("\n")}`;
}

function constraintsSection(task: DelegatedTask, scope: ScopeInfo, workerId: string, deadline: number): string {
  const depth = delegationDepthOf(task);
  const spawn = canDelegate(task) ? `you may delegate sub-tasks (depth ${depth} of ${MAX_DELEGATION_DEPTH})` : `you must work inline (depth ${depth} of ${MAX_DELEGATION_DEPTH})`;
  return bullets(
    [
      `Scope: ${scope.name} (${scope.paths.length > 0 ? scope.paths.join(", ") : "the whole root"}) under \`${scope.root}\`; do not read or change files outside it.`,
      `Worker: ${workerId}`,
      `Deadline: ${new Date(deadline).toISOString()}; the process group then gets SIGTERM, and SIGKILL shortly after.`,
      `Delegation: ${spawn}.`,
      ...(task.critical === true ? ["Critical: an answer with low grounding confidence is rejected."] : []),
    ],
    "",
  );
}

const RETURN_REQUIREMENTS = `Write OUTPUT.md in this directory, then exit 0 (format: docs/EXECUTORS.md):

    **Status:** completed | partial | blocked | failed | needs_clarification
    ## Summary               the answer, or what was done and what remains
    ## Key Findings          3-7 one-line items for the next agent in the chain
    ## Files Referenced      paths relative to the scope root, one per item
    ## Blocked Because       when blocked, failed or partial: why
    ## Needs Clarification   when needs_clarification: the question; list items are suggested answers`;

/** The HANDOFF.md text; `deadline` is when the agent's process group is stopped (epoch ms). */
export function renderHandoff(task: DelegatedTask, scope: ScopeInfo, workerId: string, evidence: readonly Citation[], deadline: number): string {
  const files = [...new Set(evidence.map((c) => c.file_path))].map((path) => `\`${path}\` — cited in the evidence below`);
  return `${delegationPreamble(task)}

# Task Handoff: ${task.id}

## Task
${task.task}

## Acceptance Criteria
${bullets(task.acceptance_criteria.map((criterion) => `[ ] ${criterion}`), "(none given: answer the task)")}

## Context
${task.context ?? "(none)"}

## Grounding
${groundingSection(task.grounding)}
${task.execution ? `\n## Execution Strategy\n${executionSection(task.execution)}\n` : ""}
## Evidence from the PGC
${evidenceSection(evidence, workerId)}

## Key Files
${bullets(files, "(none identified yet)")}

## Constraints
${constraintsSection(task, scope, workerId, deadline)}

## Return Requirements
${RETURN_REQUIREMENTS}
`;
}
