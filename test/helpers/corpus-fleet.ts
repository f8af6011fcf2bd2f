// A fleet over a small code base written for a test: one `mesh worker` process per scope (each a path of
// the code base), found through a registry directory, and an in-process manager answering questions.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { Manager } from "../../agents/manager/manager.js";
import { serveManager } from "../../agents/manager/serve-manager.js";
import { MeshNode } from "../../bus/index.js";
import { writeCorpus } from "./corpus.js";
import { ProcessSet } from "./processes.js";

export class CorpusFleet {
  private constructor(
    readonly root: string,
    private readonly node: MeshNode,
    readonly manager: Manager,
    private readonly processes: ProcessSet,
  ) {}

  /** Writes `sources`, starts a worker for each scope (name → path) and the manager, and resolves once every worker is seen alive. */
  static async start(prefix: string, sources: Record<string, string>, scopes: Record<string, string>): Promise<CorpusFleet> {
    const root = writeCorpus(prefix, sources);
    const registry = join(root, ".registry");
    const cache = join(root, ".cache");
    const processes = new ProcessSet();
    await Promise.all(Object.entries(scopes).map(([scope, path]) => processes.startWorker(scope, ["--root", root, "--scope-path", path, "--registry", registry, "--cache", cache])));
    const node = new MeshNode({ id: "manager", role: "manager", registryDir: registry, gossipMs: 200, heartbeatMs: 150, suspectMs: 500, expireMs: 1_500 });
    await node.start();
    await untilWorkers(node, Object.keys(scopes).length);
    const manager = new Manager({ node, auditDir: join(root, ".audit"), root, logger: pino({ level: "silent" }) });
    serveManager(node, manager);
    return new CorpusFleet(root, node, manager, processes);
  }

  /** The text of one line of a file of the code base (1-based). */
  lineOf(path: string, line: number): string {
    return readFileSync(join(this.root, path), "utf8").split("\n")[line - 1] ?? "";
  }

  async stop(): Promise<void> {
    await this.manager.audit.flush();
    await this.node.stop();
    this.processes.killAll();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Resolves once `node` sees `count` alive workers (on its join events, no polling). */
function untilWorkers(mesh: MeshNode, count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (mesh.peers().filter((p) => p.state === "alive" && p.card.role === "worker").length < count) return;
      mesh.off("peer:join", check);
      resolve();
    };
    mesh.on("peer:join", check);
    check();
  });
}
