// Smoke test of the bus benchmark: the quick run works end to end in separate processes and reports
// every figure. No timing thresholds: the figures depend on the machine, the targets are reported only.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const BENCH_SCRIPT = fileURLToPath(new URL("../../dist/scripts/bench/bus.js", import.meta.url));
/** The quick run takes ~10 s alone; leave room for a machine busy with other test files. */
const QUICK_RUN_TIMEOUT_MS = 120_000;
const FIGURES = ["rtt_p50_us", "rtt_p99_us", "raw_rtt_p50_us", "raw_rtt_p99_us", "rps", "raw_rps"] as const;
const RATIOS = ["rtt_p50", "rtt_p99", "rps"] as const;

const run = promisify(execFile);
const outDir = mkdtempSync(join(tmpdir(), "bus-bench-test-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function expectFigures(block: Record<string, unknown>): void {
  for (const key of FIGURES) {
    expect(block[key], key).toBeTypeOf("number");
    expect(block[key] as number, key).toBeGreaterThan(0);
  }
  const ratios = block["ratios"] as Record<string, unknown>;
  for (const key of RATIOS) expect(ratios[key] as number, `ratios.${key}`).toBeGreaterThan(0);
  // Each side of a round trip does some work; the server's figure comes from /proc, which Linux has.
  const cpu = block["cpu_us_per_request"] as Record<string, unknown>;
  for (const key of ["client", "raw_client", ...(process.platform === "linux" ? ["server", "raw_server"] : [])]) expect(cpu[key] as number, `cpu_us_per_request.${key}`).toBeGreaterThan(0);
}

describe("bus benchmark (quick)", () => {
  it("prints one JSON object with raw and mesh figures for tcp, ipc and tcp with CURVE, and writes the same to its file", { timeout: QUICK_RUN_TIMEOUT_MS }, async () => {
    expect(existsSync(BENCH_SCRIPT), `${BENCH_SCRIPT} is missing: run \`npm run build\` first`).toBe(true);
    const out = join(outDir, "bus.json");
    // A private TMPDIR for the run, so the check that its ipc folder is gone sees no one else's.
    const childTmp = join(outDir, "tmp");
    mkdirSync(childTmp);
    const { stdout } = await run(process.execPath, [BENCH_SCRIPT, "--quick", "--json", "--out", out], {
      timeout: QUICK_RUN_TIMEOUT_MS,
      maxBuffer: 1 << 20,
      env: { ...process.env, TMPDIR: childTmp },
    });

    const result = JSON.parse(stdout) as Record<string, unknown>; // throws unless stdout is exactly one JSON value
    expectFigures(result);
    expectFigures(result["ipc"] as Record<string, unknown>);
    expectFigures(result["curve"] as Record<string, unknown>);
    const cost = result["curve_cost"] as Record<string, number>;
    for (const key of ["raw_rtt_p50", "mesh_rtt_p50", "raw_rps", "mesh_rps"]) expect(cost[key], `curve_cost.${key}`).toBeGreaterThan(0);
    expect(result["config"]).toMatchObject({ quick: true, body_bytes: 1024 });
    const config = result["config"] as Record<string, number>;
    for (const key of ["rounds", "sequential_requests", "pipelined_requests", "window"]) expect(config[key], key).toBeGreaterThan(0);
    expect(result["node_version"]).toBe(process.version);
    expect(result["cpus"] as number).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(result["date"] as string))).toBe(false);

    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(result);
    expect(readdirSync(childTmp), "the ipc run's socket folder is removed at the end").toEqual([]);
  });
});

describe("processCpuMicros", () => {
  it.runIf(process.platform === "linux")("reads another process's CPU time from /proc, and null for a process that is gone", async () => {
    const { processCpuMicros } = await import("../../scripts/bench/stats.js");
    const before = processCpuMicros(process.pid) as number;
    const until = Date.now() + 60;
    while (Date.now() < until); // burn CPU past one 10 ms clock tick
    expect(processCpuMicros(process.pid) as number).toBeGreaterThan(before);
    const gone = execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    expect(processCpuMicros(Number(gone))).toBeNull();
  });
});
