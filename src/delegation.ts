// One DelegatedTask through a fleet's manager, as `mesh delegate` and the MCP tool `delegate` send it: the
// task built from its text and options, its CDP workspace (HANDOFF.md before, OUTPUT.md after) in the
// fleet directory, and the manager's answer (response, verdict, agent, fail-overs).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { DelegatedTask, GroundingStrategy, OverlayId, TaskResponse } from "../agents/protocol/index.js";
import { renderHandoff } from "../agents/worker/exec/handoff.js";
import { WORKSPACES_DIR, workspaceName } from "../agents/worker/exec/exec-executor.js";
import type { Verdict } from "../agents/manager/validation/index.js";
import type { FleetManifest } from "./fleet/fleet-dir.js";

/** How long a delegated task may run before the manager gives up on it, as HANDOFF.md states it. */
export const DELEGATE_DEADLINE_MS = 120_000;

export interface TaskSpec {
  task: string;
  criteria?: readonly string[];
  strategy?: GroundingStrategy;
  overlays?: readonly OverlayId[];
  critical?: boolean;
}

export interface DelegationOutcome {
  response: TaskResponse;
  verdict: Verdict;
  agent: string;
  failovers: unknown[];
  workspace: string;
}

export function newTaskId(): string {
  return `T-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(3).toString("hex")}`;
}

export function buildTask(spec: TaskSpec, id = newTaskId()): DelegatedTask {
  const strategy = spec.strategy ?? "pgc_cite";
  return {
    id,
    task: spec.task,
    acceptance_criteria: [...(spec.criteria ?? [])],
    ...(spec.critical ? { critical: true } : {}),
    grounding: { strategy, ...(spec.overlays ? { overlay_hints: [...spec.overlays] } : {}), ...(strategy !== "none" ? { evidence_required: strategy === "pgc_cite" } : {}) },
  };
}

function outputMarkdown(response: TaskResponse, verdict: Verdict, agent: string): string {
  const citations = (response.grounding_evidence?.citations ?? []).map((c) => `- \`${c.file_path}:${c.line_start}-${c.line_end}\` sha256 ${c.sha256} (${c.similarity_kind} ${c.similarity.toFixed(2)})`);
  return `# Task Complete: ${response.task_id}

**Status:** ${response.status}
**Agent:** ${agent}
**Verdict:** ${verdict.status}${verdict.code ? ` (${verdict.code})` : ""}

## Summary
${response.result}

## Key Findings
${(response.key_findings ?? []).map((f) => `- ${f}`).join("\n") || "(none)"}

## Evidence
${citations.join("\n") || "(none)"}

## For Primary
${[...verdict.reasons, ...verdict.warnings].map((r) => `- ${r}`).join("\n") || "(nothing to flag)"}
`;
}

/** A scope name the fleet does not have: the error says which it has, and the nearest. */
export class UnknownScopeError extends Error {
  override readonly name = "UnknownScopeError";
  readonly code = "unknown_scope";
  constructor(
    readonly scope: string,
    readonly known: readonly string[],
  ) {
    const lower = scope.toLowerCase();
    const near = known.filter((s) => s.toLowerCase().includes(lower) || lower.includes(s.toLowerCase()));
    super(`the fleet has no scope "${scope}" (scopes: ${known.join(", ")})${near.length > 0 && near.length <= 3 ? `; did you mean ${near.map((s) => `"${s}"`).join(" or ")}?` : ""}`);
  }
}

/** The scopes a fleet serves now: its launched scopes and those of workers that joined it later, as the manager's agent list shows them. */
export function liveScopes(fleet: FleetManifest, agents: readonly { scope: string; scope_paths: readonly string[] }[]): { name: string; paths: readonly string[] }[] {
  const out = new Map<string, readonly string[]>(fleet.scopes.map((s) => [s.name, s.paths]));
  for (const agent of agents) if (!out.has(agent.scope)) out.set(agent.scope, agent.scope_paths);
  return [...out].map(([name, paths]) => ({ name, paths }));
}

/**
 * Writes the task's workspace, sends it through the manager (`send` is one manager request) and writes
 * OUTPUT.md from the answer. `scopes` are the scopes the fleet serves (liveScopes).
 */
export async function delegateTask(fleetDir: string, fleet: FleetManifest, scopes: readonly { name: string; paths: readonly string[] }[], scopeName: string, task: DelegatedTask, send: (args: unknown) => Promise<unknown>): Promise<DelegationOutcome> {
  const scope = scopes.find((s) => s.name === scopeName);
  if (!scope) throw new UnknownScopeError(scopeName, scopes.map((s) => s.name));
  const workspace = join(fleetDir, WORKSPACES_DIR, workspaceName(task.id));
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, "HANDOFF.md"), renderHandoff(task, { name: scope.name, root: fleet.root, paths: [...scope.paths] }, "manager", [], Date.now() + DELEGATE_DEADLINE_MS));
  const result = (await send({ scope: scopeName, task })) as Omit<DelegationOutcome, "workspace">;
  writeFileSync(join(workspace, "OUTPUT.md"), outputMarkdown(result.response, result.verdict, result.agent));
  return { ...result, workspace };
}
