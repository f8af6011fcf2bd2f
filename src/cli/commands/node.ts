// `mesh node`: run a bare mesh node until SIGINT/SIGTERM.
import { DEFAULT_EXPIRE_MS, DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_FRAME_BYTES, DEFAULT_SUSPECT_MS, MeshNode } from "../../../bus/index.js";
import { createLogger } from "../../logging.js";
import { stopOnSignals } from "../../shutdown.js";
import { logLevelOf, parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";
import { nodeCurve } from "../../security.js";

export const HELP = `Usage: mesh node --id ID [options]

Run a bare mesh node. Prints one JSON line {"event":"ready",…} on stdout once it can be reached,
and {"event":"stopped",…} after a graceful stop (SIGINT or SIGTERM).

Options:
  --id ID               node id: 1-64 chars of [A-Za-z0-9._:@-] (required)
  --bind ENDPOINT       where to bind the inbox (default tcp://127.0.0.1:*; ipc://PATH works too)
  --advertise ENDPOINT  endpoint to publish when peers must dial another address than --bind
  --seed ENDPOINT       a node to join through (repeatable); any node can be a seed
  --registry DIR        local registry directory for zero-config discovery on one machine
  --curve-secret FILE  CURVE: this node's key pair (a 0600 file; mesh keys gen)
  --keyring DIR        CURVE: admitted public keys (*.pub); seeds become ENDPOINT#PUBLICKEY
  --role ROLE           role published in the node's card (default "node")
  --meta KEY=VALUE      metadata published in the card (repeatable)
  --heartbeat-ms N      ping peers quiet for this long (default 1000)
  --suspect-ms N        mark a quiet peer suspect after this long (default 3000)
  --expire-ms N         drop a quiet peer after this long (default 10000)
  --max-frame-bytes N   refuse frames larger than this with a too_large NACK (default 1048576)
  --diagnostic-ops      also answer the ops "echo" and "sleep" {ms}, for trying a mesh by hand
  --log-level LEVEL     fatal|error|warn|info|debug|trace|silent (default info)
  -h, --help            show this help`;

const OPTIONS = {
  "curve-secret": { type: "string" },
  keyring: { type: "string" },
  id: { type: "string" },
  bind: { type: "string" },
  advertise: { type: "string" },
  seed: { type: "string", multiple: true },
  registry: { type: "string" },
  role: { type: "string" },
  meta: { type: "string", multiple: true },
  "heartbeat-ms": { type: "string" },
  "suspect-ms": { type: "string" },
  "expire-ms": { type: "string" },
  "max-frame-bytes": { type: "string" },
  "diagnostic-ops": { type: "boolean" },
} as const;

function parseMeta(pairs: string[] | undefined): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new CliError(`--meta expects KEY=VALUE (got "${pair}")`, EXIT.usage);
    meta[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return meta;
}

function sleep(ms: number, signal: AbortSignal): Promise<{ slept_ms: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ slept_ms: ms }), ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("sleep aborted"));
    });
  });
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (!values.id) throw new CliError("--id is required", EXIT.usage, "for example: mesh node --id n1 --registry /tmp/mesh");
  const logger = createLogger(logLevelOf(values["log-level"], "info"));
  const node = new MeshNode({
    id: values.id,
    ...(values.bind ? { bind: values.bind } : {}),
    ...(values.advertise ? { advertise: values.advertise } : {}),
    ...(values.registry ? { registryDir: values.registry } : {}),
    seeds: values.seed ?? [],
    role: values.role ?? "node",
    meta: parseMeta(values.meta),
    ...nodeCurve(values["curve-secret"], values.keyring),
    heartbeatMs: positiveInt("heartbeat-ms", values["heartbeat-ms"], DEFAULT_HEARTBEAT_MS),
    suspectMs: positiveInt("suspect-ms", values["suspect-ms"], DEFAULT_SUSPECT_MS),
    expireMs: positiveInt("expire-ms", values["expire-ms"], DEFAULT_EXPIRE_MS),
    maxFrameBytes: positiveInt("max-frame-bytes", values["max-frame-bytes"], DEFAULT_MAX_FRAME_BYTES),
    logger,
  });
  if (values["diagnostic-ops"]) {
    node.handle("echo", (args) => args);
    node.handle("sleep", (args, ctx) => sleep(Number((args as { ms?: unknown })?.ms ?? 0), ctx.signal));
  }
  const stopped = stopOnSignals(() => node.stop(), logger);
  try {
    await node.start();
  } catch (error) {
    await node.stop();
    throw new CliError(`node ${values.id} could not start: ${(error as Error).message}`, EXIT.unavailable, "pick another --bind endpoint, or stop the process that holds it");
  }
  printJson({ event: "ready", id: node.id, endpoint: node.endpoint, incarnation: node.incarnation, pid: process.pid });
  const signal = await stopped;
  printJson({ event: "stopped", id: node.id, signal });
  return EXIT.ok;
}
