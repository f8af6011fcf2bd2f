// The worker's `task` op: a DelegatedTask in, a TaskResponse out, following the grounding strategy
// of seed 002 §3 and the error scenarios of §5. Never throws: every outcome is a valid response.
import type { Logger } from "pino";
import {
  buildGroundingEvidence,
  delegationDepthOf,
  encodeTaskResponse,
  FALLBACK_OVERLAY,
  MAX_DELEGATION_DEPTH,
  parseDelegatedTask,
  ProtocolSchemaError,
  protocolVersionFor,
  requiresEvidence,
  TaskError,
  taskErrorFrom,
  type Citation,
  type DelegatedTask,
  type OverlayId,
  type TaskResponse,
} from "../protocol/index.js";
import type { Executor, ExecutorOutput, ScopeInfo } from "./executor.js";
import type { GroundingSource } from "./grounding-source.js";

/** Citations gathered per query before the response keeps the best MAX_CITATIONS. */
export const EVIDENCE_PER_QUERY = 5;
/** Share of the remaining time a PGC query may take before it counts as timed out. */
export const QUERY_BUDGET_SHARE = 0.5;

export interface TaskDeps {
  source: GroundingSource;
  executor: Executor;
  scope: ScopeInfo;
  workerId: string;
  logger: Logger;
}

export interface TaskCall {
  deadline: number;
  signal: AbortSignal;
}

interface Gathered {
  citations: Citation[];
  queries: string[];
  overlays: OverlayId[];
  warnings: string[];
}

function failure(taskId: string, version: TaskResponse["protocol_version"], status: "failed" | "blocked", error: TaskError, started: number): TaskResponse {
  return encodeTaskResponse({
    task_id: taskId,
    status,
    result: error.message,
    protocol_version: version,
    error: error.toWire(),
    metrics: { elapsed_ms: Date.now() - started, pgc_queries: 0 },
  });
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TaskError("PGC_TIMEOUT", `${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Decide which overlays to query: the hinted ones that exist, else O1 with a warning (seed §5.3). */
async function chooseOverlays(task: DelegatedTask, source: GroundingSource, scope: string, deadline: number): Promise<{ overlays?: OverlayId[]; warnings: string[] }> {
  const hinted = task.grounding?.overlay_hints;
  if (!hinted || hinted.length === 0) return { warnings: [] };
  let available = new Set(source.overlays());
  const missing = hinted.filter((o) => !available.has(o));
  if (missing.length > 0 && source.buildOverlays) available = new Set(await source.buildOverlays(missing, deadline).catch(() => [...available]));
  const usable = hinted.filter((o) => available.has(o));
  const stillMissing = hinted.filter((o) => !available.has(o));
  const warnings = stillMissing.map((o) => `overlay ${o} is not available in scope ${scope}`);
  if (usable.length > 0) return { overlays: usable, warnings };
  return { overlays: [FALLBACK_OVERLAY], warnings: [...warnings, `none of the hinted overlays is available; fell back to ${FALLBACK_OVERLAY}`] };
}

async function gather(queries: string[], deps: TaskDeps, overlays: OverlayId[] | undefined, call: TaskCall): Promise<Citation[]> {
  const budget = Math.max(1, Math.floor((call.deadline - Date.now()) * QUERY_BUDGET_SHARE));
  const found: Citation[] = [];
  const seen = new Set<string>();
  for (const query of queries) {
    const hits = await withTimeout(deps.source.query(query, { overlays, topK: EVIDENCE_PER_QUERY, signal: call.signal }), budget, `PGC query "${query.slice(0, 60)}"`).catch((error: unknown) => {
      // Any failure of the evidence source is a PGC failure: the task is blocked, not failed (seed 002 §5.2).
      throw error instanceof TaskError ? error : new TaskError("PGC_QUERY_FAILED", `PGC query failed: ${(error as Error).message ?? String(error)}`);
    });
    for (const hit of hits) {
      const key = `${hit.file_path}:${hit.line_start}-${hit.line_end}`;
      if (!seen.has(key)) {
        seen.add(key);
        found.push(hit);
      }
    }
  }
  return found;
}

function queriesFor(task: DelegatedTask, executed?: ExecutorOutput): string[] {
  if (executed) return [executed.result.slice(0, 500)];
  const hints = task.grounding?.query_hints ?? [];
  return hints.length > 0 ? hints : [task.task];
}

async function ground(task: DelegatedTask, deps: TaskDeps, call: TaskCall, executed?: ExecutorOutput): Promise<Gathered> {
  const { overlays, warnings } = await chooseOverlays(task, deps.source, deps.scope.name, call.deadline);
  const queries = queriesFor(task, executed);
  const citations = await gather(queries, deps, overlays, call);
  return { citations, queries, overlays: overlays ?? [], warnings };
}

function respond(task: DelegatedTask, output: ExecutorOutput, gathered: Gathered | undefined, started: number): TaskResponse {
  const version = protocolVersionFor(task);
  const evidence = gathered
    ? buildGroundingEvidence({ queries_executed: gathered.queries, overlays_consulted: gathered.overlays, citations: gathered.citations })
    : undefined;
  const needsEvidence = requiresEvidence(task);
  let status = output.status;
  let error = output.error;
  if (needsEvidence && status === "completed" && (!evidence || evidence.citations.length === 0)) {
    status = "partial";
    error = new TaskError("GROUNDING_INSUFFICIENT", "evidence was required but the PGC returned no citation for this task").toWire();
  }
  return encodeTaskResponse({
    task_id: task.id,
    status,
    result: output.result,
    protocol_version: version,
    ...(output.clarification_request && status === "needs_clarification" ? { clarification_request: output.clarification_request } : {}),
    ...(error && status !== "completed" && status !== "needs_clarification" ? { error } : {}),
    ...(gathered && gathered.warnings.length > 0 ? { overlay_warnings: gathered.warnings } : {}),
    ...(evidence ? { grounding_evidence: evidence } : {}),
    ...(output.key_findings && output.key_findings.length > 0 ? { key_findings: output.key_findings.slice(0, 10) } : {}),
    metrics: { elapsed_ms: Date.now() - started, pgc_queries: gathered?.queries.length ?? 0 },
  });
}

/** Serve one task. Strategy none (or a legacy task) runs the executor without grounding. */
export async function handleTask(raw: unknown, deps: TaskDeps, call: TaskCall): Promise<TaskResponse> {
  const started = Date.now();
  let task: DelegatedTask;
  try {
    task = parseDelegatedTask(raw);
  } catch (error) {
    const id = typeof (raw as { id?: unknown })?.id === "string" ? ((raw as { id: string }).id.slice(0, 128) || "unknown") : "unknown";
    const detail = error instanceof ProtocolSchemaError ? error.message : String(error);
    return failure(id, "2.0", "failed", new TaskError("INVALID_TASK", `the task is not a valid DelegatedTask: ${detail}`), started);
  }
  const version = protocolVersionFor(task);
  if (delegationDepthOf(task) > MAX_DELEGATION_DEPTH) {
    return failure(task.id, version, "failed", new TaskError("DELEGATION_DEPTH_EXCEEDED", `delegation depth ${delegationDepthOf(task)} exceeds ${MAX_DELEGATION_DEPTH}`), started);
  }
  const strategy = task.grounding?.strategy ?? "none";
  const log = deps.logger.child({ task: task.id, strategy });
  let gathered: Gathered | undefined;
  try {
    if (strategy === "pgc_first" || strategy === "pgc_cite") gathered = await ground(task, deps, call);
    const input = { task, scope: deps.scope, workerId: deps.workerId, evidence: gathered?.citations ?? [], deadline: call.deadline, signal: call.signal, logger: log };
    const output = await deps.executor.execute(input);
    if (strategy === "pgc_verify") gathered = await ground(task, deps, call, output);
    return respond(task, output, gathered, started);
  } catch (error) {
    const taskError = taskErrorFrom(error);
    log.warn({ err: error, code: taskError.code }, "task could not be served");
    // A PGC failure blocks the task with low confidence and changes nothing (seed 002 §5.2).
    const pgcFailure = taskError.code === "PGC_TIMEOUT" || taskError.code === "PGC_QUERY_FAILED";
    return failure(task.id, version, pgcFailure ? "blocked" : "failed", taskError, started);
  }
}
