// `mesh demo --bus`: start a small local mesh of bare nodes and show the bus working end to end.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { MeshClient } from "../../bus/index.js";
import { fetchMeshView } from "../mesh-view.js";
import { CliError, EXIT } from "../cli/exit-codes.js";

const NODE_IDS = ["alpha", "beta", "gamma", "delta"];
const DEMO_LIVENESS = ["--heartbeat-ms", "200", "--suspect-ms", "600", "--expire-ms", "2000"];
const WAIT_LIMIT_MS = 15_000;
const POLL_MS = 100;
const MESH_BIN = fileURLToPath(new URL("../../../bin/mesh.js", import.meta.url));

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + WAIT_LIMIT_MS;
  while (Date.now() < until) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new CliError(`demo: gave up waiting for ${what}`, EXIT.failed);
}

function startNode(id: string, registry: string): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(process.execPath, [MESH_BIN, "node", "--id", id, "--registry", registry, "--log-level", "warn", ...DEMO_LIVENESS], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ child, endpoint: (JSON.parse(line) as { endpoint: string }).endpoint }));
    child.once("exit", (code) => reject(new CliError(`demo: node ${id} exited with ${code} before it was ready`, EXIT.failed)));
  });
}

export async function runBusDemo(logger: Logger): Promise<number> {
  const registry = mkdtempSync(join(tmpdir(), "mesh-demo-"));
  const children = new Map<string, ChildProcess>();
  try {
    say(`Starting ${NODE_IDS.length} nodes as separate processes, discovering each other through ${registry}`);
    for (const id of NODE_IDS) {
      const { child, endpoint } = await startNode(id, registry);
      children.set(id, child);
      say(`  ${id.padEnd(6)} pid ${child.pid}  ${endpoint}`);
    }
    const target = { seeds: [], registryDir: registry };
    const view = await waitFor("the mesh to converge", async () => {
      const v = await fetchMeshView(target, logger);
      return v.peers.filter((p) => p.state === "alive").length === NODE_IDS.length - 1 ? v : undefined;
    });
    say(`\n${view.self.id} sees every other node alive: ${view.peers.map((p) => p.card.id).sort().join(", ")}`);

    const delta = view.peers.find((p) => p.card.id === "delta") ?? view.peers[0];
    const client = new MeshClient({ endpoint: delta?.card.endpoint ?? view.self.endpoint, logger });
    const rtts: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = process.hrtime.bigint();
      await client.request("ping", {});
      rtts.push(Number(process.hrtime.bigint() - started) / 1_000);
    }
    await client.close();
    rtts.sort((a, b) => a - b);
    say(`20 request/reply round trips to delta (CRC-checked msgpack frames): median ${Math.round(rtts[10] ?? 0)} µs`);

    say(`\nKilling gamma with SIGKILL (no goodbye) ...`);
    const started = Date.now();
    children.get("gamma")?.kill("SIGKILL");
    children.delete("gamma");
    await waitFor("gamma to expire", async () => {
      const v = await fetchMeshView({ seeds: [view.self.endpoint] }, logger);
      return v.peers.some((p) => p.card.id === "gamma") ? undefined : v;
    });
    say(`${view.self.id} noticed gamma was gone after ${((Date.now() - started) / 1_000).toFixed(1)} s (expiry bound 2 s); the others keep working.`);
  } finally {
    say(`\nStopping the remaining nodes gracefully (SIGTERM: goodbye, drain, close) ...`);
    await Promise.all(
      [...children.values()].map(
        (child) => new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
      ),
    );
    rmSync(registry, { recursive: true, force: true });
  }
  say("All nodes stopped. Nothing is left running.");
  return EXIT.ok;
}
