// `mesh ping ID`: find a node through the mesh and time request/reply round trips to it.
import { MeshClient } from "../../../bus/index.js";
import { createLogger } from "../../logging.js";
import { CLI_REQUEST_TIMEOUT_MS, fetchMeshView } from "../../mesh-view.js";
import { clientSecurity, curveFor } from "../../security.js";
import { logLevelOf, parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh ping ID (--seed ENDPOINT | --registry DIR) [--curve-secret FILE --keyring DIR] [--count N] [--json]

Send the built-in "ping" op to node ID and print each round trip (request, reply, decode).

Options:
  --seed ENDPOINT   a node of the mesh (repeatable)
  --registry DIR    the mesh's local registry directory
  --curve-secret FILE  a secured mesh: this client's key pair (its public key in the nodes' keyrings)
  --keyring DIR     a secured mesh: the public keys of nodes to trust (a seed is then ENDPOINT#KEY)
  --count N         number of pings (default 3)
  --timeout-ms N    deadline of each ping (default 3000)
  --json            print one JSON object with every round trip and the node's health
  --log-level LEVEL (default warn)
  -h, --help        show this help`;

const OPTIONS = {
  seed: { type: "string", multiple: true },
  registry: { type: "string" }, "curve-secret": { type: "string" }, keyring: { type: "string" },
  count: { type: "string" },
  "timeout-ms": { type: "string" },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new CliError("mesh ping takes exactly one node ID", EXIT.usage, "for example: mesh ping n2 --registry /tmp/mesh");
  const count = positiveInt("count", values.count, 3);
  const timeoutMs = positiveInt("timeout-ms", values["timeout-ms"], CLI_REQUEST_TIMEOUT_MS);
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const security = clientSecurity(values["curve-secret"], values.keyring);
  const view = await fetchMeshView({ seeds: values.seed ?? [], registryDir: values.registry, security }, logger);
  const card = view.self.id === id ? view.self : view.peers.find((p) => p.card.id === id)?.card;
  if (!card) throw new CliError(`node "${id}" is not in the mesh (asked ${view.self.id})`, EXIT.unavailable, "list the nodes with `mesh peers`");
  const curve = curveFor(security, card.curve_key);
  if (!curve) throw new CliError(`node "${id}" has no public key in the keyring`, EXIT.unavailable, "add its key with `mesh keys add NAME KEY --keyring DIR`");
  const client = new MeshClient({ endpoint: card.endpoint, timeoutMs, attempts: 1, logger, ...curve });
  const rtts: number[] = [];
  let health: unknown;
  try {
    for (let i = 0; i < count; i++) {
      const started = process.hrtime.bigint();
      health = await client.request("ping", {});
      const rttUs = Number(process.hrtime.bigint() - started) / 1_000;
      rtts.push(rttUs);
      if (!values.json) process.stdout.write(`reply from ${id} (${card.endpoint}): seq=${i + 1} time=${(rttUs / 1_000).toFixed(3)} ms\n`);
    }
  } catch (error) {
    throw new CliError(`no reply from ${id} at ${card.endpoint}: ${(error as Error).message}`, EXIT.unavailable);
  } finally {
    await client.close();
  }
  const sorted = [...rtts].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  if (values.json) printJson({ id, endpoint: card.endpoint, rtt_us: rtts, median_rtt_us: median, health });
  else process.stdout.write(`${count} ping(s) to ${id}: median ${(median / 1_000).toFixed(3)} ms\n`);
  return EXIT.ok;
}
