#!/usr/bin/env node
// Runs every benchmark that has been built, one after another, forwarding --quick and --json.
// Usage: npm run bench [-- --quick] [-- --json]   (after `npm run build`)
// With --json, stdout carries exactly one JSON object: { "<name>": <that benchmark's JSON>, ... }.
// Plain .mjs (not TypeScript) so `npm run bench` can say clearly when the build is missing.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/**
 * The benchmarks, by name. Listed rather than globbed: scripts/bench also holds their helpers
 * (stats, servers, corpora), which are not benchmarks. Add a line when adding a benchmark.
 */
const BENCHMARKS = [
  { name: "bus", script: "dist/scripts/bench/bus.js" },
  { name: "pgc", script: "dist/scripts/bench/pgc.js" },
  { name: "multihop", script: "dist/scripts/bench/multihop.js" },
  { name: "fleet", script: "dist/scripts/bench/fleet.js" },
  { name: "grounding", script: "dist/scripts/bench/grounding.js" },
  { name: "web", script: "dist/scripts/bench/web.js" },
];
const FORWARDED_FLAGS = new Set(["--quick", "--json"]);

/** Run one benchmark; resolves with its stdout (captured only with --json) or rejects on a failed exit. */
function runBenchmark(bench, flags, json) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(bench.script, `file://${REPO_ROOT}`)), ...flags], {
      cwd: REPO_ROOT,
      stdio: ["ignore", json ? "pipe" : "inherit", "inherit"],
    });
    let stdout = "";
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    // Ctrl-C reaches the whole process group; a plain kill of this runner must not orphan the child.
    const forward = (signal) => child.kill(signal);
    process.on("SIGTERM", forward);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      process.removeListener("SIGTERM", forward);
      if (code === 0) resolve(stdout);
      else reject(new Error(`benchmark ${bench.name} failed (${code ?? signal})`));
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => !FORWARDED_FLAGS.has(arg));
  if (unknown.length > 0) throw new Error(`unknown option(s) ${unknown.join(" ")}; run-all takes only --quick and --json`);
  const json = args.includes("--json");
  const present = BENCHMARKS.filter((bench) => existsSync(new URL(bench.script, `file://${REPO_ROOT}`)));
  if (present.length === 0) throw new Error("no built benchmark found under dist/scripts/bench; run `npm run build` first");
  for (const bench of BENCHMARKS.filter((b) => !present.includes(b))) process.stderr.write(`[bench] skipping ${bench.name}: ${bench.script} is not built\n`);

  const results = {};
  for (const bench of present) {
    process.stderr.write(`[bench] ${bench.name}\n`);
    const stdout = await runBenchmark(bench, args, json);
    if (json) results[bench.name] = JSON.parse(stdout);
  }
  if (json) process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
