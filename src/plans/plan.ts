// A delegation plan (seed 000's execution strategies, seed 003's handoffs): several tasks for the fleet's
// scopes, some depending on others. Validated whole before anything runs; its complexity and dependency
// count choose how it runs, unless the plan names a strategy (docs/PLANS.md).
import { z } from "zod";
import { EXECUTION_MODES, GROUNDING_STRATEGIES, MAX_DELEGATION_DEPTH, MODEL_HINTS, type Execution, type ExecutionMode, type ModelHint } from "../../agents/protocol/index.js";

/** Tasks in one plan at most: a plan is a unit of work a person reads, not a batch queue. */
export const MAX_PLAN_TASKS = 100;

const PlanTaskSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "a step id is 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"),
  scope: z.string().min(1).max(64),
  task: z.string().min(1).max(20_000),
  criteria: z.array(z.string().min(1).max(1_000)).max(32).optional(),
  depends_on: z.array(z.string()).max(MAX_PLAN_TASKS).optional(),
  /** The step's grounding strategy (default pgc_cite). */
  strategy: z.enum(GROUNDING_STRATEGIES).optional(),
  /** Overrides the model hint the plan's complexity gives this step. */
  model_hint: z.enum(MODEL_HINTS).optional(),
});

const AGENT_ID = z.string().regex(/^[^\s\p{Cc}]{1,128}$/u, "an agent id has no whitespace or control characters");

export const PlanSchema = z.strictObject({
  /** How the plan runs; chosen from its complexity and dependency count when absent. */
  strategy: z.enum(EXECUTION_MODES).optional(),
  /**
   * Seed 004: the submitting agent's own place in a delegation chain, when an agent (not a person)
   * submits the plan: its depth, the agents above it, and its id. Every step is then delegated one
   * level deeper, with the chain extended by the submitter.
   */
  delegation_depth: z.number().int().min(0).max(MAX_DELEGATION_DEPTH).optional(),
  delegation_chain: z.array(AGENT_ID).max(MAX_DELEGATION_DEPTH).optional(),
  delegated_by: AGENT_ID.optional(),
  tasks: z.array(PlanTaskSchema).min(1).max(MAX_PLAN_TASKS),
});

export type Plan = z.output<typeof PlanSchema>;
export type PlanTask = Plan["tasks"][number];

/** A plan refused before anything ran: the code says why, `ids` which steps. */
export class PlanError extends Error {
  override readonly name = "PlanError";
  constructor(
    readonly code: "invalid_plan" | "duplicate_id" | "unknown_dependency" | "dependency_cycle" | "unknown_scope" | "DELEGATION_DEPTH_EXCEEDED",
    message: string,
    readonly ids: readonly string[] = [],
  ) {
    super(message);
  }
}

/** Parses and checks a plan: schema, unique ids, known dependencies, no cycle, scopes the fleet serves. */
export function parsePlan(value: unknown, scopes: readonly string[]): Plan {
  const parsed = PlanSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlanError("invalid_plan", `invalid plan: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "?"}`);
  }
  const plan = parsed.data;
  checkDelegation(plan);
  const ids = plan.tasks.map((t) => t.id);
  const duplicates = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (duplicates.length > 0) throw new PlanError("duplicate_id", `step ids must be unique: ${duplicates.join(", ")}`, duplicates);
  const known = new Set(ids);
  const dangling = plan.tasks.filter((t) => (t.depends_on ?? []).some((d) => !known.has(d) || d === t.id));
  if (dangling.length > 0) {
    const detail = dangling.map((t) => `${t.id} → ${(t.depends_on ?? []).filter((d) => !known.has(d) || d === t.id).join(", ")}`).join("; ");
    throw new PlanError("unknown_dependency", `steps depend on steps the plan does not have (or on themselves): ${detail}`, dangling.map((t) => t.id));
  }
  const cycle = findCycle(plan.tasks);
  if (cycle) throw new PlanError("dependency_cycle", `the steps depend on each other in a cycle: ${[...cycle, cycle[0]].join(" → ")}`, cycle);
  const unknown = plan.tasks.filter((t) => !scopes.includes(t.scope));
  if (unknown.length > 0) {
    throw new PlanError("unknown_scope", `steps name scopes the fleet does not serve: ${unknown.map((t) => `${t.id} (${t.scope})`).join(", ")}; scopes: ${scopes.join(", ")}`, unknown.map((t) => t.id));
  }
  return plan;
}

/** Seed 004: a plan submitted at depth d delegates its steps at d + 1, which may not pass the maximum. */
function checkDelegation(plan: Plan): void {
  if (plan.delegation_depth === undefined) {
    if (plan.delegation_chain !== undefined || plan.delegated_by !== undefined) throw new PlanError("invalid_plan", "delegation_chain and delegated_by need delegation_depth (the submitter's depth)");
    return;
  }
  const chain = plan.delegation_chain ?? [];
  if (chain.length !== plan.delegation_depth) throw new PlanError("invalid_plan", `delegation_chain must list exactly delegation_depth (${plan.delegation_depth}) agent ids, got ${chain.length}`);
  if (!plan.delegated_by) throw new PlanError("invalid_plan", "delegated_by (the submitting agent's id) is required with delegation_depth");
  if (plan.delegation_depth + 1 > MAX_DELEGATION_DEPTH) {
    throw new PlanError("DELEGATION_DEPTH_EXCEEDED", `a plan submitted at depth ${plan.delegation_depth} would delegate its steps at depth ${plan.delegation_depth + 1}, past the maximum of ${MAX_DELEGATION_DEPTH} (seed 004): do the work inline`, plan.tasks.map((t) => t.id));
  }
}

/** The delegation fields of every step of a plan: one level below its submitter, or none for a person's plan. */
export function stepDelegation(plan: Plan): { delegation_depth?: number; delegation_chain?: string[] } {
  if (plan.delegation_depth === undefined || !plan.delegated_by) return {};
  return { delegation_depth: plan.delegation_depth + 1, delegation_chain: [...(plan.delegation_chain ?? []), plan.delegated_by] };
}

/** One cycle of the dependency graph, as step ids in order, or null. */
function findCycle(tasks: readonly PlanTask[]): string[] | null {
  const deps = new Map(tasks.map((t) => [t.id, t.depends_on ?? []]));
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "open") return stack.slice(stack.indexOf(id));
    state.set(id, "open");
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = visit(d);
      if (found) return found;
    }
    stack.pop();
    state.set(id, "done");
    return null;
  };
  for (const t of tasks) {
    const found = visit(t.id);
    if (found) return found;
  }
  return null;
}

/** The parts of a plan's complexity, each in [0, 1], and their weights (docs/PLANS.md). */
export const COMPLEXITY_WEIGHTS = { steps: 0.35, length: 0.25, criteria: 0.2, spread: 0.2 } as const;
/** Steps at which the plan's size counts fully; words at which a task's length does; criteria per task. */
const FULL_STEPS = 10;
const FULL_TASK_WORDS = 150;
const FULL_CRITERIA = 3;
const FULL_SPREAD_SCOPES = 5;

export interface Complexity {
  score: number;
  parts: Record<keyof typeof COMPLEXITY_WEIGHTS, number>;
  /** Dependency edges: the sum of every step's depends_on. */
  dependencies: number;
}

export function complexityOf(plan: Plan): Complexity {
  const n = plan.tasks.length;
  const words = plan.tasks.reduce((sum, t) => sum + t.task.split(/\s+/).filter(Boolean).length, 0) / n;
  const criteria = plan.tasks.reduce((sum, t) => sum + (t.criteria?.length ?? 0), 0) / n;
  const scopes = new Set(plan.tasks.map((t) => t.scope)).size;
  const parts = {
    steps: Math.min(1, (n - 1) / (FULL_STEPS - 1)),
    length: Math.min(1, words / FULL_TASK_WORDS),
    criteria: Math.min(1, criteria / FULL_CRITERIA),
    spread: Math.min(1, (scopes - 1) / (FULL_SPREAD_SCOPES - 1)),
  };
  const score = (Object.keys(COMPLEXITY_WEIGHTS) as (keyof typeof COMPLEXITY_WEIGHTS)[]).reduce((sum, k) => sum + COMPLEXITY_WEIGHTS[k] * parts[k], 0);
  return { score: Math.round(score * 1000) / 1000, parts, dependencies: plan.tasks.reduce((sum, t) => sum + (t.depends_on?.length ?? 0), 0) };
}

/** Seed 000's auto-selection: below 0.7, parallel without dependencies, else sequential; from 0.7, pipeline with at most two, else fan-out-fan-in. */
export function selectMode(complexity: number, dependencies: number): ExecutionMode {
  if (complexity < 0.7) return dependencies === 0 ? "parallel" : "sequential";
  return dependencies <= 2 ? "pipeline" : "fan-out-fan-in";
}

/** Seed 000's model hints: haiku below 0.4, sonnet below 0.7, opus from 0.7. */
export function modelHintFor(complexity: number): ModelHint {
  return complexity < 0.4 ? "haiku" : complexity < 0.7 ? "sonnet" : "opus";
}

export interface ChosenStrategy {
  execution: Execution;
  complexity: Complexity;
  /** Why this mode, in words. */
  reason: string;
}

export function chooseStrategy(plan: Plan): ChosenStrategy {
  const complexity = complexityOf(plan);
  const auto = selectMode(complexity.score, complexity.dependencies);
  const mode = plan.strategy ?? auto;
  const why = `complexity ${complexity.score.toFixed(2)} (steps ${complexity.parts.steps.toFixed(2)}, length ${complexity.parts.length.toFixed(2)}, criteria ${complexity.parts.criteria.toFixed(2)}, spread ${complexity.parts.spread.toFixed(2)}) and ${complexity.dependencies} dependenc${complexity.dependencies === 1 ? "y" : "ies"}`;
  const reason = plan.strategy ? `named by the plan (${why} would choose ${auto})` : `${why} choose ${auto}`;
  return { execution: { mode, complexity: complexity.score, model_hint: modelHintFor(complexity.score), auto_calculated: plan.strategy === undefined }, complexity, reason };
}
