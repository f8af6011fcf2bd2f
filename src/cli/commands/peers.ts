// `mesh peers`: list the nodes of a mesh, as seen by the first node that answers.
import { createLogger } from "../../logging.js";
import { fetchMeshView } from "../../mesh-view.js";
import { clientSecurity } from "../../security.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh peers (--seed ENDPOINT | --registry DIR) [--curve-secret FILE --keyring DIR] [--json]

List the nodes of a mesh with their state and age, as seen by the first node that answers.

Options:
  --seed ENDPOINT   a node of the mesh (repeatable; the first that answers is used)
  --registry DIR    the mesh's local registry directory
  --curve-secret FILE  a secured mesh: this client's key pair (its public key in the nodes' keyrings)
  --keyring DIR     a secured mesh: the public keys of nodes to trust (a seed is then ENDPOINT#KEY)
  --json            print one JSON object: {"via": CARD, "nodes": [...]}
  --log-level LEVEL (default warn)
  -h, --help        show this help`;

const OPTIONS = { seed: { type: "string", multiple: true }, registry: { type: "string" }, "curve-secret": { type: "string" }, keyring: { type: "string" } } as const;

function age(ms: number | null): string {
  if (ms === null) return "never";
  return ms < 1_000 ? `${ms}ms` : `${(ms / 1_000).toFixed(1)}s`;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const security = clientSecurity(values["curve-secret"], values.keyring);
  const view = await fetchMeshView({ seeds: values.seed ?? [], registryDir: values.registry, security }, logger);
  const nodes = [
    { id: view.self.id, role: view.self.role, state: "self", endpoint: view.self.endpoint, incarnation: view.self.incarnation, last_seen_ms_ago: 0, known_for_ms: 0, meta: view.self.meta },
    ...view.peers.map((p) => ({ id: p.card.id, role: p.card.role, state: p.state, endpoint: p.card.endpoint, incarnation: p.card.incarnation, last_seen_ms_ago: p.last_seen_ms_ago, known_for_ms: p.known_for_ms, meta: p.card.meta })),
  ].sort((a, b) => a.id.localeCompare(b.id));
  if (values.json) {
    printJson({ via: view.self.id, nodes });
    return EXIT.ok;
  }
  const header = ["ID", "ROLE", "STATE", "LAST SEEN", "ENDPOINT"];
  const rows = nodes.map((n) => [n.id, n.role, n.state, n.state === "self" ? "-" : age(n.last_seen_ms_ago), n.endpoint]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd()}\n`);
  process.stdout.write(`${nodes.length} node(s), as seen by ${view.self.id}\n`);
  return EXIT.ok;
}
