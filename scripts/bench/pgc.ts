// PGC benchmark: cold index build rate (MB/s, lines/s) with worker threads and on one thread, no-change
// reopen and one-file-change rebuild (with its phases) against the cold build, and `ask` latency on real
// code available offline.
// Usage: node dist/scripts/bench/pgc.js [--quick] [--json] [--root DIR --scope-path P ...]
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pino from "pino";
import { openPgc, type BuildPhase, type OpenPgcOptions } from "../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../agents/pgc/pgc.js";
import { benchEnvironment, formatNumber, formatTable, median, percentile, ratio, roundTo, sortedAscending, writeJsonFile } from "./stats.js";

const FULL = { roots: ["/usr/lib/python3.11"], paths: [] as string[], queries: 400 };
const QUICK = { roots: ["/usr/lib/python3.11"], paths: ["json/", "email/", "http/"], queries: 100 };
const RESULT_FILE = "bench-results/pgc.json";
const logger = pino({ level: "silent" });

/** Milliseconds spent in each build phase, from openPgc's progress events (a phase lasts until the next begins). */
function phaseClock(): { onProgress: NonNullable<OpenPgcOptions["onProgress"]>; phases: () => Record<string, number> } {
  const spent = new Map<BuildPhase | "start", number>();
  let current: BuildPhase | "start" = "start";
  let since = performance.now();
  const switchTo = (phase: BuildPhase | "start") => {
    const now = performance.now();
    spent.set(current, (spent.get(current) ?? 0) + now - since);
    current = phase;
    since = now;
  };
  return {
    onProgress: (event) => {
      if (event.phase !== current) switchTo(event.phase);
    },
    phases: () => {
      switchTo(current);
      return Object.fromEntries([...spent].map(([phase, ms]) => [phase, roundTo(ms, 0)]));
    },
  };
}

function timeIt<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  return work().then((value) => ({ value, ms: performance.now() - started }));
}

/** Questions drawn from the scope itself (doc-comment summaries) and plain words, deterministic. */
function questionsFrom(pgc: Pgc, count: number): string[] {
  const docs = pgc.data.docs.filter((d) => d.overlay === "O1" && (d.fields.doc ?? "").length > 20);
  const step = Math.max(1, Math.floor(docs.length / count));
  const questions: string[] = [];
  for (let i = 0; i < docs.length && questions.length < count; i += step) questions.push((docs[i]?.fields.doc ?? "").split(/[.\n]/)[0] ?? "");
  return questions.filter((q) => q.length > 0);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean" }, json: { type: "boolean" }, root: { type: "string" }, "scope-path": { type: "string", multiple: true } } });
  const preset = values.quick ? QUICK : FULL;
  const root = values.root ?? preset.roots[0] ?? "/usr/lib/python3.11";
  const scopePaths = values["scope-path"] ?? preset.paths;
  const work = mkdtempSync(join(tmpdir(), "mesh-bench-pgc-"));
  try {
    // A private copy, so the one-file change below never touches the real tree.
    const copy = join(work, "src");
    if (scopePaths.length > 0) for (const p of scopePaths) cpSync(join(root, p), join(copy, p), { recursive: true });
    else cpSync(root, copy, { recursive: true, filter: (src) => !src.includes("__pycache__") });
    const cacheRoot = join(work, "cache");
    const open = (extra: Partial<OpenPgcOptions> = {}) => openPgc({ scope: "bench", root: copy, scopePaths, cacheRoot, logger, ...extra });
    const cold = await timeIt(() => open());
    const stats = cold.value.data.stats;
    // The same cold build on one thread, into its own cache, in the same run (the machine's load drifts).
    const coldOneThread = await timeIt(() => open({ cacheRoot: join(work, "cache-one-thread"), threads: 1 }));
    const reopen = await timeIt(() => open());
    const changed = cold.value.data.files.find((f) => f.language !== "text")?.path ?? "";
    appendFileSync(join(copy, changed), "\n# changed by the benchmark\n");
    const clock = phaseClock();
    const oneChange = await timeIt(() => open({ onProgress: clock.onProgress }));
    const oneChangePhases = clock.phases();
    const pgc = new Pgc("bench", scopePaths, oneChange.value);
    const questions = questionsFrom(pgc, preset.queries);
    for (const q of questions.slice(0, 20)) await pgc.ask(q, { topK: 5 }); // warm-up
    const latencies: number[] = [];
    for (const q of questions) latencies.push((await timeIt(() => pgc.ask(q, { topK: 5 }))).ms);
    const sorted = sortedAscending(latencies);
    const megabytes = stats.bytes / 1e6;
    const result = {
      corpus: { root, scope_paths: scopePaths, files: stats.files, bytes: stats.bytes, lines: stats.lines, documents: cold.value.data.docs.length, symbols: stats.symbols },
      cold_build_ms: roundTo(cold.ms, 1),
      cold_mb_per_s: roundTo(megabytes / (cold.ms / 1000), 3),
      cold_lines_per_s: Math.round(stats.lines / (cold.ms / 1000)),
      cold_threads: cold.value.outcome.threads ?? 1,
      cold_one_thread_ms: roundTo(coldOneThread.ms, 1),
      cold_one_thread_mb_per_s: roundTo(megabytes / (coldOneThread.ms / 1000), 3),
      no_change_reopen_ms: roundTo(reopen.ms, 1),
      no_change_ratio: ratio(reopen.ms, cold.ms),
      one_file_rebuild_ms: roundTo(oneChange.ms, 1),
      one_file_ratio: ratio(oneChange.ms, cold.ms),
      one_file_phases_ms: oneChangePhases,
      ask_p50_ms: roundTo(percentile(sorted, 0.5), 3),
      ask_p99_ms: roundTo(percentile(sorted, 0.99), 3),
      ask_median_ms: roundTo(median(latencies), 3),
      asks: latencies.length,
      similarity: oneChange.value.calibration.kind,
      targets: { cold_mb_per_s: 2.5, no_change_ratio: 0.1, one_file_ratio: 0.05, ask_p50_ms: 10 },
      environment: benchEnvironment(),
      date: new Date().toISOString(),
    };
    writeJsonFile(RESULT_FILE, result);
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    const rows = [
      ["corpus", `${result.corpus.files} files, ${formatNumber(megabytes, 1)} MB, ${formatNumber(stats.lines)} lines`, ""],
      ["cold build", `${formatNumber(cold.ms / 1000, 2)} s = ${formatNumber(result.cold_mb_per_s, 2)} MB/s, ${formatNumber(result.cold_lines_per_s)} lines/s, threads: ${result.cold_threads}`, "≥ 2.5 MB/s"],
      ["cold build, one thread", `${formatNumber(coldOneThread.ms / 1000, 2)} s = ${formatNumber(result.cold_one_thread_mb_per_s, 2)} MB/s`, ""],
      ["no-change reopen", `${formatNumber(reopen.ms)} ms = ${formatNumber(result.no_change_ratio * 100, 1)}% of cold`, "< 10%"],
      ["one file changed", `${formatNumber(oneChange.ms)} ms = ${formatNumber(result.one_file_ratio * 100, 1)}% of cold`, "≤ 5%"],
      ["  its phases (ms)", Object.entries(oneChangePhases).map(([phase, ms]) => `${phase} ${ms}`).join(", "), ""],
      ["ask p50 / p99", `${result.ask_p50_ms} / ${result.ask_p99_ms} ms over ${latencies.length} questions`, "p50 ≤ 10 ms"],
    ];
    process.stdout.write(`${formatTable(["measure", "result", "target"], rows)}\n(similarity: ${result.similarity}; JSON in ${RESULT_FILE})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:pgc failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
