// `mesh trace ID`: replay the audit record of a multi-hop answer — its path, and per hop the question
// asked, the findings, the citations and the verdict.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { AuditLog } from "../../../agents/manager/audit-log.js";
import type { MultiHopResult } from "../../../agents/manager/answer/result.js";
import { recheckCitations } from "../../../agents/manager/recheck.js";
import { meshHome, readFleet } from "../../fleet/fleet-dir.js";
import { formatResult } from "../../multi-hop-report.js";
import { parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh trace ID [--audit DIR] [--verify [--root DIR]] [--json]

Print the audit record of one multi-hop answer (ID or a unique prefix of it): the query path, and for each
hop the agent, the question it was asked, its key findings, its citations (file:lines and sha256) and the
manager's validation verdict.

With --verify, re-hash every citation of the answer against the code as it is now (the manager checked a
sample of them when it accepted the answer) and say which still match; exits 1 when any does not.

Options:
  --audit DIR   the manager's audit directory (default: every fleet's, under $MESH_HOME)
  --verify      re-check every citation against the files under the fleet's root
  --root DIR    the code base to check against (default: the root of the fleet whose audit log holds ID)
  --json        print the record as it was stored (with --verify: the re-check, one entry per citation)
  -h, --help    show this help`;

function fleetAuditDirs(): string[] {
  const base = join(meshHome(), "fleets");
  return existsSync(base) ? readdirSync(base).map((name) => join(base, name, "audit")) : [];
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { audit: { type: "string" }, verify: { type: "boolean" }, root: { type: "string" } }, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const id = positionals[0];
  if (!id) throw new CliError("mesh trace needs an ID", EXIT.usage, "for example: mesh trace q-20261122-1a2b3c4d (the id `mesh ask` printed)");
  const dirs = values.audit ? [values.audit] : fleetAuditDirs();
  let record: Record<string, unknown> | null = null;
  let foundIn: string | undefined;
  for (const dir of dirs) {
    record ??= await new AuditLog(dir).find(id);
    foundIn ??= record ? dir : undefined;
  }
  if (!record) throw new CliError(`no audit record "${id}" in ${values.audit ?? "any fleet's audit log"}`, EXIT.dataError, "ids are printed by `mesh ask`; audit.jsonl holds one record per line");
  const result = record as unknown as MultiHopResult;
  if (values.verify) return verify(result, values.root ?? (foundIn ? readFleet(dirname(foundIn))?.root : undefined), values.json === true);
  if (values.json) {
    printJson(record);
    return EXIT.ok;
  }
  process.stdout.write(`${formatResult(result)}\n`);
  return EXIT.ok;
}

function verify(result: MultiHopResult, root: string | undefined, json: boolean): number {
  if (!root) throw new CliError("mesh trace --verify needs the code base to check against", EXIT.usage, "give --root DIR (the record was not found in a fleet's own audit log)");
  const report = recheckCitations(result, root);
  if (json) printJson(report);
  else {
    const lines = report.citations.map((c) => `  hop ${c.hop + 1} ${c.scope}: ${c.outcome === "match" ? "match  " : c.outcome.padEnd(7)} ${c.file_path}:${c.line_start}-${c.line_end}${c.outcome === "match" ? "" : ` — ${c.detail}`}`);
    process.stdout.write(`${[`${report.id}: citations re-checked against ${root}`, ...lines, `${report.matching} of ${report.citations.length} citation(s) still match the code`].join("\n")}\n`);
  }
  return report.matching === report.citations.length ? EXIT.ok : EXIT.failed;
}
