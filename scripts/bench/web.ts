// Web view benchmark: does the page of `mesh web` stay responsive with a fleet of 100 scopes? The real
// server and the real browser bundle, in Debian's Chromium, fed a synthetic fleet (a scope graph shaped
// like the automatic split of a large tree: each scope calls a few others) of 100 scopes with two agents
// each, against the same page with 4 scopes measured in the same run. Usage (after `npm run build`):
//   node dist/scripts/bench/web.js [--quick] [--json]
// Per size: time from navigation to the graph drawn and laid out, the longest main-thread task while
// loading (the page "freezes" for that long), and the time to draw an answer's path. Medians over rounds.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pino from "pino";
import { WebServer, type FleetAccess } from "../../src/web/server.js";
import { benchEnvironment, formatNumber, formatTable, median, ratio, roundTo, writeJsonFile } from "./stats.js";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DEFAULT_OUT = resolve(REPO_ROOT, "bench-results/web.json");
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
const SIZES = [4, 100];

/** A fleet of `n` scopes: a chain plus a few deterministic long links, two agents per scope. */
function syntheticFleet(n: number, dir: string): FleetAccess {
  const scopes = Array.from({ length: n }, (_, i) => `scope-${String(i).padStart(3, "0")}`);
  const edges: { from: string; to: string; kind: string; weight: number; counts: Record<string, number>; examples: string[] }[] = [];
  for (let i = 0; i < n; i++) {
    for (const step of [1, 7, 13]) {
      const j = (i + step) % n;
      if (j === i || (n <= 4 && step > 1)) continue;
      const weight = 1 + ((i * 31 + step) % 40);
      edges.push({ from: scopes[i] as string, to: scopes[j] as string, kind: "call", weight, counts: { call: weight, include: 0, import: 0, manual: 0 }, examples: [`f${i}() → g${j}()`] });
    }
  }
  const agents = scopes.flatMap((scope, i) =>
    [1, 2].map((r) => ({ id: `${scope}-${r}`, scope, scope_paths: [`src/${scope}/`], state: "alive", load: 0, index_revision: `rev${i}`, protocol_versions: ["2.0"], overlays: [], documents: 200 + i * 10, symbols: 50 + i, lines: 2_000 + ((i * 977) % 30_000), executor: "pgc", endpoint: `tcp://127.0.0.1:${20000 + i * 2 + r}`, uptime_hint_ms: 60_000 })),
  );
  const fleet = { root: "/synthetic", started_at: new Date().toISOString(), scopes: scopes.map((name) => ({ name, paths: [`src/${name}/`] })), workers: agents.map((a) => ({ id: a.id, scope: a.scope, pid: 1, endpoint: a.endpoint, index_revision: a.index_revision })), manager: { id: "manager", pid: 1, endpoint: "tcp://127.0.0.1:1" } };
  const path = scopes.slice(0, Math.min(6, n));
  return {
    fleet: async () => ({ dir, fleet: fleet as never }),
    request: async (op) => {
      if (op === "agents") return agents;
      if (op === "topology") return { graph: { format: "lattice-mesh/scope-graph", version: 1, scopes: scopes.map((name, i) => ({ name, metadata: { lines: 2_000 + ((i * 977) % 30_000) } })), edges, isolated: [] }, unresolved: 0 };
      if (op === "ask") return { id: "q-bench-00000000", question: "q", outcome: "chain", confidence: "high", query_path: path, chain: path.map((scope, i) => ({ scope, agent: `${scope}-1`, symbol: `f${i}`, file_path: `src/${scope}/a.c`, line_start: 1, line_end: 9, sha256: "0".repeat(64), call_site: i === 0 ? null : { file_path: `src/${path[i - 1]}/a.c`, line: 5 } })), answer: "", knowledge_chain: [] };
      throw new Error(`no ${op} in the synthetic fleet`);
    },
  };
}

interface Figures {
  loaded_ms: number;
  longest_task_ms: number;
  path_ms: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean" }, json: { type: "boolean" }, out: { type: "string" } } });
  const rounds = values.quick ? 2 : 5;
  const log = (m: string) => process.stderr.write(`[bench:web] ${m}\n`);
  if (!CHROMIUM) {
    log("no Chromium installed (apt-get install chromium): nothing measured");
    if (values.json) process.stdout.write(`${JSON.stringify({ benchmark: "web", skipped: "no chromium" })}\n`);
    return;
  }
  const { launch } = await import("puppeteer-core");
  const browser = await launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const dir = mkdtempSync(join(tmpdir(), "bench-web-"));
  const results: Record<number, Figures[]> = {};
  try {
    for (let round = 0; round < rounds; round++) {
      for (const n of round % 2 === 0 ? SIZES : [...SIZES].reverse()) {
        const token = "bench".padEnd(48, "0");
        const web = new WebServer({ link: syntheticFleet(n, dir), token, logger: pino({ level: "silent" }), pollMs: 60_000 });
        const { port } = await web.listen("127.0.0.1", 0);
        const page = await browser.newPage();
        await page.setViewport({ width: 1400, height: 860 });
        try {
          // Long tasks (> 50 ms on the main thread) are what a user feels as a frozen page.
          await page.evaluateOnNewDocument(() => {
            const g = globalThis as unknown as { __longest: number; PerformanceObserver: new (cb: (list: { getEntries(): { duration: number }[] }) => void) => { observe(o: unknown): void } };
            g.__longest = 0;
            new g.PerformanceObserver((list) => {
              for (const e of list.getEntries()) g.__longest = Math.max(g.__longest, e.duration);
            }).observe({ type: "longtask", buffered: true });
          });
          const started = Date.now();
          await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
          await page.waitForFunction((count: number) => {
            const view = (globalThis as unknown as { meshView?: { cy: { nodes(): { length: number } }; state: { laidOut: boolean } } }).meshView;
            return view?.cy.nodes().length === count && view.state.laidOut;
          }, { timeout: 60_000 }, n);
          const loaded = Date.now() - started;
          const longest = await page.evaluate(() => (globalThis as unknown as { __longest: number }).__longest);
          await page.type("#question", "q");
          const asked = Date.now();
          await page.click("#ask-button");
          await page.waitForSelector("ol#chain li", { timeout: 30_000 });
          const pathMs = Date.now() - asked;
          (results[n] ??= []).push({ loaded_ms: loaded, longest_task_ms: longest, path_ms: pathMs });
          log(`round ${round + 1}/${rounds}, ${n} scopes: graph drawn in ${loaded} ms, longest task ${Math.round(longest)} ms, answer drawn in ${pathMs} ms`);
        } finally {
          await page.close();
          await web.close();
        }
      }
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (n: number, k: keyof Figures) => roundTo(median((results[n] ?? []).map((r) => r[k])), 1);
  const [small, large] = SIZES as [number, number];
  const result = {
    benchmark: "web",
    quick: values.quick === true,
    rounds,
    sizes: Object.fromEntries(SIZES.map((n) => [n, { loaded_ms: med(n, "loaded_ms"), longest_task_ms: med(n, "longest_task_ms"), path_ms: med(n, "path_ms"), rounds: results[n] }])),
    ratios: { loaded: ratio(med(large, "loaded_ms"), med(small, "loaded_ms")), longest_task: ratio(med(large, "longest_task_ms"), Math.max(1, med(small, "longest_task_ms"))) },
    environment: benchEnvironment(),
  };
  writeJsonFile(resolve(values.out ?? DEFAULT_OUT), result);
  const table = formatTable(
    ["scopes", "graph drawn (ms)", "longest main-thread task (ms)", "answer drawn (ms)"],
    SIZES.map((n) => [String(n), formatNumber(med(n, "loaded_ms")), formatNumber(med(n, "longest_task_ms")), formatNumber(med(n, "path_ms"))]),
  );
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    log(`\n${table}`);
  } else process.stdout.write(`${table}\n(${large} ÷ ${small} scopes: loading ${result.ratios.loaded}×; medians of ${rounds} rounds)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:web failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
