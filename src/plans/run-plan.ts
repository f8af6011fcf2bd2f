// Running a delegation plan: each step a DelegatedTask through the fleet's manager, in the order and with
// the concurrency its execution mode gives (docs/PLANS.md). A step receives only the key findings of the
// steps it follows and a reference to their OUTPUT.md (seed 003); a step whose dependency failed is
// blocked with the reason, independent branches go on; cancelling the plan cancels the running steps on
// the bus and runs nothing more.
import { join } from "node:path";
import type { DelegatedTask, Execution } from "../../agents/protocol/index.js";
import type { Verdict } from "../../agents/manager/validation/index.js";
import { buildTask, type DelegationOutcome } from "../delegation.js";
import { stepDelegation, type ChosenStrategy, type Plan, type PlanTask } from "./plan.js";

export type StepStatus = "waiting" | "running" | "completed" | "failed" | "blocked" | "cancelled";

export interface StepResult {
  id: string;
  scope: string;
  task_id: string;
  status: StepStatus;
  agent: string | null;
  verdict: Pick<Verdict, "status" | "code" | "reasons" | "warnings"> | null;
  key_findings: string[];
  citations: { file_path: string; line_start: number; line_end: number; sha256: string }[];
  workspace: string | null;
  /** For a blocked, failed or cancelled step: why. */
  reason: string | null;
  /** The steps whose findings it was handed. */
  handed: string[];
}

export interface PlanResult {
  id: string;
  /** Seed 001: completed when every step completed, partial when some did, blocked when none did. */
  status: "completed" | "partial" | "blocked";
  strategy: Execution & { reason: string };
  steps: StepResult[];
  /** fan-out-fan-in: the branches' findings and citations in one summary. */
  aggregate: { summary: string; citations: StepResult["citations"] } | null;
}

export interface PlanRunDeps {
  /** One step through the manager (writes its workspace, returns the validated answer). */
  delegate: (scope: string, task: DelegatedTask, signal: AbortSignal) => Promise<DelegationOutcome>;
  /** A MANIFEST.jsonl line for a step that never ran. */
  recordSkipped: (step: { id: string; scope: string; title: string; reason: string; linked_tasks: string[] }) => Promise<void>;
  onProgress?: (counts: Record<StepStatus, number>, event: string) => void;
  signal?: AbortSignal;
}

/** Steps in flight at once at most, whatever the mode (the manager spreads them over replicas). */
export const MAX_RUNNING_STEPS = 32;

/** Which steps a step waits for and is handed the findings of, by mode. */
export function inputsOf(plan: Plan, mode: Execution["mode"]): Map<string, string[]> {
  const inputs = new Map(plan.tasks.map((t) => [t.id, [...(t.depends_on ?? [])]]));
  if (mode === "pipeline") {
    // Data flows through stages: each step takes the whole previous stage. Stages are the dependency
    // levels; a plan without dependencies is a chain in plan order.
    const stages = stagesOf(plan);
    for (const [k, stage] of stages.entries()) for (const id of stage) inputs.set(id, k === 0 ? [] : [...(stages[k - 1] as string[])]);
  }
  if (mode === "sequential") {
    // One at a time, in plan order among the ready ones: a step also waits for the one before it.
    const order = topologicalOrder(plan);
    for (const [k, id] of order.entries()) if (k > 0) inputs.set(id, [...new Set([...(inputs.get(id) ?? []), order[k - 1] as string])]);
  }
  return inputs;
}

function levelOf(plan: Plan): Map<string, number> {
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));
  const level = new Map<string, number>();
  const visit = (id: string): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    const deps = byId.get(id)?.depends_on ?? [];
    const value = deps.length === 0 ? 0 : 1 + Math.max(...deps.map(visit));
    level.set(id, value);
    return value;
  };
  for (const t of plan.tasks) visit(t.id);
  return level;
}

export function stagesOf(plan: Plan): string[][] {
  const hasDependencies = plan.tasks.some((t) => (t.depends_on ?? []).length > 0);
  if (!hasDependencies) return plan.tasks.map((t) => [t.id]);
  const level = levelOf(plan);
  const stages: string[][] = [];
  for (const t of plan.tasks) (stages[level.get(t.id) as number] ??= []).push(t.id);
  return stages;
}

export function topologicalOrder(plan: Plan): string[] {
  const level = levelOf(plan);
  return plan.tasks.map((t, i) => ({ id: t.id, level: level.get(t.id) as number, i })).sort((a, b) => a.level - b.level || a.i - b.i).map((x) => x.id);
}

function handoffContext(inputs: readonly StepResult[]): string | undefined {
  if (inputs.length === 0) return undefined;
  return inputs
    .map((s) => `Key findings from step ${s.id} (${s.scope}, task ${s.task_id}):\n${s.key_findings.map((f) => `- ${f}`).join("\n") || "- (none)"}\nFull output: ${s.workspace ? join(s.workspace, "OUTPUT.md") : "(none)"}`)
    .join("\n\n");
}

function emptyStep(task: PlanTask, planId: string): StepResult {
  return { id: task.id, scope: task.scope, task_id: `${planId}-${task.id}`, status: "waiting", agent: null, verdict: null, key_findings: [], citations: [], workspace: null, reason: null, handed: [] };
}

function counts(steps: Iterable<StepResult>): Record<StepStatus, number> {
  const out: Record<StepStatus, number> = { waiting: 0, running: 0, completed: 0, failed: 0, blocked: 0, cancelled: 0 };
  for (const s of steps) out[s.status]++;
  return out;
}

export async function runPlan(plan: Plan, planId: string, chosen: ChosenStrategy, deps: PlanRunDeps): Promise<PlanResult> {
  const { execution } = chosen;
  const inputs = inputsOf(plan, execution.mode);
  const steps = new Map(plan.tasks.map((t) => [t.id, emptyStep(t, planId)]));
  const tasks = new Map(plan.tasks.map((t) => [t.id, t]));
  const running = new Map<string, Promise<void>>();
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  deps.signal?.addEventListener("abort", onAbort, { once: true });
  const report = (event: string) => deps.onProgress?.(counts(steps.values()), event);

  const runStep = async (task: PlanTask): Promise<void> => {
    const step = steps.get(task.id) as StepResult;
    const handed = (inputs.get(task.id) ?? []).map((id) => steps.get(id) as StepResult);
    step.handed = handed.map((s) => s.id);
    const context = handoffContext(handed);
    const delegated: DelegatedTask = {
      ...buildTask({ task: task.task, criteria: task.criteria ?? [], ...(task.strategy ? { strategy: task.strategy } : {}) }, step.task_id),
      ...(context ? { context } : {}),
      ...stepDelegation(plan),
      execution: { ...execution, model_hint: task.model_hint ?? execution.model_hint },
    };
    step.status = "running";
    report(`${task.id} started on ${task.scope}`);
    try {
      const outcome = await deps.delegate(task.scope, delegated, controller.signal);
      step.agent = outcome.agent;
      step.workspace = outcome.workspace;
      step.verdict = { status: outcome.verdict.status, code: outcome.verdict.code, reasons: outcome.verdict.reasons, warnings: outcome.verdict.warnings };
      step.key_findings = outcome.response.key_findings ?? [];
      step.citations = (outcome.response.grounding_evidence?.citations ?? []).map(({ file_path, line_start, line_end, sha256 }) => ({ file_path, line_start, line_end, sha256 }));
      const accepted = outcome.verdict.status !== "rejected" && outcome.response.status === "completed";
      step.status = accepted ? "completed" : "failed";
      if (!accepted) step.reason = outcome.verdict.status === "rejected" ? `its answer was rejected (${outcome.verdict.code ?? outcome.verdict.reasons.join("; ")})` : `its agent answered ${outcome.response.status}: ${outcome.response.error?.message ?? outcome.response.result.slice(0, 200)}`;
    } catch (error) {
      step.status = controller.signal.aborted ? "cancelled" : "failed";
      step.reason = controller.signal.aborted ? "the plan was cancelled while it ran" : (error as Error).message;
    }
    report(`${task.id} ${step.status}`);
  };

  try {
    for (;;) {
      if (controller.signal.aborted) {
        for (const step of steps.values()) {
          if (step.status !== "waiting") continue;
          step.status = "cancelled";
          step.reason = "the plan was cancelled before it ran";
        }
      }
      // Block what can no longer run: a step whose input failed, was blocked or was cancelled.
      let changed = true;
      while (changed) {
        changed = false;
        for (const step of steps.values()) {
          if (step.status !== "waiting") continue;
          const broken = (inputs.get(step.id) ?? []).map((id) => steps.get(id) as StepResult).find((s) => s.status === "failed" || s.status === "blocked" || s.status === "cancelled");
          if (broken) {
            step.status = "blocked";
            step.reason = `step ${broken.id} (${broken.scope}) ${broken.status}${broken.reason ? `: ${broken.reason}` : ""}`;
            changed = true;
            report(`${step.id} blocked`);
          }
        }
      }
      const ready = [...steps.values()].filter((s) => s.status === "waiting" && (inputs.get(s.id) ?? []).every((id) => steps.get(id)?.status === "completed"));
      for (const step of ready) {
        if (running.size >= MAX_RUNNING_STEPS) break;
        running.set(step.id, runStep(tasks.get(step.id) as PlanTask).finally(() => running.delete(step.id)));
      }
      if (running.size === 0) break;
      await Promise.race(running.values());
    }
  } finally {
    deps.signal?.removeEventListener("abort", onAbort);
  }
  // Seed 001: every step has its manifest line; the manager wrote those of the steps that ran.
  for (const step of steps.values()) {
    if (step.status !== "blocked" && step.status !== "cancelled") continue;
    if (step.agent !== null) continue;
    await deps.recordSkipped({ id: step.task_id, scope: step.scope, title: (tasks.get(step.id) as PlanTask).task, reason: step.reason ?? step.status, linked_tasks: (inputs.get(step.id) ?? []).map((id) => (steps.get(id) as StepResult).task_id) });
  }
  const ordered = plan.tasks.map((t) => steps.get(t.id) as StepResult);
  const done = ordered.filter((s) => s.status === "completed").length;
  return {
    id: planId,
    status: done === ordered.length ? "completed" : done > 0 ? "partial" : "blocked",
    strategy: { ...execution, reason: chosen.reason },
    steps: ordered,
    aggregate: execution.mode === "fan-out-fan-in" ? aggregate(ordered) : null,
  };
}

/** Fan-in: every completed branch's findings under its step, and all their citations, once each. */
function aggregate(steps: readonly StepResult[]): PlanResult["aggregate"] {
  const done = steps.filter((s) => s.status === "completed");
  const summary = done.map((s) => `${s.id} (${s.scope}):\n${s.key_findings.map((f) => `- ${f}`).join("\n") || "- (no key findings)"}`).join("\n\n");
  const seen = new Set<string>();
  const citations = done.flatMap((s) => s.citations).filter((c) => {
    const key = `${c.file_path}:${c.line_start}-${c.line_end}:${c.sha256}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { summary: summary || "(no branch completed)", citations };
}
