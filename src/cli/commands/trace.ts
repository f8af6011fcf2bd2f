// `mesh trace ID`: replay the audit record of a multi-hop answer — its path, and per hop the question
// asked, the findings, the citations and the verdict.
import { AuditLog } from "../../../agents/manager/audit-log.js";
import type { HopRecord, MultiHopResult } from "../../../agents/manager/multi-hop.js";
import { parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh trace ID --audit DIR [--json]

Print the audit record of one multi-hop answer (ID or a unique prefix of it): the query path, and for each
hop the agent, the question it was asked, its key findings, its citations (file:lines and sha256) and the
manager's validation verdict.

Options:
  --audit DIR   the manager's audit directory (holds audit.jsonl)
  --json        print the record as it was stored
  -h, --help    show this help`;

function hopLines(hop: HopRecord): string[] {
  const lines = [`  hop ${hop.hop + 1}: ${hop.scope} (${hop.agent}) — ${hop.status}, verdict ${hop.verdict.status}${hop.verdict.code ? ` ${hop.verdict.code}` : ""}`, `    asked: ${hop.question}`];
  for (const finding of hop.key_findings.slice(0, 5)) lines.push(`    finding: ${finding}`);
  for (const c of hop.citations) lines.push(`    cites ${c.file_path}:${c.line_start}-${c.line_end} ${c.sha256.slice(0, 12)}… ${c.similarity_kind} ${c.similarity.toFixed(2)}`);
  for (const reason of [...hop.verdict.reasons, ...hop.verdict.warnings]) lines.push(`    note: ${reason}`);
  return lines;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { audit: { type: "string" } }, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const id = positionals[0];
  if (!id || !values.audit) throw new CliError("mesh trace needs an ID and --audit DIR", EXIT.usage, "for example: mesh trace q-20261122-1a2b3c4d --audit ./audit");
  const record = await new AuditLog(values.audit).find(id);
  if (!record) throw new CliError(`no audit record "${id}" in ${values.audit}`, EXIT.dataError, "list the ids with: cut -c1-80 audit.jsonl");
  if (values.json) {
    printJson(record);
    return EXIT.ok;
  }
  const result = record as unknown as MultiHopResult;
  const lines = [
    `${result.id}: ${result.question}`,
    `path ${result.query_path.join(" → ")} (${result.mode}; ${result.safety.actual_hops} of at most ${result.safety.max_hops} hops; stopped: ${result.safety.stopped_because})`,
    ...result.knowledge_chain.flatMap(hopLines),
    "",
    result.answer,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return EXIT.ok;
}
