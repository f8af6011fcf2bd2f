// `mesh agents` / `mesh status`: every agent of the running fleet with scope, state, load, index, uptime.
import type { AgentInfo } from "../../../agents/manager/agents-directory.js";
import { askManager, findFleet } from "../../fleet/find-fleet.js";
import { createLogger } from "../../logging.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh agents [--fleet ROOT] [--json]     (also: mesh status)

List the agents of the running fleet (the only one, or the one of --fleet ROOT): scope, host, state,
load, index revision, protocol versions and how long the manager has known each.

Options:
  --fleet ROOT   the fleet's code root, when several fleets run
  --json         print the list as JSON
  -h, --help     show this help`;

function age(ms: number | null): string {
  if (ms === null) return "-";
  return ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)}m`;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { fleet: { type: "string" } });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const { fleet } = await findFleet(values.fleet);
  const agents = (await askManager(fleet, "agents", {}, logger)) as AgentInfo[];
  if (values.json) {
    printJson({ root: fleet.root, manager: fleet.manager, agents });
    return EXIT.ok;
  }
  const header = ["SCOPE", "ID", "HOST", "STATE", "LOAD", "INDEX", "PROTOCOLS", "UP"];
  const rows = agents.map((a) => [a.scope, a.id, a.host || "-", a.state, String(a.load), a.index_revision, a.protocol_versions.join(","), age(a.uptime_hint_ms)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd()}\n`);
  process.stdout.write(`${agents.length} worker(s) in the fleet for ${fleet.root}; manager ${fleet.manager?.endpoint}\n`);
  return EXIT.ok;
}
