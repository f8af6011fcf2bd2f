// `mesh trace ID`: replay the audit record of a multi-hop answer — its path, and per hop the question
// asked, the findings, the citations and the verdict.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { AuditLog } from "../../../agents/manager/audit-log.js";
import type { MultiHopResult } from "../../../agents/manager/multi-hop.js";
import { meshHome } from "../../fleet/fleet-dir.js";
import { formatResult } from "../../multi-hop-report.js";
import { parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh trace ID [--audit DIR] [--json]

Print the audit record of one multi-hop answer (ID or a unique prefix of it): the query path, and for each
hop the agent, the question it was asked, its key findings, its citations (file:lines and sha256) and the
manager's validation verdict.

Options:
  --audit DIR   the manager's audit directory (default: every fleet's, under $MESH_HOME)
  --json        print the record as it was stored
  -h, --help    show this help`;

function fleetAuditDirs(): string[] {
  const base = join(meshHome(), "fleets");
  return existsSync(base) ? readdirSync(base).map((name) => join(base, name, "audit")) : [];
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { audit: { type: "string" } }, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const id = positionals[0];
  if (!id) throw new CliError("mesh trace needs an ID", EXIT.usage, "for example: mesh trace q-20261122-1a2b3c4d (the id `mesh ask` printed)");
  const dirs = values.audit ? [values.audit] : fleetAuditDirs();
  let record: Record<string, unknown> | null = null;
  for (const dir of dirs) record ??= await new AuditLog(dir).find(id);
  if (!record) throw new CliError(`no audit record "${id}" in ${values.audit ?? "any fleet's audit log"}`, EXIT.dataError, "ids are printed by `mesh ask`; audit.jsonl holds one record per line");
  if (values.json) {
    printJson(record);
    return EXIT.ok;
  }
  process.stdout.write(`${formatResult(record as unknown as MultiHopResult)}\n`);
  return EXIT.ok;
}
