// A planned route (`mode: "planned"`, with `from` and `to`): the scope graph's shortest path between two
// scopes, asked hop by hop as DelegatedTasks (seed 003). Each hop is validated before the next; only its key
// findings and a reference to its full output travel on; the hop budget and cycles are guarded here and on
// the wire. The traced search (answer-question.ts) is the default answer; this is delegation along a route.
import type { DelegatedTask, TaskResponse } from "../../protocol/index.js";
import { findQueryPath, type ScopeGraph } from "../../../topology/index.js";
import type { Dispatched } from "../dispatch.js";
import type { Ownership } from "../ownership.js";
import type { Verdict } from "../validation/index.js";
import type { HopEvent } from "../search/trace-chain.js";
import { MAX_FOCUS_SYMBOLS, pointers, refineQuestion } from "./handoff.js";
import { MultiHopError, unknownScope, type HopRecord, type MultiHopResult } from "./result.js";
import { synthesize } from "./synthesis.js";

export interface PlannedRouteDeps {
  managerId: string;
  scopes: readonly string[];
  graph: ScopeGraph;
  ownership: Ownership;
  /** Run one hop's task on a scope (replica choice and fail-over included). */
  dispatch: (scope: string, task: DelegatedTask, trail: { path: string[]; hops: number; maxHops: number }) => Promise<Dispatched>;
  validate: (task: DelegatedTask, dispatched: Dispatched) => Promise<Verdict>;
  /** Store a hop's full output (written behind the answer); returns its reference at once. */
  storeHop: (hop: number, output: unknown) => string;
  /** Told of each hop as it is answered (`mesh web` draws the path as it runs). */
  onHop?: (event: HopEvent) => void;
}

export interface PlannedRouteRequest {
  id: string;
  question: string;
  from: string;
  to: string;
  maxHops: number;
}

function hopTask(request: PlannedRouteRequest, hop: number, question: string, focus: string[], handoff: string | undefined): DelegatedTask {
  return {
    id: `${request.id}-hop${hop}`,
    task: question,
    acceptance_criteria: [],
    ...(handoff ? { context: handoff } : {}),
    grounding: {
      strategy: "pgc_cite",
      overlay_hints: ["O1", "O3"],
      query_hints: focus.length > 0 ? [...focus, request.question] : [request.question],
      evidence_required: true,
    },
  };
}

function handoffFrom(previous: HopRecord | undefined): string | undefined {
  if (!previous) return undefined;
  const findings = previous.key_findings.map((f) => `- ${f}`).join("\n");
  return `Key findings from scope ${previous.scope} (hop ${previous.hop}):\n${findings}\nFull output: ${previous.output_ref}`;
}

async function runHop(
  deps: PlannedRouteDeps,
  request: PlannedRouteRequest,
  chain: HopRecord[],
  scope: string,
  focus: string[],
): Promise<{ record: HopRecord; response: TaskResponse }> {
  const previous = chain.at(-1);
  const hop = chain.length;
  const question = refineQuestion(request.question, previous?.scope ?? null, focus);
  const task = hopTask(request, hop, question, focus, handoffFrom(previous));
  const trail = { path: [deps.managerId, ...chain.map((h) => h.agent)], hops: hop + 1, maxHops: request.maxHops };
  const dispatched = await deps.dispatch(scope, task, trail);
  const verdict = await deps.validate(task, dispatched);
  const { response } = dispatched;
  // The reference is handed on before the write finishes (the manager writes hop outputs behind the answer).
  const outputRef = deps.storeHop(hop, { task, response, verdict, agent: dispatched.agent.id });
  deps.onHop?.({ hop, scope, agent: dispatched.agent.id, symbols: [] });
  const citations = response.grounding_evidence?.citations ?? [];
  const record: HopRecord = {
    hop,
    scope,
    agent: dispatched.agent.id,
    question,
    focus,
    status: response.status,
    key_findings: response.key_findings ?? [],
    citations: citations.map(({ file_path, line_start, line_end, sha256, similarity, similarity_kind, overlay }) => ({ file_path, line_start, line_end, sha256, similarity, similarity_kind, overlay })),
    confidence: response.grounding_evidence?.grounding_confidence ?? null,
    verdict: { status: verdict.status, code: verdict.code, reasons: verdict.reasons, warnings: verdict.warnings, citations_checked: verdict.citations_checked, citations_verified: verdict.citations_verified },
    output_ref: outputRef,
    failovers: dispatched.failovers.length,
  };
  return { record, response };
}

function plannedPath(deps: PlannedRouteDeps, from: string, to: string, maxHops: number): string[] {
  if (!deps.scopes.includes(to)) throw unknownScope(to, deps.scopes);
  const found = findQueryPath(deps.graph, from, to, { maxHops: maxHops - 1 });
  if (!found.ok) throw new MultiHopError(found.reason === "hop_limit" ? "hop_limit" : found.reason === "unknown_scope" ? "unknown_scope" : "no_path", found.detail);
  return [...found.path];
}

/**
 * A planned route: the BFS path through the scope graph from `from` to `to`, each hop a DelegatedTask to
 * its scope, validated before the next one runs; the next hop is focused on the symbols of its scope that
 * the previous hop's evidence mentions.
 */
export async function answerPlannedRoute(deps: PlannedRouteDeps, request: PlannedRouteRequest): Promise<MultiHopResult> {
  const started = Date.now();
  if (!deps.scopes.includes(request.from)) throw unknownScope(request.from, deps.scopes);
  const plan = plannedPath(deps, request.from, request.to, request.maxHops);
  const chain: HopRecord[] = [];
  let focus: string[] = [];
  let stoppedBecause = `reached ${request.to}`;
  for (const [hop, scope] of plan.entries()) {
    // findQueryPath already keeps the route within the budget and free of cycles; this guards the loop itself.
    if (hop >= request.maxHops) {
      stoppedBecause = `hop budget of ${request.maxHops} spent`;
      break;
    }
    const { record, response } = await runHop(deps, request, chain, scope, focus);
    chain.push(record);
    if (record.verdict.status === "rejected") {
      stoppedBecause = `hop ${record.hop} in ${scope} was rejected (${record.verdict.code ?? "invalid"})`;
      break;
    }
    const next = plan[hop + 1];
    if (next) focus = (pointers(response.grounding_evidence?.citations ?? [], record.key_findings, deps.ownership, scope).get(next) ?? []).slice(0, MAX_FOCUS_SYMBOLS);
  }
  return {
    id: request.id,
    question: request.question,
    mode: "planned",
    query_path: chain.map((h) => h.scope),
    knowledge_chain: chain,
    answer: synthesize(chain),
    total_agents_queried: new Set(chain.map((h) => h.agent)).size,
    safety: { max_hops: request.maxHops, actual_hops: chain.length, visited_agents: chain.map((h) => h.agent), stopped_because: stoppedBecause },
    elapsed_ms: Date.now() - started,
  };
}
