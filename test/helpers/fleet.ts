// A fleet for tests: one `mesh worker` process per scope of the demo kernel, found through a
// registry directory, plus an in-process manager node.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MeshNode } from "../../bus/index.js";
import { C_KERNEL_DIR, loadExpectedTopology } from "../fixtures/fixture-paths.js";
import { ProcessSet, type NodeProcess } from "./processes.js";

export const expected = loadExpectedTopology();

export class TestFleet {
  readonly dir = mkdtempSync(join(tmpdir(), "mesh-fleet-"));
  readonly registry = join(this.dir, "registry");
  readonly cache = join(this.dir, "cache");
  readonly processes = new ProcessSet();
  readonly workers = new Map<string, NodeProcess>();
  private readonly nodes: MeshNode[] = [];

  scopeArgs(scope: string): string[] {
    const paths = expected.scopes.find((s) => s.name === scope)?.paths ?? [];
    return ["--root", C_KERNEL_DIR, ...paths.flatMap((p) => ["--scope-path", p]), "--registry", this.registry, "--cache", this.cache];
  }

  async startWorker(scope: string, extra: string[] = []): Promise<NodeProcess> {
    const worker = await this.processes.startWorker(scope, [...this.scopeArgs(scope), ...extra]);
    this.workers.set(worker.id, worker);
    return worker;
  }

  async startAll(): Promise<void> {
    await Promise.all(expected.scopes.map((s) => this.startWorker(s.name)));
  }

  async node(id: string, role = "manager"): Promise<MeshNode> {
    const node = new MeshNode({ id, role, registryDir: this.registry, gossipMs: 200, heartbeatMs: 150, suspectMs: 500, expireMs: 1_500 });
    this.nodes.push(node);
    await node.start();
    return node;
  }

  /** Resolve once `node` sees `count` alive workers (event-driven; usable in hooks). */
  untilWorkers(node: MeshNode, count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (node.peers().filter((p) => p.state === "alive" && p.card.role === "worker").length >= count) {
          node.off("peer:join", check);
          resolve();
        }
      };
      node.on("peer:join", check);
      check();
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.splice(0).map((n) => n.stop()));
    this.processes.killAll();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
