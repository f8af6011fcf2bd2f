// The main job on the bundled demo kernel: one worker process per subsystem, a manager, the topology
// they discover from the code, and a multi-hop question answered with checked evidence.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { MeshNode } from "../../bus/index.js";
import { Manager } from "../../agents/manager/manager.js";
import type { MultiHopResult } from "../../agents/manager/multi-hop.js";
import { renderText } from "../../topology/index.js";
import { CliError, EXIT } from "../cli/exit-codes.js";

const MESH_BIN = fileURLToPath(new URL("../../../bin/mesh.js", import.meta.url));
export const DEMO_CORPUS = fileURLToPath(new URL("../../../test/fixtures/c-kernel/", import.meta.url));
export const DEMO_QUESTION = "How does the e1000 driver allocate DMA buffers?";
const READY_LIMIT_MS = 60_000;

interface ScopeSpec {
  name: string;
  paths: string[];
}

function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

function startWorker(scope: ScopeSpec, dir: string): Promise<ChildProcess> {
  const args = [MESH_BIN, "worker", "--scope", scope.name, "--root", DEMO_CORPUS, ...scope.paths.flatMap((p) => ["--scope-path", p]), "--registry", join(dir, "registry"), "--cache", join(dir, "cache"), "--log-level", "warn"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", () => resolve(child));
    child.once("exit", (code) => reject(new CliError(`demo: the ${scope.name} worker exited with ${code} before it was ready`, EXIT.failed)));
  });
}

function waitForWorkers(node: MeshNode, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CliError("demo: the workers did not all join within a minute", EXIT.timeout)), READY_LIMIT_MS);
    const check = () => {
      if (node.peers().filter((p) => p.state === "alive" && p.card.role === "worker").length < count) return;
      clearTimeout(timer);
      node.off("peer:join", check);
      resolve();
    };
    node.on("peer:join", check);
    check();
  });
}

function printResult(result: MultiHopResult): void {
  say(`Path: ${result.query_path.join(" → ")}  (${result.mode}; ${result.safety.actual_hops} of at most ${result.safety.max_hops} hops; ${result.safety.stopped_because})`);
  for (const hop of result.knowledge_chain) {
    say(`\n  Hop ${hop.hop + 1} — ${hop.scope} (${hop.agent}), confidence ${hop.confidence ?? "n/a"}, verdict: ${hop.verdict.status} (${hop.verdict.citations_verified}/${hop.verdict.citations_checked} sampled citations re-hashed and matching)`);
    say(`    asked: ${hop.question}`);
    for (const finding of hop.key_findings.slice(0, 3)) say(`    • ${finding}`);
    for (const c of hop.citations.slice(0, 3)) say(`      cites ${c.file_path}:${c.line_start}-${c.line_end} sha256 ${c.sha256.slice(0, 12)}… (${c.similarity_kind} ${c.similarity.toFixed(2)})`);
  }
}

export async function runFleetDemo(logger: Logger): Promise<number> {
  const scopes = (JSON.parse(readFileSync(join(DEMO_CORPUS, "mesh-scopes.json"), "utf8")) as { scopes: ScopeSpec[] }).scopes;
  const dir = mkdtempSync(join(tmpdir(), "mesh-demo-"));
  const children: ChildProcess[] = [];
  let node: MeshNode | undefined;
  let manager: Manager | undefined;
  const started = Date.now();
  try {
    say(`Lattice Mesh demo: a fleet over the bundled demo kernel (${DEMO_CORPUS})`);
    say(`Starting ${scopes.length} worker processes, one per subsystem; each builds its grounded index (PGC) ...`);
    children.push(...(await Promise.all(scopes.map((s) => startWorker(s, dir)))));
    node = new MeshNode({ id: "demo-manager", role: "manager", registryDir: join(dir, "registry"), gossipMs: 200, logger });
    await node.start();
    await waitForWorkers(node, scopes.length);
    manager = new Manager({ node, auditDir: join(dir, "audit"), root: DEMO_CORPUS, logger });
    for (const agent of manager.listAgents()) say(`  ${agent.scope.padEnd(8)} ${agent.id.padEnd(14)} ${String(agent.symbols).padStart(4)} symbols  index ${agent.index_revision}  ${agent.endpoint}`);
    say(`\nTopology discovered from the workers' own cross-scope calls and includes:`);
    say(renderText(await manager.topology()).trimEnd().replace(/^/gm, "  "));

    say(`\nQuestion: "${DEMO_QUESTION}"`);
    say(`Planned route, drivers → mm (BFS over the topology, max 6 hops, no scope twice):`);
    printResult(await manager.ask(DEMO_QUESTION, { from: "drivers", to: "mm" }));
    say(`\nThe same question, following the evidence from scope to scope:`);
    const followed = await manager.ask(DEMO_QUESTION);
    printResult(followed);
    say(`\nAnswer (extractive, across hops):\n${followed.answer.replace(/^/gm, "  ")}`);
    const metrics = manager.metrics.snapshot();
    say(`\n${metrics.responses} answers validated; ${metrics.citations.verified} of ${metrics.citations.checked} sampled citations matched the files; ${metrics.citations.rejected_responses} rejected.`);
  } finally {
    await manager?.audit.flush();
    await node?.stop();
    await Promise.all(
      children.map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      })),
    );
    rmSync(dir, { recursive: true, force: true });
  }
  say(`\nAll workers stopped; nothing is left running (${((Date.now() - started) / 1000).toFixed(1)} s).`);
  return EXIT.ok;
}
