// Grounding benchmark: does a question reach the right chain of code? For each corpus (a real code base
// fetched at run time, split by `mesh up`'s automatic split) the fleet is launched as `mesh up` launches it,
// and every question of its case file is answered twice through the manager's endpoint: as the mesh answers
// by default (traced search), and as one scoped agent answers it without the mesh's routing (the baseline,
// in the same run: the question delegated as one task to every scope, the answer of the scope whose best
// citation scores highest). Per question and overall: start scope right, final scope right, chain recall,
// citations verified, off-topic honesty, latency (the round trip, not counting any CLI start).
// Usage: node dist/scripts/bench/grounding.js [--quick] [--json] [--corpus NAME]... [--cases DIR] [--cache DIR] [--repeat N] [--out FILE]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pino from "pino";
import { MeshClient } from "../../bus/index.js";
import type { MultiHopResult } from "../../agents/manager/answer/result.js";
import type { TaskResponse } from "../../agents/protocol/index.js";
import { fleetDown, fleetUp } from "../../src/fleet/up.js";
import { fleetClientCurve } from "../../src/security.js";
import type { FleetManifest } from "../../src/fleet/fleet-dir.js";
import { loadAllCases, type CaseFile, type GoldStep } from "./grounding/cases.js";
import { defaultCacheDir, prepareCorpus } from "./grounding/corpus.js";
import { scoreAnswer, type QuestionScore, type ScoredAnswer } from "./grounding/score.js";
import { benchEnvironment, formatTable, median, percentile, ratio, roundTo, sortedAscending, writeJsonFile } from "./stats.js";
import { exitOnSignals } from "./signals.js";

const RESULT_FILE = "bench-results/grounding.json";
/** The bundled corpus of --quick (the demo kernel in test/fixtures), which CI runs. */
const QUICK_CORPUS = "fixtures";
const ASK_TIMEOUT_MS = 120_000;
const METHODS = ["traced", "one_scope"] as const;
type Method = (typeof METHODS)[number];

interface Scored extends QuestionScore {
  /** The median of the question's asks (--repeat). */
  latency_ms: number;
  /** Its first ask: a question the fleet has not been asked before (the later asks find its per-question caches filled). */
  first_latency_ms: number;
}

interface MethodSummary {
  questions: number;
  start_right: number | null;
  final_right: number | null;
  chain_recall: number | null;
  offtopic_honest: string;
  citations: string;
  citations_all_verified: boolean;
  latency_p50_ms: number;
  latency_p90_ms: number;
  /** The median of the questions' first asks. */
  latency_first_p50_ms: number;
}

/** The scope a file falls in: the scope with the longest path holding it. */
function scopeOfFile(fleet: FleetManifest, file: string): string | null {
  let best: { scope: string; length: number } | null = null;
  for (const scope of fleet.scopes) {
    for (const path of scope.paths) {
      const holds = path.endsWith("/") ? file.startsWith(path) : file === path;
      if (holds && (!best || path.length > best.length)) best = { scope: scope.name, length: path.length };
    }
  }
  return best?.scope ?? null;
}

/** Gold steps with their scopes taken from this run's split (the case file's names are informative). */
function goldInSplit(cases: CaseFile, fleet: FleetManifest, warn: (line: string) => void): Map<string, GoldStep[]> {
  const out = new Map<string, GoldStep[]>();
  for (const q of cases.questions) {
    out.set(
      q.id,
      q.gold.map((step) => {
        const scope = scopeOfFile(fleet, step.file);
        if (scope === null) throw new Error(`${q.id}: gold file ${step.file} is in no scope of the split`);
        if (scope !== step.scope) warn(`${q.id}: ${step.file} is in scope ${scope} in this split, not ${step.scope}`);
        return { ...step, scope };
      }),
    );
  }
  return out;
}

function share(values: readonly (boolean | null)[]): number | null {
  const known = values.filter((v): v is boolean => v !== null);
  return known.length === 0 ? null : roundTo(known.filter(Boolean).length / known.length, 3);
}

function summarize(scores: readonly Scored[]): MethodSummary {
  const recalls = scores.map((s) => s.recall).filter((r): r is number => r !== null);
  const offtopic = scores.filter((s) => s.kind === "offtopic");
  const checked = scores.reduce((n, s) => n + s.citations_checked, 0);
  const verified = scores.reduce((n, s) => n + s.citations_verified, 0);
  const latencies = sortedAscending(scores.map((s) => s.latency_ms));
  return {
    questions: scores.length,
    start_right: share(scores.map((s) => s.start_right)),
    final_right: share(scores.map((s) => s.final_right)),
    chain_recall: recalls.length === 0 ? null : roundTo(recalls.reduce((a, b) => a + b, 0) / recalls.length, 3),
    offtopic_honest: `${offtopic.filter((s) => s.honest_no_chain).length}/${offtopic.length}`,
    citations: `${verified}/${checked}`,
    citations_all_verified: verified === checked,
    latency_p50_ms: roundTo(median(latencies), 1),
    latency_p90_ms: roundTo(percentile(latencies, 0.9), 1),
    latency_first_p50_ms: roundTo(median(sortedAscending(scores.map((s) => s.first_latency_ms))), 1),
  };
}

interface Delegated {
  response: TaskResponse;
  agent: string;
}

/**
 * The baseline: what one scoped agent answers without the mesh's routing. The question goes as one
 * DelegatedTask (pgc_cite, evidence required, as `mesh delegate` sends it) to every scope at once; the
 * answer is the response whose best citation scores highest, as one hop of that scope.
 */
async function askOneScope(client: MeshClient, id: string, question: string, scopes: readonly string[]): Promise<ScoredAnswer> {
  const task = { id, task: question, acceptance_criteria: [], grounding: { strategy: "pgc_cite", evidence_required: true } };
  const answers = await Promise.all(scopes.map(async (scope) => ({ scope, ...((await client.request("delegate", { scope, task: { ...task, id: `${id}-${scope}` } }, { timeoutMs: ASK_TIMEOUT_MS })) as Delegated) })));
  const best = (a: (typeof answers)[number]) => Math.max(0, ...(a.response.grounding_evidence?.citations ?? []).map((c) => c.similarity));
  const chosen = answers.reduce((top, a) => (best(a) > best(top) ? a : top));
  const citations = chosen.response.grounding_evidence?.citations ?? [];
  return { knowledge_chain: citations.length > 0 ? [{ scope: chosen.scope, citations }] : [] };
}

async function askTimed(client: MeshClient, id: string, question: string, method: Method, repeat: number, scopes: readonly string[]): Promise<{ result: ScoredAnswer; ms: number; firstMs: number }> {
  const times: number[] = [];
  let result: ScoredAnswer | null = null;
  for (let i = 0; i < repeat; i++) {
    const started = process.hrtime.bigint();
    result = method === "one_scope" ? await askOneScope(client, `${id}-r${i}`, question, scopes) : ((await client.request("ask", { question }, { timeoutMs: ASK_TIMEOUT_MS })) as MultiHopResult);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { result: result!, ms: median(times), firstMs: times[0]! };
}

interface CorpusRun {
  corpus: string;
  language: string;
  scopes: number;
  files_fetched: boolean;
  /**
   * The first question after the fleet is up (unscored): what a user's first question costs — the manager
   * derives the topology, each worker builds its call graph and search caches, and runs its code cold.
   */
  first_ask_ms: number;
  methods: Record<Method, MethodSummary>;
  /** The median traced question's requests to the fleet (MultiHopResult.cost). */
  cost_p50: CostSummary;
  /** Per question: the scores of both methods, and the traced answer's chain and decisions, to see why. */
  questions: { id: string; question: string; kind: string; gold: string[]; traced: Scored; one_scope: Scored; answer: NonNullable<MultiHopResult["chain"]>; decisions: NonNullable<MultiHopResult["decisions"]>; cost: MultiHopResult["cost"] | null }[];
}

/** Medians over traced questions of what each asked of the fleet: entry requests, expansions, and the requests sent for them. */
interface CostSummary {
  entry_requests: number;
  expansions: number;
  expand_requests: number;
  /** The expansions' medians by kind (MultiHopResult.cost.expansions_by_kind). */
  starts: number;
  callees: number;
  callers: number;
}

function costSummary(costs: readonly (MultiHopResult["cost"] | null)[]): CostSummary {
  const known = costs.filter((c): c is NonNullable<MultiHopResult["cost"]> => c !== null && c !== undefined);
  const p50 = (pick: (c: NonNullable<MultiHopResult["cost"]>) => number) => (known.length === 0 ? 0 : median(known.map(pick)));
  return {
    entry_requests: p50((c) => c.entry_requests),
    expansions: p50((c) => c.expansions),
    expand_requests: p50((c) => c.expand_requests ?? 0),
    starts: p50((c) => c.expansions_by_kind.starts),
    callees: p50((c) => c.expansions_by_kind.callees),
    callers: p50((c) => c.expansions_by_kind.callers),
  };
}

async function runCorpus(cases: CaseFile, cacheDir: string, repeat: number, log: (line: string) => void): Promise<CorpusRun> {
  const { root, fetched } = prepareCorpus(cases, cacheDir);
  log(`${cases.corpus}: ${fetched ? "fetched" : "cached"} at ${root}; launching the fleet`);
  const logger = pino({ level: "silent" });
  const up = await fleetUp({ root, replicas: 1, logger, quiet: true });
  liveFleet = up.dir;
  const client = new MeshClient({ endpoint: up.fleet.manager!.endpoint, timeoutMs: ASK_TIMEOUT_MS, attempts: 1, logger, ...fleetClientCurve(up.dir) });
  try {
    log(`${cases.corpus}: ${up.fleet.scopes.length} scopes, ${cases.questions.length} questions`);
    const gold = goldInSplit(cases, up.fleet, (line) => log(`  note: ${line}`));
    // One unscored ask first: the manager derives the topology and the workers load their graphs on first use.
    const firstAt = performance.now();
    await client.request("ask", { question: cases.questions[0]!.question }, { timeoutMs: ASK_TIMEOUT_MS });
    const firstAsk = roundTo(performance.now() - firstAt, 1);
    log(`${cases.corpus}: first question (unscored) ${firstAsk} ms`);
    const questions: CorpusRun["questions"] = [];
    for (const q of cases.questions) {
      const steps = gold.get(q.id)!;
      const scored = {} as Record<Method, Scored>;
      let traced: MultiHopResult | null = null;
      const scopes = up.fleet.scopes.map((s) => s.name);
      for (const method of METHODS) {
        const { result, ms, firstMs } = await askTimed(client, `grounding-${q.id}`, q.question, method, repeat, scopes);
        scored[method] = { ...scoreAnswer(q, steps, result, root), latency_ms: roundTo(ms, 1), first_latency_ms: roundTo(firstMs, 1) };
        if (method === "traced") traced = result as MultiHopResult;
      }
      if (!traced) throw new Error("unreachable: the traced answer is asked first");
      const t = scored.traced;
      log(`  ${q.id} ${q.kind.padEnd(8)} start ${mark(t.start_right)} final ${mark(t.final_right)} recall ${t.recall ?? "-"} ${t.outcome}/${t.confidence} ${t.latency_ms} ms  [one scope recall ${scored.one_scope.recall ?? "-"}]`);
      questions.push({ id: q.id, question: q.question, kind: q.kind, gold: steps.map((s) => `${s.file}:${s.symbol} [${s.scope}]`), traced: scored.traced, one_scope: scored.one_scope, answer: traced.chain ?? [], decisions: traced.decisions ?? [], cost: traced.cost ?? null });
    }
    const methods = Object.fromEntries(METHODS.map((m) => [m, summarize(questions.map((q) => q[m]))])) as Record<Method, MethodSummary>;
    return { corpus: cases.corpus, language: cases.language, scopes: up.fleet.scopes.length, files_fetched: fetched, first_ask_ms: firstAsk, methods, cost_p50: costSummary(questions.map((q) => q.cost)), questions };
  } finally {
    await client.close();
    await fleetDown(up.dir);
    liveFleet = null;
  }
}

/** The fleet a corpus runs on while it is up: a signal stops it before the benchmark exits. */
let liveFleet: string | null = null;

/** On SIGINT or SIGTERM, stop the fleet that is up (its workers and manager are detached processes) and remove the quick run's home, then exit. */
function stopOnSignals(log: (line: string) => void, quickHome: string | null): void {
  exitOnSignals(
    (signal) => log(`${signal}: stopping${liveFleet ? " the fleet" : ""}`),
    async () => {
      const fleet = liveFleet;
      try {
        if (fleet) await fleetDown(fleet);
      } catch (error) {
        log(`could not stop the fleet: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        if (quickHome) rmSync(quickHome, { recursive: true, force: true });
      }
    },
  );
}

function mark(value: boolean | null): string {
  return value === null ? "-" : value ? "✓" : "✗";
}

function percent(value: number | null): string {
  return value === null ? "-" : `${Math.round(value * 100)}%`;
}

function table(runs: readonly CorpusRun[], overall: Record<Method, MethodSummary>): string {
  const rows: string[][] = [];
  const row = (name: string, scopes: string, method: Method, s: MethodSummary) => [name, scopes, method, String(s.questions), percent(s.start_right), percent(s.final_right), percent(s.chain_recall), s.offtopic_honest, s.citations, String(s.latency_p50_ms), String(s.latency_p90_ms), String(s.latency_first_p50_ms)];
  for (const run of runs) for (const method of METHODS) rows.push(row(run.corpus, String(run.scopes), method, run.methods[method]));
  for (const method of METHODS) rows.push(row("overall", "", method, overall[method]));
  return formatTable(["corpus", "scopes", "method", "questions", "start", "final", "recall", "off-topic honest", "citations verified", "p50 ms", "p90 ms", "first ask p50 ms"], rows);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { quick: { type: "boolean", default: false }, json: { type: "boolean", default: false }, corpus: { type: "string", multiple: true }, cache: { type: "string" }, cases: { type: "string" }, repeat: { type: "string" }, out: { type: "string" } },
  });
  const quick = values.quick ?? false;
  // --cases DIR: case files kept elsewhere (a held-out set written before the mesh ever answered it).
  const all = values.cases ? loadAllCases(values.cases) : loadAllCases();
  const wanted = values.corpus ?? (quick ? [QUICK_CORPUS] : all.filter((c) => c.corpus !== QUICK_CORPUS).map((c) => c.corpus));
  const unknown = wanted.filter((name) => !all.some((c) => c.corpus === name));
  if (unknown.length > 0) throw new Error(`no case file for corpus ${unknown.join(", ")}; there are: ${all.map((c) => c.corpus).join(", ")}`);
  const repeat = Math.max(1, Number(values.repeat ?? (quick ? 1 : 3)));
  const cacheDir = values.cache ?? defaultCacheDir();
  // Fleets of the benchmark live apart from the user's: a private MESH_HOME, kept between full runs so
  // their indexes are reused, fresh (and removed) for a quick run.
  const home = quick ? mkdtempSync(join(tmpdir(), "grounding-mesh-")) : join(cacheDir, "mesh-home");
  process.env["MESH_HOME"] = home;
  const log = (line: string) => process.stderr.write(`[grounding] ${line}\n`);
  stopOnSignals(log, quick ? home : null);
  const runs: CorpusRun[] = [];
  try {
    for (const name of wanted) runs.push(await runCorpus(all.find((c) => c.corpus === name)!, cacheDir, repeat, log));
  } finally {
    if (quick) rmSync(home, { recursive: true, force: true });
  }
  const overall = Object.fromEntries(METHODS.map((m) => [m, summarize(runs.flatMap((r) => r.questions.map((q) => q[m])))])) as Record<Method, MethodSummary>;
  const report = {
    benchmark: "grounding",
    quick,
    repeat,
    environment: benchEnvironment(),
    overall,
    ratios: { latency_p50_traced_over_one_scope: ratio(overall.traced.latency_p50_ms, overall.one_scope.latency_p50_ms) },
    cost_p50: costSummary(runs.flatMap((r) => r.questions.map((q) => q.cost))),
    corpora: runs,
  };
  writeJsonFile(values.out ?? RESULT_FILE, report);
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else process.stdout.write(`${table(runs, overall)}\n`);
}

main().catch((error) => {
  process.stderr.write(`grounding: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
