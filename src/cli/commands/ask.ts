// `mesh ask "QUESTION"`: a multi-hop question to the running fleet, answered with checked evidence.
import type { MultiHopResult } from "../../../agents/manager/answer/result.js";
import { askManager, findFleet } from "../../fleet/find-fleet.js";
import { createLogger } from "../../logging.js";
import { formatResult } from "../../multi-hop-report.js";
import { logLevelOf, parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh ask "QUESTION" [--from SCOPE] [--to SCOPE] [--max-hops N] [--fleet ROOT] [--json]

Ask the running fleet a question that may cross scopes. With --to, the manager plans the route (BFS over
the topology, at most --max-hops scopes, none twice); otherwise it starts where the entities you name live
(or --from) and follows the evidence from scope to scope. Prints the path, each hop's findings, citations
(file:lines, sha256, similarity) and validation verdict, and the extractive answer. Replay it later with
\`mesh trace ID\`.

Options:
  --from SCOPE    start here
  --to SCOPE      end here (planned route)
  --max-hops N    hop budget (default 6)
  --fleet ROOT    the fleet's code root, when several fleets run
  --json          print the full result
  -h, --help      show this help`;

const OPTIONS = { from: { type: "string" }, to: { type: "string" }, "max-hops": { type: "string" }, fleet: { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const question = positionals.join(" ").trim();
  if (!question) throw new CliError("a QUESTION is required", EXIT.usage, 'for example: mesh ask "How does the e1000 driver allocate DMA buffers?"');
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const { fleet } = await findFleet(values.fleet);
  const args = { question, ...(values.from ? { from: values.from } : {}), ...(values.to ? { to: values.to } : {}), max_hops: positiveInt("max-hops", values["max-hops"], 6) };
  const result = (await askManager(fleet, "ask", args, logger)) as MultiHopResult;
  if (values.json) printJson(result);
  else process.stdout.write(`${formatResult(result)}\n`);
  const rejected = result.knowledge_chain.some((h) => h.verdict.status === "rejected");
  return rejected ? EXIT.failed : EXIT.ok;
}
