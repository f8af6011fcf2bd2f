// Delegation plans for `mesh delegate --plan` and the MCP tool `delegate_plan`: check the plan against the
// scopes the fleet serves, choose its strategy, run it through the manager.
import { randomBytes } from "node:crypto";
import { delegateTask, type DelegationOutcome } from "../delegation.js";
import type { FleetManifest } from "../fleet/fleet-dir.js";
import { chooseStrategy, parsePlan } from "./plan.js";
import { runPlan, type PlanResult, type StepStatus } from "./run-plan.js";

export { PlanError, parsePlan, chooseStrategy, complexityOf, selectMode, modelHintFor, type Plan } from "./plan.js";
export type { PlanResult, StepResult, StepStatus } from "./run-plan.js";

export interface PlanFleet {
  dir: string;
  fleet: FleetManifest;
  scopes: readonly { name: string; paths: readonly string[] }[];
  /** One request to the fleet's manager; `recover` is what to ask a manager that replaced a dead one (FleetLink). */
  request: (op: string, args: unknown, signal?: AbortSignal, recover?: { op: string; args: unknown }) => Promise<unknown>;
}

export function newPlanId(): string {
  return `P-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(3).toString("hex")}`;
}

export async function delegatePlan(target: PlanFleet, value: unknown, options: { signal?: AbortSignal; onProgress?: (counts: Record<StepStatus, number>, event: string) => void } = {}): Promise<PlanResult> {
  const plan = parsePlan(value, target.scopes.map((s) => s.name));
  const chosen = chooseStrategy(plan);
  const planId = newPlanId();
  // Checked whole against the access policy before any step runs: a refused scope is a NACK `unauthorized`.
  await target.request("authorize", { op: "delegate_plan", scopes: [...new Set(plan.tasks.map((t) => t.scope))] }, options.signal);
  return runPlan(plan, planId, chosen, {
    delegate: (scope, task, signal) => delegateTask(target.dir, target.fleet, target.scopes, scope, task, (args) => target.request("delegate", { ...(args as object), plan: planId }, signal, { op: "delegation", args: { task_id: task.id } })) as Promise<DelegationOutcome>,
    recordSkipped: async (step) => void (await target.request("skipped_step", step)),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
