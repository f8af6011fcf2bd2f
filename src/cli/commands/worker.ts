// `mesh worker`: one scope's worker agent on the mesh — builds or loads its PGC, then serves
// the ops task, ask and references until SIGINT/SIGTERM.
import { DEFAULT_MAX_FRAME_BYTES, MeshNode } from "../../../bus/index.js";
import { serveWorker, workerMeta, WORKER_ROLE } from "../../../agents/worker/worker.js";
import { workerAuthorizer } from "../../../agents/access/authorize.js";
import { knowledgeFromPgc } from "../../../agents/worker/pgc-knowledge.js";
import { createPgcExecutor } from "../../../agents/worker/pgc-executor.js";
import type { ScopeInfo } from "../../../agents/worker/executor.js";
import { createLogger } from "../../logging.js";
import { loadPgc } from "../../pgc-loader.js";
import { stopOnSignals } from "../../shutdown.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";
import { accessPolicy, nodeCurve } from "../../security.js";
import { buildExecutor, buildKnowledge } from "../worker-parts.js";

export const HELP = `Usage: mesh worker --scope NAME --root DIR [--scope-path PREFIX]... (--seed ENDPOINT... | --registry DIR) [options]

Run the worker agent of one scope: build or load its grounded index (progress on stderr), join the
mesh, and answer the ops "task" (DelegatedTask → TaskResponse), "ask" and "references". Prints one JSON
line {"event":"ready",…} on stdout when it can be reached; stops gracefully on SIGINT/SIGTERM.

Options:
  --scope NAME          the scope's name, e.g. "drivers" (required)
  --root DIR            the code base (required); the worker never reads outside its scope
  --scope-path PREFIX   a directory or file under DIR that the scope owns (repeatable; default: all of DIR)
  --id ID               node id (default NAME-PID, so replicas of a scope get distinct ids)
  --seed ENDPOINT       a node of the mesh to join through (repeatable)
  --registry DIR        local registry directory (zero-config discovery on one machine)
  --curve-secret FILE  CURVE: this node's key pair (a 0600 file; mesh keys gen)
  --keyring DIR        CURVE: admitted public keys (*.pub); seeds become ENDPOINT#PUBLICKEY
  --policy FILE        the access policy (mesh-policy.json) of a secured node, read again on change
  --bind ENDPOINT       inbox address (default tcp://127.0.0.1:*)
  --advertise ENDPOINT  endpoint to publish when peers must dial another address (tcp://HOST:*
                        publishes the bound port)
  --dial ROLE           connect on hearsay (registry, gossip) only to peers of this role (repeatable;
                        default: every role). mesh up starts workers with --dial manager: they talk
                        only to the manager, so a fleet of N workers is N links, not N²
  --exec CMD            run tasks with this agent command (CDP workspace; split on spaces)
  --workspace DIR       where .agent-workspaces/ is written for --exec (default: the current directory)
  --ask-cmd CMD         use this external \`ask --json\` command as the PGC instead of the built-in index
  --cache DIR           PGC cache directory (default $MESH_CACHE_DIR or ~/.cache/lattice-mesh)
  --rebuild             ignore the cached index and rebuild it
  --log-level LEVEL     (default info)
  -h, --help            show this help`;

const OPTIONS = {
  "curve-secret": { type: "string" },
  policy: { type: "string" },
  keyring: { type: "string" },
  scope: { type: "string" },
  root: { type: "string" },
  "scope-path": { type: "string", multiple: true },
  id: { type: "string" },
  seed: { type: "string", multiple: true },
  registry: { type: "string" },
  bind: { type: "string" },
  advertise: { type: "string" },
  dial: { type: "string", multiple: true },
  exec: { type: "string" },
  workspace: { type: "string" },
  "ask-cmd": { type: "string" },
  cache: { type: "string" },
  rebuild: { type: "boolean" },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (!values.scope || !values.root) throw new CliError("--scope and --root are required", EXIT.usage, "for example: mesh worker --scope mm --root ~/linux --scope-path mm/ --registry /tmp/mesh");
  if (!values.seed?.length && !values.registry) throw new CliError("give --seed ENDPOINT or --registry DIR so the worker can join a mesh", EXIT.usage);
  const logger = createLogger(logLevelOf(values["log-level"], "info"));
  const curve = nodeCurve(values["curve-secret"], values.keyring);
  const access = accessPolicy(values.policy, curve, values.keyring, logger);
  const scopePaths = values["scope-path"] ?? [];
  const pgc = await loadPgc({ scope: values.scope, root: values.root, scopePaths, cacheRoot: values.cache, rebuild: values.rebuild }, logger);
  const scope: ScopeInfo = { name: values.scope, root: pgc.root, paths: scopePaths };
  const knowledge = await buildKnowledge(knowledgeFromPgc(pgc), values["ask-cmd"], scope);
  const executor = values.exec ? await buildExecutor(values.exec, values.workspace ?? process.cwd(), logger) : createPgcExecutor(knowledge);
  const node = new MeshNode({
    id: values.id ?? `${values.scope}-${process.pid}`,
    role: WORKER_ROLE,
    seeds: values.seed ?? [],
    ...(values.registry ? { registryDir: values.registry } : {}),
    ...(values.bind ? { bind: values.bind } : {}),
    ...(values.advertise ? { advertise: values.advertise } : {}),
    ...(values.dial?.length ? { dialRoles: values.dial } : {}),
    meta: workerMeta(scope, knowledge, executor),
    ...curve,
    maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
    logger,
  });
  serveWorker({ node, scope, knowledge, executor, logger });
  // Requests sent to this worker directly are checked against the fleet's policy again (its manager holds the fleet key).
  if (access) node.authorize(workerAuthorizer(access, scope.name, (refusal) => logger.warn({ audit: "refused", ...refusal, principal: refusal.principal?.slice(0, 8) }, "refused by the access policy")));
  let stopping = false;
  const stopped = stopOnSignals(() => {
    stopping = true;
    return node.stop();
  }, logger);
  try {
    await node.start();
  } catch (error) {
    await node.stop();
    throw new CliError(`worker could not start: ${(error as Error).message}`, EXIT.unavailable);
  }
  const stats = knowledge.stats();
  printJson({ event: "ready", id: node.id, endpoint: node.endpoint, scope: scope.name, index_revision: stats.revision, documents: stats.documents, pid: process.pid });
  // Once reachable, the work the first questions would otherwise wait for (warm-up.ts); a request arriving
  // meanwhile is served between its slices.
  const warming = knowledge.search?.warmUp?.(() => stopping).then(
    (stats) => printJson({ event: "warmed", id: node.id, scope: scope.name, ...stats }),
    (error: unknown) => logger.warn({ err: error }, "warm-up failed; questions are answered as they come"),
  );
  const signal = await stopped;
  await warming;
  printJson({ event: "stopped", id: node.id, signal });
  return EXIT.ok;
}
