// Bus benchmark: request/reply with a ~1 KiB body through the full bus against raw zeromq DEALER→ROUTER,
// measured in the same run, server in a child process, over tcp and ipc. Usage (after `npm run build`):
//   node dist/scripts/bench/bus.js [--quick] [--json] [--out FILE] [--rounds N] [--window N]
// Prints a table (or, with --json, exactly one JSON object on stdout) and writes bench-results/bus.json.
// Progress goes to stderr. Each figure is the median over rounds of that round's value (see bus-report.ts).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildResult, formatResultTable, transportBlock, type TransportBlock } from "./bus-report.js";
import { runTransport, TRANSPORTS, type BusBenchConfig, type Transport } from "./bus-run.js";
import { exitOnSignals } from "./signals.js";
import { writeJsonFile } from "./stats.js";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DEFAULT_OUT = resolve(REPO_ROOT, "bench-results/bus.json");
const BODY_BYTES = 1_024;
/**
 * In-flight requests during the pipelined measurement. On the 2-CPU dev box raw zeromq gains under 5%
 * from 128 to 256 (73k → 76k req/s), and 128 stays under the mesh server's bulkhead (64 running +
 * 256 queued), so no request is refused as busy and the figure is throughput, not back-pressure.
 */
const DEFAULT_WINDOW = 128;

/** Full run: enough samples for a stable p99 (5,000 → the 50th slowest) and seconds of pipelining. */
const FULL: Omit<BusBenchConfig, "window" | "bodyBytes"> = {
  quick: false,
  rounds: 5,
  sequentialRequests: 5_000,
  pipelinedRequests: 50_000,
  warmupSequentialRequests: 2_000,
  warmupPipelinedRequests: 10_000,
};
/** CI smoke: proves every path works end to end in seconds; its figures are indicative only. */
const QUICK: Omit<BusBenchConfig, "window" | "bodyBytes"> = {
  quick: true,
  rounds: 3,
  sequentialRequests: 1_000,
  pipelinedRequests: 5_000,
  warmupSequentialRequests: 300,
  warmupPipelinedRequests: 1_000,
};

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`${flag} must be a positive integer, got "${value}"`);
  return parsed;
}

function parseCommandLine(): { config: BusBenchConfig; json: boolean; out: string } {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      out: { type: "string" },
      rounds: { type: "string" },
      window: { type: "string" },
    },
    strict: true,
  });
  const sizes = values.quick ? QUICK : FULL;
  const config: BusBenchConfig = {
    ...sizes,
    rounds: positiveInt(values.rounds, "--rounds", sizes.rounds),
    window: positiveInt(values.window, "--window", DEFAULT_WINDOW),
    bodyBytes: BODY_BYTES,
  };
  return { config, json: values.json, out: resolve(values.out ?? DEFAULT_OUT) };
}

async function main(): Promise<void> {
  const { config, json, out } = parseCommandLine();
  const log = (message: string) => process.stderr.write(`[bench:bus] ${message}\n`);
  // Exiting through process.exit runs the "exit" hooks that SIGKILL the servers and remove the ipc folder.
  exitOnSignals((signal) => log(`${signal}: stopping`));
  log(`${config.quick ? "quick" : "full"} run: ${config.rounds} rounds × (${config.sequentialRequests} sequential + ${config.pipelinedRequests} pipelined, window ${config.window}), body ${config.bodyBytes} B`);
  const blocks = {} as Record<Transport, TransportBlock>;
  for (const transport of TRANSPORTS) blocks[transport] = transportBlock(await runTransport(transport, config, log));
  const result = buildResult(blocks, config);
  writeJsonFile(out, result);
  const table = formatResultTable(blocks);
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    log(`\n${table}`);
  } else {
    process.stdout.write(`${table}\n\n(medians of ${config.rounds} rounds; ${result.cpus} CPUs, Node ${result.node_version})\nwrote ${out}\n`);
  }
  for (const [transport, block] of Object.entries(blocks)) {
    if (block.mesh_retries > 0 || block.mesh_nacks_received > 0) log(`${transport}: the mesh client retried ${block.mesh_retries}× and got ${block.mesh_nacks_received} NACKs; its figures include recovery`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:bus failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
