// Multi-hop benchmark: a 4-hop planned question through the manager over workers that answer
// instantly (in their own processes), against 4 sequential raw ZeroMQ round trips and 4 sequential
// bus `task` requests, measured in the same run. Usage: node dist/scripts/bench/multihop.js [--quick] [--json]
// A real question over Linux subsystems: … --kernel DIR [--from SCOPE] [--to SCOPE] [--question TEXT]
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pino from "pino";
import { MeshNode } from "../../bus/index.js";
import { Manager } from "../../agents/manager/manager.js";
import { findQueryPath, renderText } from "../../topology/index.js";
import { connectRawClient } from "./bus-clients.js";
import { spawnServer, type ServerProcess } from "./bus-server-process.js";
import { benchEnvironment, formatTable, percentile, ratio, roundTo, sortedAscending, writeJsonFile } from "./stats.js";

const HOPS = 4;
const RESULT_FILE = "bench-results/multihop.json";
const WORKER_SCRIPT = fileURLToPath(new URL("./instant-worker.js", import.meta.url));
const MESH_BIN = fileURLToPath(new URL("../../../bin/mesh.js", import.meta.url));
const BODY = "x".repeat(512);

type CaseName = "multihop" | "bus_same_tasks" | "bus" | "raw_chain" | "raw_one";

/** One hop of a planned question as the manager sent it: the worker, the DelegatedTask and the trail. */
interface SentHop {
  agent: string;
  task: unknown;
  trail: { path: string[]; hops: number; maxHops: number };
  traceId: string;
}

/** The requests a planned question made, read back from the manager's own hop records. */
async function sentHops(manager: Manager, result: Awaited<ReturnType<Manager["ask"]>>): Promise<SentHop[]> {
  return Promise.all(
    result.knowledge_chain.map(async (hop, i) => {
      const stored = (await manager.audit.readHopOutput(hop.output_ref)) as { task: unknown } | null;
      if (!stored) throw new Error(`hop ${i} has no stored output at ${hop.output_ref}`);
      const path = ["bench-manager", ...result.knowledge_chain.slice(0, i).map((h) => h.agent)];
      return { agent: hop.agent, task: stored.task, trail: { path, hops: i + 1, maxHops: result.safety.max_hops }, traceId: result.id };
    }),
  );
}

function startWorker(index: number, root: string, registry: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER_SCRIPT, "--index", String(index), "--root", root, "--registry", registry], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`instant worker ${index} exited (${code})`)));
  });
}

async function timeSamples(count: number, work: () => Promise<unknown>): Promise<Float64Array> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - started) / 1_000);
  }
  return sortedAscending(samples);
}

/** Subsystems of a Linux tree, each with the headers it owns, for `--kernel DIR`. */
const KERNEL_SCOPES: Record<string, string[]> = {
  drivers: ["drivers/net/ethernet/intel/e1000/"],
  net: ["net/core/", "include/linux/skbuff.h", "include/linux/netdevice.h"],
  ipv4: ["net/ipv4/", "include/net/tcp.h", "include/net/ip.h"],
  sched: ["net/sched/"],
  dma: ["kernel/dma/", "include/linux/dma-mapping.h"],
  time: ["kernel/time/", "include/linux/hrtimer.h"],
  locking: ["kernel/locking/", "include/linux/spinlock.h"],
  mm: ["mm/", "include/linux/gfp.h"],
};

interface KernelOptions {
  root: string;
  from: string;
  to: string | undefined;
  question: string;
  json: boolean;
}

/**
 * `--kernel DIR`: a real multi-hop question over one worker process per subsystem of a Linux tree (see
 * KERNEL_SCOPES; extract those paths from Debian's linux-source-6.1). Prints the topology the workers'
 * code gives, the hop distance from `--from` to every scope, and the planned and evidence-following
 * answers; `--to` defaults to the scope farthest from `--from`.
 */
async function realKernel(options: KernelOptions): Promise<void> {
  const { root } = options;
  const dir = mkdtempSync(join(tmpdir(), "mesh-bench-kernel-"));
  const registry = join(dir, "registry");
  const children: ChildProcess[] = [];
  let node: MeshNode | undefined;
  let manager: Manager | undefined;
  try {
    const started = Date.now();
    const readyAt: Record<string, number> = {};
    await Promise.all(
      Object.entries(KERNEL_SCOPES).map(async ([scope, paths]) => {
        const args = [MESH_BIN, "worker", "--scope", scope, "--root", root, ...paths.flatMap((p) => ["--scope-path", p]), "--registry", registry, "--cache", join(dir, "cache"), "--log-level", "warn"];
        const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
        children.push(child);
        await new Promise<void>((resolve, reject) => {
          createInterface({ input: child.stdout! }).once("line", () => resolve());
          child.once("exit", (code) => reject(new Error(`worker ${scope} exited (${code})`)));
        });
        readyAt[scope] = Date.now() - started;
      }),
    );
    node = new MeshNode({ id: "bench-manager", role: "manager", registryDir: registry, gossipMs: 200 });
    await node.start();
    while (node.peers().filter((p) => p.state === "alive").length < Object.keys(KERNEL_SCOPES).length) await new Promise((r) => setTimeout(r, 20));
    const asker = new Manager({ node, auditDir: join(dir, "audit"), root, logger: pino({ level: "silent" }) });
    manager = asker;
    const graph = await asker.topology();
    const distances = Object.fromEntries(
      Object.keys(KERNEL_SCOPES).map((scope) => {
        const found = findQueryPath(graph, options.from, scope, { maxHops: 16 });
        return [scope, found.ok ? found.path.length - 1 : null];
      }),
    ) as Record<string, number | null>;
    const farthest = Object.entries(distances)
      .filter((entry): entry is [string, number] => entry[1] !== null)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    const to = options.to ?? farthest ?? options.from;
    const planned = await asker.ask(options.question, { from: options.from, to });
    const followed = await asker.ask(options.question, { from: options.from });
    const times = await timeSamples(5, () => asker.ask(options.question, { from: options.from, to }));
    const summary = (r: typeof planned) => ({
      path: r.query_path,
      hops: r.safety.actual_hops,
      verdicts: r.knowledge_chain.map((h) => h.verdict.status),
      citations_verified: r.knowledge_chain.map((h) => `${h.verdict.citations_verified}/${h.verdict.citations_checked}`),
      focus: r.knowledge_chain.map((h) => h.focus),
      top_citation: r.knowledge_chain.map((h) => (h.citations[0] ? `${h.citations[0].file_path}:${h.citations[0].line_start}` : null)),
      stopped_because: r.safety.stopped_because,
    });
    const result = {
      root,
      scopes: KERNEL_SCOPES,
      question: options.question,
      from: options.from,
      to,
      index_ready_ms: readyAt,
      topology: renderText(graph),
      hop_distance_from_start: distances,
      planned: summary(planned),
      evidence_following: summary(followed),
      planned_e2e_p50_ms: roundTo(percentile(times, 0.5) / 1000, 1),
      answer: planned.answer,
      environment: benchEnvironment(),
      date: new Date().toISOString(),
    };
    writeJsonFile("bench-results/multihop-kernel.json", result);
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await manager?.audit.flush();
    await node?.stop();
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean" }, json: { type: "boolean" }, kernel: { type: "string" }, from: { type: "string" }, to: { type: "string" }, question: { type: "string" } } });
  if (values.kernel) {
    return realKernel({ root: values.kernel, from: values.from ?? "drivers", to: values.to, question: values.question ?? "How does the e1000 driver allocate DMA buffers?", json: values.json === true });
  }
  const rounds = values.quick ? 20 : 200;
  const dir = mkdtempSync(join(tmpdir(), "mesh-bench-multihop-"));
  const registry = join(dir, "registry");
  const children: ChildProcess[] = [];
  let node: MeshNode | undefined;
  let manager: Manager | undefined;
  // One raw echo process, and one per hop: the chain's own shape (each hop wakes a different process).
  const rawServers: ServerProcess[] = [];
  try {
    // Started one by one into the list the finally block stops, so a server that fails to start leaves none running.
    for (let i = 0; i <= HOPS; i++) rawServers.push(await spawnServer("raw", "tcp://127.0.0.1:*"));
    for (let i = 0; i < HOPS; i++) {
      mkdirSync(join(dir, `s${i}`), { recursive: true });
      writeFileSync(join(dir, `s${i}`, "code.c"), `void sym_s${i}(void) { sym_s${i + 1}(); }\n`);
    }
    for (let i = 0; i < HOPS; i++) children.push(await startWorker(i, dir, registry));
    node = new MeshNode({ id: "bench-manager", role: "manager", registryDir: registry, gossipMs: 200 });
    await node.start();
    while (node.peers().filter((p) => p.state === "alive").length < HOPS) await new Promise((r) => setTimeout(r, 20));
    const asker = new Manager({ node, auditDir: join(dir, "audit"), root: dir, logger: pino({ level: "silent" }) });
    manager = asker;
    const meshNode = node;
    const [rawOne, ...rawHops] = await Promise.all(rawServers.map((server) => connectRawClient(server.ready, BODY)));
    const rawClient = rawOne as Awaited<ReturnType<typeof connectRawClient>>;
    // The planned DelegatedTask route (mode "planned"): instant workers answer tasks, not the search ops.
    const question = () => asker.ask("How does sym_s0 reach sym_s3?", { from: "s0", to: `s${HOPS - 1}`, mode: "planned" });
    const hopsSent = await sentHops(asker, await question());
    const cases: Record<CaseName, () => Promise<unknown>> = {
      multihop: async () => {
        const result = await question();
        if (result.query_path.length !== HOPS) throw new Error(`expected ${HOPS} hops, got ${result.query_path.join(" → ")}`);
        if (result.knowledge_chain.some((h) => h.verdict.citations_verified !== 1)) throw new Error("a hop's citation was not verified");
      },
      // The very requests a question sends (same tasks, trails and trace), without the manager's work between them.
      bus_same_tasks: async () => {
        for (const hop of hopsSent) await meshNode.request(hop.agent, "task", hop.task, { trail: hop.trail, traceId: hop.traceId });
      },
      bus: async () => {
        for (let h = 0; h < HOPS; h++) await meshNode.request(`s${h}-instant`, "task", { id: `t${h}`, task: "q", acceptance_criteria: [] });
      },
      raw_chain: async () => {
        for (const client of rawHops) await client.call();
      },
      raw_one: async () => {
        for (let h = 0; h < HOPS; h++) await rawClient.call();
      },
    };
    const names = Object.keys(cases) as CaseName[];
    for (let i = 0; i < 10; i++) for (const name of names) await cases[name]();
    // Rounds interleave the cases (rotating which goes first), so drifting load on a shared machine
    // falls on all of them alike.
    const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<CaseName, number[]>;
    // CPU of this process (every thread: JavaScript, GC helpers, ZeroMQ's I/O thread) per case: less
    // noisy than latency on a shared machine, and it is what the asking side itself costs.
    const cpuMicros = Object.fromEntries(names.map((n) => [n, 0])) as Record<CaseName, number>;
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length] as CaseName;
        const cpuBefore = process.cpuUsage();
        const started = process.hrtime.bigint();
        await cases[name]();
        samples[name].push(Number(process.hrtime.bigint() - started) / 1_000);
        const cpu = process.cpuUsage(cpuBefore);
        cpuMicros[name] += cpu.user + cpu.system;
      }
    }
    const cpuPerRound = (name: CaseName) => roundTo(cpuMicros[name] / rounds, 1);
    await Promise.all([rawClient, ...rawHops].map((c) => c.close()));
    const sorted = Object.fromEntries(names.map((n) => [n, sortedAscending(samples[n])])) as Record<CaseName, Float64Array>;
    const p50 = (name: CaseName) => roundTo(percentile(sorted[name], 0.5), 1);
    const result = {
      hops: HOPS,
      rounds,
      multihop_p50_us: p50("multihop"),
      multihop_p99_us: roundTo(percentile(sorted.multihop, 0.99), 1),
      bus_4_same_tasks_p50_us: p50("bus_same_tasks"),
      bus_4_tasks_p50_us: p50("bus"),
      raw_4_rtt_chain_p50_us: p50("raw_chain"),
      raw_4_rtt_p50_us: p50("raw_one"),
      overhead_vs_raw_chain: ratio(p50("multihop"), p50("raw_chain")),
      overhead_vs_raw: ratio(p50("multihop"), p50("raw_one")),
      overhead_vs_bus_same_tasks: ratio(p50("multihop"), p50("bus_same_tasks")),
      overhead_vs_bus: ratio(p50("multihop"), p50("bus")),
      bus_vs_raw_chain: ratio(p50("bus"), p50("raw_chain")),
      target_overhead_vs_raw: 1.5,
      asking_process_cpu_us_per_round: Object.fromEntries(names.map((n) => [n, cpuPerRound(n)])),
      environment: benchEnvironment(),
      date: new Date().toISOString(),
    };
    writeJsonFile(RESULT_FILE, result);
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      const cpu = (name: CaseName) => String(cpuPerRound(name));
      const rows = [
        ["4-hop planned question via the manager", String(result.multihop_p50_us), "1.00×", cpu("multihop")],
        ["the same 4 task requests, sent bare (no manager work)", String(result.bus_4_same_tasks_p50_us), `${result.overhead_vs_bus_same_tasks}×`, cpu("bus_same_tasks")],
        ["4 sequential small bus task requests, one per worker", String(result.bus_4_tasks_p50_us), `${result.overhead_vs_bus}×`, cpu("bus")],
        ["4 sequential raw ZeroMQ round trips, one per echo process", String(result.raw_4_rtt_chain_p50_us), `${result.overhead_vs_raw_chain}×`, cpu("raw_chain")],
        ["4 sequential raw ZeroMQ round trips to one echo process", String(result.raw_4_rtt_p50_us), `${result.overhead_vs_raw}×`, cpu("raw_one")],
      ];
      process.stdout.write(`${formatTable(["what", "p50 (µs)", "multi-hop ÷ this", "asking process CPU (µs)"], rows)}\n(${rounds} interleaved rounds; JSON in ${RESULT_FILE})\n`);
    }
  } finally {
    await manager?.audit.flush();
    await node?.stop();
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(rawServers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:multihop failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
