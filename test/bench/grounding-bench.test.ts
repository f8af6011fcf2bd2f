// Smoke test of the grounding benchmark: the quick run launches the bundled demo kernel's fleet as
// `mesh up` does (real worker processes), asks its questions both ways, and reports every figure. No
// timing or score thresholds: the scores are what the benchmark reports, not what this test decides.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { pidAlive } from "../../src/fleet/fleet-dir.js";

const BENCH_SCRIPT = fileURLToPath(new URL("../../dist/scripts/bench/grounding.js", import.meta.url));
const QUICK_RUN_TIMEOUT_MS = 180_000;
const run = promisify(execFile);
const outDir = mkdtempSync(join(tmpdir(), "grounding-bench-test-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe("grounding benchmark (quick)", () => {
  it("answers the fixture questions both ways and reports scores, citations and latency per question and overall", { timeout: QUICK_RUN_TIMEOUT_MS }, async () => {
    expect(existsSync(BENCH_SCRIPT), `${BENCH_SCRIPT} is missing: run \`npm run build\` first`).toBe(true);
    const out = join(outDir, "grounding.json");
    const { stdout } = await run(process.execPath, [BENCH_SCRIPT, "--quick", "--json", "--out", out], { env: { ...process.env, XDG_CACHE_HOME: join(outDir, "cache") }, maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(stdout) as { quick: boolean; overall: Record<string, Record<string, unknown>>; corpora: { corpus: string; scopes: number; first_ask_ms: number; questions: { id: string; kind: string; traced: Record<string, unknown>; one_scope: Record<string, unknown> }[] }[] };
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(report);
    expect(report.quick).toBe(true);
    expect(report.corpora.map((c) => c.corpus)).toEqual(["fixtures"]);
    const [fixtures] = report.corpora;
    expect(fixtures?.scopes).toBe(4);
    // The first question after launch, unscored, is timed on its own.
    expect(fixtures?.first_ask_ms).toBeGreaterThan(0);
    expect(fixtures?.questions.length).toBeGreaterThanOrEqual(6);
    for (const method of ["traced", "one_scope"]) {
      const summary = report.overall[method] as Record<string, unknown>;
      for (const key of ["start_right", "final_right", "chain_recall", "latency_p50_ms", "latency_p90_ms", "latency_first_p50_ms"]) expect(summary[key], `${method}.${key}`).toBeTypeOf("number");
      // Every citation of every answer re-hashes against the files on disk.
      expect(summary["citations_all_verified"], `${method} citations`).toBe(true);
    }
    for (const q of fixtures?.questions ?? []) {
      expect(q.traced["latency_ms"] as number).toBeGreaterThan(0);
      expect(q.traced["first_latency_ms"] as number).toBeGreaterThan(0);
      if (q.kind === "offtopic") expect(q.traced["honest_no_chain"], q.id).toBe(true);
      else expect(q.traced["recall"], q.id).toBeTypeOf("number");
    }
  });

  it("stops the fleet it launched and removes its quick home when interrupted, exiting 130", { timeout: QUICK_RUN_TIMEOUT_MS }, async () => {
    const tmp = join(outDir, "tmp");
    mkdirSync(tmp, { recursive: true });
    const child = spawn(process.execPath, [BENCH_SCRIPT, "--quick", "--json", "--out", join(outDir, "interrupted.json")], { env: { ...process.env, TMPDIR: tmp, XDG_CACHE_HOME: join(outDir, "cache") }, stdio: ["ignore", "ignore", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // Once the fleet is up and its first question asked, its processes are known from its fleet file.
    await new Promise<void>((resolve, reject) => {
      let seen = "";
      child.stderr.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (/first question \(unscored\)/.test(seen)) resolve();
      });
      child.once("exit", () => reject(new Error(`the benchmark exited before its fleet was up: ${seen}`)));
    });
    const [home] = readdirSync(tmp).filter((name) => name.startsWith("grounding-mesh-"));
    expect(home).toBeDefined();
    const fleetsDir = join(tmp, home as string, "fleets");
    const pids = readdirSync(fleetsDir).flatMap((dir) => {
      const fleet = JSON.parse(readFileSync(join(fleetsDir, dir, "fleet.json"), "utf8")) as { workers: { pid: number }[]; manager: { pid: number; supervisor?: number } | null };
      return [...fleet.workers.map((w) => w.pid), ...(fleet.manager ? [fleet.manager.pid, ...(fleet.manager.supervisor ? [fleet.manager.supervisor] : [])] : [])];
    });
    expect(pids.length).toBeGreaterThanOrEqual(5);
    expect(pids.every(pidAlive)).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    await expect.poll(() => pids.filter(pidAlive), { timeout: 30_000, interval: 100 }).toEqual([]);
    expect(existsSync(join(tmp, home as string))).toBe(false);
  });
});
