// `mesh manager`: run the manager of a fleet on the mesh until SIGINT/SIGTERM.
import { MeshNode } from "../../../bus/index.js";
import { Manager } from "../../../agents/manager/manager.js";
import { MANAGER_ROLE, serveManager } from "../../../agents/manager/serve-manager.js";
import { createLogger } from "../../logging.js";
import { stopOnSignals } from "../../shutdown.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";
import { mkdirSync } from "node:fs";
import { acquireManagerLock, ManagerLockedError, type ManagerLock } from "../../fleet/manager-lock.js";
import { accessPolicy, nodeCurve } from "../../security.js";

export const HELP = `Usage: mesh manager --audit DIR (--seed ENDPOINT... | --registry DIR) [--root DIR] [--id ID]

Run a fleet's manager: it discovers the workers and the topology, answers the ops agents, topology, ask,
delegate, trace and metrics (the CLI's mesh agents / topology / ask / delegate use them), validates every
answer's evidence, and writes audit.jsonl, hops.jsonl, outputs/ and MANIFEST.jsonl under --audit. Prints one JSON line
{"event":"ready",…} when reachable; stops gracefully on SIGINT/SIGTERM. \`mesh up\` starts one for you.

Options:
  --audit DIR       audit directory (required)
  --root DIR        the code base, so the manager can re-hash citations itself (else replicas do)
  --registry DIR    local registry directory
  --curve-secret FILE  CURVE: this node's key pair (a 0600 file; mesh keys gen)
  --keyring DIR        CURVE: admitted public keys (*.pub); seeds become ENDPOINT#PUBLICKEY
  --policy FILE        the access policy (mesh-policy.json) of a secured node, read again on change
  --seed ENDPOINT   a node of the mesh (repeatable)
  --id ID           node id (default manager-PID)
  --bind ENDPOINT   inbox address (default tcp://127.0.0.1:*)
  --advertise ENDPOINT  endpoint to publish when workers must dial another address (tcp://HOST:PORT;
                    tcp://HOST:* publishes the bound port)
  --log-level LEVEL (default info)
  -h, --help        show this help`;

const OPTIONS = { "curve-secret": { type: "string" }, policy: { type: "string" }, keyring: { type: "string" }, audit: { type: "string" }, root: { type: "string" }, registry: { type: "string" }, seed: { type: "string", multiple: true }, id: { type: "string" }, bind: { type: "string" }, advertise: { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (!values.audit) throw new CliError("--audit DIR is required", EXIT.usage);
  if (!values.seed?.length && !values.registry) throw new CliError("give --seed ENDPOINT or --registry DIR so the manager can find the workers", EXIT.usage);
  const logger = createLogger(logLevelOf(values["log-level"], "info"));
  // One manager per fleet (per audit directory): refuse while another lives, take over from a dead one.
  let lock: ManagerLock;
  try {
    mkdirSync(values.audit, { recursive: true });
    lock = acquireManagerLock(values.audit, Date.now());
  } catch (error) {
    if (error instanceof ManagerLockedError) throw new CliError(error.message, EXIT.unavailable, "use that manager, or stop its fleet with `mesh down ROOT` first");
    throw error;
  }
  if (lock.tookOverFrom) logger.warn({ previous: lock.tookOverFrom }, "took over the manager lock from a manager that is gone");
  const curve = nodeCurve(values["curve-secret"], values.keyring);
  const access = accessPolicy(values.policy, curve, values.keyring, logger);
  const node = new MeshNode({
    id: values.id ?? `manager-${process.pid}`,
    role: MANAGER_ROLE,
    seeds: values.seed ?? [],
    ...(values.registry ? { registryDir: values.registry } : {}),
    ...(values.bind ? { bind: values.bind } : {}),
    ...(values.advertise ? { advertise: values.advertise } : {}),
    ...curve,
    logger,
  });
  const manager = new Manager({ node, auditDir: values.audit, ...(values.root ? { root: values.root } : {}), logger });
  serveManager(node, manager, access);
  let unwatch = () => {};
  const stopped = stopOnSignals(() => {
    unwatch();
    return node.stop();
  }, logger);
  // Tasks a previous manager of this fleet accepted and did not finish are sent again (docs/MANAGER.md, "The
  // journal"), each waiting for its scope's workers to join. They are taken up before the node listens: a
  // client sending one again the moment the endpoint is bound (its retry was queued while the manager was
  // down) joins the resumed task, rather than starting it anew before any worker has joined.
  manager.journal.compact();
  const resumed = manager.resumeJournal();
  await node.start();
  // The topology is derived as workers join, not at the first question (scope-map.ts, watch).
  unwatch = manager.scopeMap.watch();
  printJson({ event: "ready", id: node.id, endpoint: node.endpoint, pid: process.pid, ...(resumed > 0 ? { resumed } : {}) });
  const signal = await stopped;
  await manager.audit.flush();
  manager.audit.close();
  manager.journal.close();
  lock.release();
  printJson({ event: "stopped", id: node.id, signal });
  return EXIT.ok;
}
