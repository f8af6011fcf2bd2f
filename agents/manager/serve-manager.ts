// The manager's ops on the mesh, for the CLI and other clients: agents, topology, ask, delegate, metrics.
import { z } from "zod";
import type { MeshNode } from "../../bus/index.js";
import { parseDelegatedTask } from "../protocol/index.js";
import { toGraphJson } from "../../topology/index.js";
import type { Manager } from "./manager.js";
import { managerAuthorizer, type Refusal } from "../access/authorize.js";
import { POLICY_OPS, type AccessPolicy } from "../access/policy.js";

export const MANAGER_ROLE = "manager";

const askArgs = z.object({
  question: z.string().min(1).max(4_000),
  from: z.string().max(64).optional(),
  to: z.string().max(64).optional(),
  max_hops: z.number().int().min(1).max(32).optional(),
  mode: z.enum(["planned", "traced"]).optional(),
  /** The answer's id, chosen by the caller to follow its hops live (it must not repeat); else the manager's. */
  id: z.string().regex(/^q-[A-Za-z0-9][A-Za-z0-9-]{7,63}$/).optional(),
});
const skippedStepArgs = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/),
  scope: z.string().min(1).max(64),
  title: z.string().min(1).max(1_000),
  reason: z.string().min(1).max(2_000),
  linked_tasks: z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/)).max(100),
});
const delegateArgs = z.object({
  scope: z.string().min(1).max(64),
  task: z.unknown(),
  timeout_ms: z.number().int().positive().optional(),
  /** The plan this task is a step of: the access policy checks delegate_plan rather than delegate. */
  plan: z.string().min(1).max(128).optional(),
});
const delegationArgs = z.object({ task_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/) });
const authorizeArgs = z.object({ op: z.enum(POLICY_OPS), scopes: z.array(z.string().min(1).max(64)).max(1_000) });

function invalid(message: string): Error {
  return Object.assign(new Error(message), { code: "INVALID_TASK" });
}

/** An audit line for each request the access policy refused (its key by fingerprint-sized prefix only). */
function auditRefusal(manager: Manager, refusal: Refusal): void {
  const id = `refused-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  void manager.audit.append({ id, kind: "refused", at: new Date().toISOString(), op: refusal.op, scope: refusal.scope, key: refusal.principal ? `${refusal.principal.slice(0, 8)}…` : null, reason: refusal.reason });
}

export function serveManager(node: MeshNode, manager: Manager, access?: AccessPolicy): void {
  if (access) node.authorize(managerAuthorizer(access, () => manager.directory.scopes(), (refusal) => auditRefusal(manager, refusal)));
  node.handle("agents", () => manager.listAgents());
  node.handle("topology", async () => {
    const graph = await manager.topology();
    return { graph: toGraphJson(graph), unresolved: manager.scopeMap.unresolved.length };
  });
  node.handle("ask", async (args, context) => {
    const parsed = askArgs.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid(`invalid ask: ${issue?.path.length ? `${issue.path.join(".")}: ` : ""}${issue?.message ?? "?"}`);
    }
    const { question, from, to, max_hops: maxHops, mode, id } = parsed.data;
    const scopes = access ? { scopes: access.scopesFor(context.principal, "ask", manager.directory.scopes()) } : {};
    return manager.ask(question, { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(maxHops ? { maxHops } : {}), ...(mode ? { mode } : {}), ...(id ? { id } : {}), ...scopes });
  });
  // A client that gives up (CANCEL on the bus) cancels the task on its worker too.
  node.handle("delegate", async (args, context) => {
    const parsed = delegateArgs.safeParse(args);
    if (!parsed.success) throw invalid(`invalid delegate: ${parsed.error.issues[0]?.message ?? "?"}`);
    const task = parseDelegatedTask(parsed.data.task);
    const result = await manager.delegate(task, { scope: parsed.data.scope, signal: context.signal, ...(parsed.data.timeout_ms ? { timeoutMs: parsed.data.timeout_ms } : {}) });
    return { response: result.response, verdict: result.verdict, agent: result.agent.id, failovers: result.failovers, reassigned_from: result.reassigned_from ?? null };
  });
  // A client whose manager died asks the new one for its task by id: running or resumed here, it waits
  // for it; finished, it gets the recorded outcome.
  node.handle("delegation", async (args) => {
    const parsed = delegationArgs.safeParse(args);
    if (!parsed.success) throw invalid(`invalid delegation: ${parsed.error.issues[0]?.message ?? "?"}`);
    const running = manager.inflightDelegation(parsed.data.task_id);
    if (running) {
      const result = await running;
      return { response: result.response, verdict: result.verdict, agent: result.agent.id, failovers: result.failovers, reassigned_from: result.reassigned_from ?? null };
    }
    const stored = (await manager.audit.readOutputFile(parsed.data.task_id)) as { response?: unknown; verdict?: unknown; agent?: unknown } | null;
    if (stored?.response) return { response: stored.response, verdict: stored.verdict, agent: stored.agent, failovers: [], reassigned_from: null };
    throw Object.assign(new Error(`no task "${parsed.data.task_id}" was accepted by this fleet's manager`), { code: "not_found" });
  });
  node.handle("skipped_step", async (args) => {
    const parsed = skippedStepArgs.safeParse(args);
    if (!parsed.success) throw invalid(`invalid skipped_step: ${parsed.error.issues[0]?.message ?? "?"}`);
    await manager.recordSkippedStep(parsed.data);
    return { recorded: parsed.data.id };
  });
  // The access policy has already checked the op on every scope listed (a refusal is a NACK): say so.
  node.handle("authorize", (args) => {
    const parsed = authorizeArgs.safeParse(args);
    if (!parsed.success) throw invalid(`invalid authorize: ${parsed.error.issues[0]?.message ?? "?"}`);
    return { allowed: true, op: parsed.data.op, scopes: parsed.data.scopes };
  });
  node.handle("trace", async (args) => manager.audit.find(String((args as { id?: unknown })?.id ?? "")));
  node.handle("metrics", () => manager.metrics.snapshot());
}
