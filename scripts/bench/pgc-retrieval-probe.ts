// Measures PGC retrieval on real code: index build and load time, search and retrieve latency (p50/p99),
// and the held-out calibration figures. Usage:
//   node dist/scripts/bench/pgc-retrieval-probe.js [--root DIR]... [--queries 2000] [--json]
// Several --root options index several trees as one scope (paths prefixed by the tree's name).
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { fitCalibration, LexicalIndex, retrieve, type Calibration, type ReliabilityBin } from "../../agents/pgc/retrieval/index.js";
import { mulberry32, randomInt } from "../../agents/pgc/retrieval/prng.js";
import { RANDOM_QUERY_WORDS } from "../../agents/pgc/retrieval/random-words.js";
import type { IndexDoc } from "../../agents/pgc/types.js";
import { extractPythonCorpus, PYTHON_STDLIB_ROOT } from "./pgc-retrieval-corpus.js";

const QUERY_SEED = 7;
/** Runs before timing so the JIT has compiled the hot loops; real workers are long-running. */
const WARMUP_QUERIES = 200;
const DEFAULT_QUERIES = 2_000;
const MB = 1_000_000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** A mix a worker might see: doc sentences (names included), identifier look-ups, and random English words. */
function probeQueries(docs: readonly IndexDoc[], count: number): string[] {
  const random = mulberry32(QUERY_SEED);
  const withDoc = docs.filter((doc) => doc.overlay === "O1" && (doc.fields.doc ?? "").length > 0);
  return Array.from({ length: count }, (_, i) => {
    const doc = withDoc[randomInt(random, withDoc.length)];
    if (doc === undefined || i % 4 === 3) {
      return Array.from({ length: 4 }, () => RANDOM_QUERY_WORDS[randomInt(random, RANDOM_QUERY_WORDS.length)]).join(" ");
    }
    if (i % 4 === 2) return `where is ${doc.symbol ?? ""}() used`;
    return (doc.fields.doc ?? "").split("\n")[0] ?? "";
  });
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
}

function latencies(queries: readonly string[], run: (query: string) => unknown): Latency {
  for (const query of queries.slice(0, WARMUP_QUERIES)) run(query);
  const ms = queries.map((query) => timed(() => run(query)).ms).sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), max: ms[ms.length - 1] ?? 0 };
}

function corpus(roots: readonly string[]): IndexDoc[] {
  return roots.flatMap((root) => extractPythonCorpus(root, { pathPrefix: roots.length > 1 ? `${basename(root)}/` : "" }));
}

function fieldBytes(docs: readonly IndexDoc[]): number {
  return docs.reduce((sum, doc) => sum + Object.values(doc.fields).reduce((s, text) => s + Buffer.byteLength(text ?? ""), 0), 0);
}

function reliabilityMarkdown(table: readonly ReliabilityBin[]): string {
  const rows = table.map((bin) =>
    `| ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)} | ${bin.count} | ${bin.mean_predicted.toFixed(3)} | ${bin.observed_accuracy.toFixed(3)} |`,
  );
  return ["| predicted | count | mean predicted | observed accuracy |", "|---|---|---|---|", ...rows].join("\n");
}

function main(): void {
  const { values } = parseArgs({
    options: {
      root: { type: "string", multiple: true, default: [PYTHON_STDLIB_ROOT] },
      queries: { type: "string", default: String(DEFAULT_QUERIES) },
      json: { type: "boolean", default: false },
    },
  });
  const docs = corpus(values.root);
  const build = timed(() => LexicalIndex.build(docs));
  const json = timed(() => JSON.stringify(build.value.toJSON()));
  const load = timed(() => LexicalIndex.fromJSON(JSON.parse(json.value)));
  const fit = timed((): Calibration => fitCalibration(load.value, docs));
  const pgc = { index: load.value, calibration: fit.value, docs: new Map(docs.map((doc) => [doc.id, doc])) };
  const queries = probeQueries(docs, Number(values.queries));
  const result: ProbeResult = {
    corpus: { roots: values.root, docs: docs.length, field_mb: fieldBytes(docs) / MB },
    index: { terms: load.value.termCount, postings: load.value.postingCount, build_ms: build.ms, json_mb: json.value.length / MB },
    load_ms: load.ms,
    calibration_fit_ms: fit.ms,
    search_ms: latencies(queries, (query) => pgc.index.search(query, { topK: 10 })),
    retrieve_ms: latencies(queries, (query) => retrieve(pgc, query, { topK: 10 })),
    calibration: fit.value.report,
  };
  if (values.json) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  else process.stdout.write(summary(result, fit.value.kind));
}

type ProbeResult = {
  corpus: { roots: string[]; docs: number; field_mb: number };
  index: { terms: number; postings: number; build_ms: number; json_mb: number };
  load_ms: number;
  calibration_fit_ms: number;
  search_ms: Latency;
  retrieve_ms: Latency;
  calibration: Calibration["report"];
};

function summary(result: ProbeResult, kind: Calibration["kind"]): string {
  const { heldout } = result.calibration;
  const ms = (latency: Latency): string => `p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms, max ${latency.max.toFixed(2)} ms`;
  return [
    `corpus: ${result.corpus.docs} docs, ${result.corpus.field_mb.toFixed(1)} MB of field text (${result.corpus.roots.join(", ")})`,
    `index: build ${result.index.build_ms.toFixed(0)} ms, ${result.index.terms} terms, ${result.index.postings} postings, JSON ${result.index.json_mb.toFixed(1)} MB, load ${result.load_ms.toFixed(0)} ms`,
    `search ${ms(result.search_ms)}`,
    `retrieve ${ms(result.retrieve_ms)}`,
    `calibration: fit ${result.calibration_fit_ms.toFixed(0)} ms, kind ${kind}, queries ${JSON.stringify(result.calibration.queries)}`,
    `held-out: accuracy@1 ${heldout.accuracy_at_1?.toFixed(3)}, ECE top-1 ${heldout.ece_top1?.toFixed(4)}, ECE all hits ${heldout.ece_all_hits?.toFixed(4)}`,
    `random English words: ${JSON.stringify(heldout.random_words)}`,
    `random corpus words: ${JSON.stringify(heldout.corpus_words)}`,
    "", "top-1 reliability (held-out):", reliabilityMarkdown(heldout.reliability_top1),
    "", "all-hits reliability (held-out):", reliabilityMarkdown(heldout.reliability_all_hits), "",
  ].join("\n");
}

main();
