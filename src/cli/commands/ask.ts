// `mesh ask "QUESTION"`: a multi-hop question to the running fleet, answered with checked evidence.
import type { MultiHopResult } from "../../../agents/manager/answer/result.js";
import { askManagerSurviving, findFleet } from "../../fleet/find-fleet.js";
import { newQuestionId } from "../../../agents/manager/question-id.js";
import { createLogger } from "../../logging.js";
import { formatResult } from "../../multi-hop-report.js";
import { logLevelOf, parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh ask "QUESTION" [--from SCOPE] [--to SCOPE] [--max-hops N] [--fleet ROOT] [--json]

Ask the running fleet a question that may cross scopes. The manager asks every scope for its best entry
points, starts where the code matches the question best (or in --from), and traces the calls from function
to function and scope to scope, at most --max-hops scopes, none twice; "Who calls X?" traces X's callers.
The answer is the traced path: numbered steps \`caller (file:line) → callee (file:lines) [scope]\`, each
call line quoted and every step re-hashed against the code, then why the search went where it did; or "No
chain found" with low confidence when nothing in the fleet matches. Replay it later with \`mesh trace ID\`.

Options:
  --from SCOPE    start here
  --to SCOPE      end here (only exits along the topology's route to it are followed)
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
  // The answer's id is drawn here: a manager that dies mid-question is asked again, under it, by its successor.
  const args = { question, id: newQuestionId(), ...(values.from ? { from: values.from } : {}), ...(values.to ? { to: values.to } : {}), max_hops: positiveInt("max-hops", values["max-hops"], 6) };
  const result = (await askManagerSurviving(fleet, "ask", args, { op: "ask", args }, logger)) as MultiHopResult;
  if (values.json) printJson(result);
  else process.stdout.write(`${formatResult(result)}\n`);
  const rejected = result.knowledge_chain.some((h) => h.verdict.status === "rejected");
  return rejected ? EXIT.failed : EXIT.ok;
}
