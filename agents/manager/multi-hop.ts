// Multi-hop questions across scopes, two ways: planned (a BFS path through the scope graph, then hop
// by hop) and evidence-following (start where the named entities live, follow the citations into the
// scopes they point to). Every hop is validated; only key findings and a reference to the full hop
// output travel to the next hop (seed 003); hop budget and cycles are guarded here and on the wire.
import type { Citation, DelegatedTask, TaskResponse } from "../protocol/index.js";
import { findQueryPath, type ScopeGraph } from "../../topology/index.js";
import { MAX_FOCUS_SYMBOLS, namedElsewhere, nextScope, pointers, refineQuestion } from "./hop-planning.js";
import { synthesize } from "./answer-synthesis.js";
import { asksForCallers, nextCaller } from "./callers.js";
import { relevantLeads } from "./lead-relevance.js";
import type { Ownership } from "./question-names.js";
import { scopeNamedIn, scopeOfEntities, scopeOfPlainNames } from "./start-scope.js";
import type { Dispatched } from "./dispatch.js";
import type { Verdict } from "./validation/index.js";

export type HopMode = "planned" | "evidence" | "traced";

export interface HopRecord {
  hop: number;
  scope: string;
  agent: string;
  question: string;
  focus: string[];
  status: TaskResponse["status"];
  key_findings: string[];
  citations: Pick<Citation, "file_path" | "line_start" | "line_end" | "sha256" | "similarity" | "similarity_kind" | "overlay">[];
  confidence: string | null;
  verdict: Pick<Verdict, "status" | "code" | "reasons" | "warnings" | "citations_checked" | "citations_verified">;
  output_ref: string;
  failovers: number;
}

/** One step of a traced chain as the answer carries it (`--json`'s `chain`). */
export interface ChainStepRecord {
  scope: string;
  agent: string;
  symbol: string;
  file_path: string;
  line_start: number;
  line_end: number;
  sha256: string;
  call_site: { file_path: string; line: number; text: string; sha256: string } | null;
}

export interface MultiHopResult {
  id: string;
  question: string;
  mode: HopMode;
  query_path: string[];
  knowledge_chain: HopRecord[];
  /** The traced path (mode "traced" and planned routes on the search); absent from the older modes. */
  chain?: ChainStepRecord[];
  outcome?: "chain" | "partial" | "no_chain";
  confidence?: "high" | "medium" | "low";
  /** Share of the question's weighted terms the chain covers. */
  coverage?: number;
  /** Why the search started where it did, which exits it took, why it stopped. */
  decisions?: { at: string; detail: string }[];
  answer: string;
  total_agents_queried: number;
  safety: { max_hops: number; actual_hops: number; visited_agents: string[]; stopped_because: string };
  elapsed_ms: number;
}

export interface MultiHopDeps {
  managerId: string;
  scopes: readonly string[];
  graph: ScopeGraph;
  ownership: Ownership;
  /** Run one hop's task on a scope (replica choice and fail-over included). */
  dispatch: (scope: string, task: DelegatedTask, trail: { path: string[]; hops: number; maxHops: number }) => Promise<Dispatched>;
  validate: (task: DelegatedTask, dispatched: Dispatched) => Promise<Verdict>;
  /** Store a hop's full output (written behind the answer); returns its reference at once. */
  storeHop: (hop: number, output: unknown) => string;
  /** Which scope best answers a question when it names no known entity (asks every scope). */
  bestScopeFor: (question: string) => Promise<string | null>;
}

export interface MultiHopRequest {
  id: string;
  question: string;
  from?: string;
  to?: string;
  maxHops: number;
  mode?: HopMode;
}

export class MultiHopError extends Error {
  override readonly name = "MultiHopError";
  constructor(
    readonly code: "unknown_scope" | "no_path" | "hop_limit" | "no_start",
    message: string,
  ) {
    super(message);
  }
}

function hopTask(request: MultiHopRequest, hop: number, question: string, focus: string[], handoff: string | undefined): DelegatedTask {
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
  deps: MultiHopDeps,
  request: MultiHopRequest,
  chain: HopRecord[],
  scope: string,
  focus: string[],
  asked: "implemented" | "called" = "implemented",
): Promise<{ record: HopRecord; response: TaskResponse }> {
  const previous = chain.at(-1);
  const hop = chain.length;
  const question = refineQuestion(request.question, previous?.scope ?? null, focus, asked);
  const task = hopTask(request, hop, question, focus, handoffFrom(previous));
  const trail = { path: [deps.managerId, ...chain.map((h) => h.agent)], hops: hop + 1, maxHops: request.maxHops };
  const dispatched = await deps.dispatch(scope, task, trail);
  const verdict = await deps.validate(task, dispatched);
  const { response } = dispatched;
  // The reference is handed on before the write finishes (the manager writes hop outputs behind the answer).
  const outputRef = deps.storeHop(hop, { task, response, verdict, agent: dispatched.agent.id });
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

/** Scopes listed in full in an unknown-scope error; a larger fleet is summed up. */
const LISTED_SCOPES = 12;

/** A scope no worker serves: say which ones do, and the likeliest one meant ("driver" → drivers). */
export function unknownScope(name: string, scopes: readonly string[]): MultiHopError {
  const lower = name.toLowerCase();
  const near = scopes.filter((scope) => scope.toLowerCase().startsWith(lower) || lower.startsWith(scope.toLowerCase()) || scope.toLowerCase().includes(lower));
  const sorted = [...scopes].sort();
  const listed = sorted.length > LISTED_SCOPES ? `${sorted.slice(0, LISTED_SCOPES).join(", ")}, … (${sorted.length} in all; mesh agents lists them)` : sorted.join(", ");
  const hint = near.length > 0 && near.length <= 3 ? `; did you mean ${near.map((s) => `"${s}"`).join(" or ")}?` : "";
  return new MultiHopError("unknown_scope", `no worker serves scope "${name}" (scopes: ${listed || "none"})${hint}`);
}

async function startScope(deps: MultiHopDeps, request: MultiHopRequest): Promise<string> {
  if (request.from) {
    if (!deps.scopes.includes(request.from)) throw unknownScope(request.from, deps.scopes);
    return request.from;
  }
  // The only scope; else the names a question uses (code-shaped, then plain words only one scope defines,
  // like kmalloc), else the scope it names ("the email parser"), else the best match of all.
  if (deps.scopes.length === 1) return deps.scopes[0] as string;
  const start =
    scopeOfEntities(request.question, deps.ownership, deps.scopes) ??
    scopeOfPlainNames(request.question, deps.ownership, deps.scopes) ??
    scopeNamedIn(request.question, deps.scopes) ??
    (await deps.bestScopeFor(request.question));
  if (!start) throw new MultiHopError("no_start", "the question names nothing any scope knows; give --from SCOPE");
  return start;
}

function plannedPath(deps: MultiHopDeps, from: string, to: string, maxHops: number): string[] {
  if (!deps.scopes.includes(to)) throw unknownScope(to, deps.scopes);
  const found = findQueryPath(deps.graph, from, to, { maxHops: maxHops - 1 });
  if (!found.ok) throw new MultiHopError(found.reason === "hop_limit" ? "hop_limit" : found.reason === "unknown_scope" ? "unknown_scope" : "no_path", found.detail);
  return [...found.path];
}

/**
 * Where evidence-following goes next: to the target when the evidence leads there; else to an unvisited
 * scope owning names the question asks about (the user's own interest comes before a generic lead, like
 * a return type, that the evidence happens to mention); else along this hop's evidence; else along a lead
 * an earlier hop found and the chain has not taken yet. Without a target, only leads that bear on the
 * question are followed (relevantLeads): once what it names is answered, a lead to `print` is no reason
 * to go on.
 */
function nextHop(
  deps: MultiHopDeps,
  request: MultiHopRequest,
  leads: Map<string, string[]>,
  earlier: Map<string, string[]>,
  visited: ReadonlySet<string>,
): { scope: string; focus: string[] } | null {
  if (request.to && leads.has(request.to) && !visited.has(request.to)) return nextScope(leads, visited, request.to);
  const named = namedElsewhere(request.question, deps.ownership, deps.scopes, visited);
  if (named) {
    const focus = [...new Set([...named.focus, ...(leads.get(named.scope) ?? []), ...(earlier.get(named.scope) ?? [])])];
    return { scope: named.scope, focus: focus.slice(0, MAX_FOCUS_SYMBOLS) };
  }
  if (request.to) return nextScope(leads, visited, request.to) ?? nextScope(earlier, visited, request.to);
  const bearing = (found: Map<string, string[]>) => relevantLeads(found, request.question, deps.ownership, visited);
  return nextScope(bearing(leads), visited) ?? nextScope(bearing(earlier), visited);
}

/** Leads of a hop added to those found before it, for the chain to come back to. */
function remember(earlier: Map<string, string[]>, leads: Map<string, string[]>): void {
  for (const [scope, symbols] of leads) earlier.set(scope, [...new Set([...(earlier.get(scope) ?? []), ...symbols])]);
}

export async function answerMultiHop(deps: MultiHopDeps, request: MultiHopRequest): Promise<MultiHopResult> {
  const started = Date.now();
  const from = await startScope(deps, request);
  const mode: HopMode = request.mode ?? (request.to ? "planned" : "evidence");
  if (mode === "planned" && !request.to) throw new MultiHopError("no_path", "a planned query needs a target scope (--to)");
  const plan = mode === "planned" ? plannedPath(deps, from, request.to as string, request.maxHops) : null;
  const chain: HopRecord[] = [];
  const visited = new Set<string>();
  const earlier = new Map<string, string[]>();
  // "Who calls X?" without a target: from X's scope to the scopes calling it, not along X's own callees.
  const callers = mode === "evidence" && !request.to && asksForCallers(request.question);
  let scope: string | null = from;
  let focus: string[] = [];
  let stoppedBecause = "";
  while (scope) {
    if (chain.length >= request.maxHops) {
      stoppedBecause = `hop budget of ${request.maxHops} spent`;
      break;
    }
    visited.add(scope);
    const { record, response } = await runHop(deps, request, chain, scope, focus, callers && chain.length > 0 ? "called" : "implemented");
    chain.push(record);
    const leads = pointers(response.grounding_evidence?.citations ?? [], record.key_findings, deps.ownership, scope);
    if (record.verdict.status === "rejected") {
      stoppedBecause = `hop ${record.hop} in ${scope} was rejected (${record.verdict.code ?? "invalid"})`;
      break;
    }
    if (plan) {
      const next = plan[chain.length];
      if (!next) {
        stoppedBecause = `reached ${scope}`;
        break;
      }
      focus = (leads.get(next) ?? []).slice(0, 3);
      scope = next;
      continue;
    }
    if (request.to && scope === request.to) {
      stoppedBecause = `reached ${scope}`;
      break;
    }
    if (callers) {
      const caller = nextCaller(request.question, deps.ownership, visited);
      if (!caller) stoppedBecause = "no other scope calls what the question names";
      scope = caller?.scope ?? null;
      focus = caller?.focus ?? [];
      continue;
    }
    const next = nextHop(deps, request, leads, earlier, visited);
    remember(earlier, leads);
    if (!next) stoppedBecause = `the evidence in ${scope} points to no unvisited scope${request.to ? "" : " that bears on the question"}, and the question names nothing another one owns`;
    scope = next?.scope ?? null;
    focus = next?.focus ?? [];
  }
  return {
    id: request.id,
    question: request.question,
    mode,
    query_path: chain.map((h) => h.scope),
    knowledge_chain: chain,
    answer: synthesize(chain),
    total_agents_queried: new Set(chain.map((h) => h.agent)).size,
    safety: { max_hops: request.maxHops, actual_hops: chain.length, visited_agents: chain.map((h) => h.agent), stopped_because: stoppedBecause },
    elapsed_ms: Date.now() - started,
  };
}
