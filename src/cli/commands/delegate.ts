// `mesh delegate`: a DelegatedTask through the fleet's manager, with its CDP workspace and manifest line.
import { GROUNDING_STRATEGIES, type GroundingStrategy } from "../../../agents/protocol/index.js";
import type { AgentInfo } from "../../../agents/manager/agents-directory.js";
import { buildTask, delegateTask, liveScopes, UnknownScopeError } from "../../delegation.js";
import { askManager, findFleet } from "../../fleet/find-fleet.js";
import { createLogger } from "../../logging.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { overlaysOption } from "../overlays-option.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh delegate --scope SCOPE --task TEXT [--criteria TEXT]... [--strategy S] [--overlays O1,O3] [--critical] [--json]

Send a DelegatedTask to a scope of the running fleet through its manager (least-loaded replica, fail-over,
evidence validation). Writes the CDP workspace .agent-workspaces/<task-id>/ (HANDOFF.md, OUTPUT.md) in the
fleet directory and one MANIFEST.jsonl line in its audit directory.

Options:
  --scope SCOPE      the scope to delegate to (required)
  --task TEXT        what to do (required)
  --criteria TEXT    an acceptance criterion (repeatable)
  --strategy S       pgc_first | pgc_verify | pgc_cite (default) | none
  --overlays O1,O3   overlay hints
  --critical         validate every citation; low confidence is rejected
  --fleet ROOT       the fleet's code root, when several fleets run
  --json             print {response, verdict, agent, failovers, workspace}
  -h, --help         show this help`;

const OPTIONS = { scope: { type: "string" }, task: { type: "string" }, criteria: { type: "string", multiple: true }, strategy: { type: "string" }, overlays: { type: "string" }, critical: { type: "boolean" }, fleet: { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (!values.scope || !values.task) throw new CliError("--scope and --task are required", EXIT.usage, 'for example: mesh delegate --scope mm --task "explain alloc_pages" --criteria "names alloc_pages"');
  const strategy = (values.strategy ?? "pgc_cite") as GroundingStrategy;
  if (!(GROUNDING_STRATEGIES as readonly string[]).includes(strategy)) throw new CliError(`unknown strategy "${strategy}"`, EXIT.usage, `strategies: ${GROUNDING_STRATEGIES.join(", ")}`);
  const overlays = overlaysOption(values.overlays);
  const task = buildTask({ task: values.task, criteria: values.criteria ?? [], strategy, ...(overlays ? { overlays } : {}), ...(values.critical ? { critical: true } : {}) });
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const { dir, fleet } = await findFleet(values.fleet);
  const agents = (await askManager(fleet, "agents", {}, logger)) as AgentInfo[];
  const result = await delegateTask(dir, fleet, liveScopes(fleet, agents), values.scope, task, (args) => askManager(fleet, "delegate", args, logger)).catch((error: unknown) => {
    if (error instanceof UnknownScopeError) throw new CliError(error.message, EXIT.usage, `scopes: ${error.known.join(", ")}`);
    throw error;
  });
  const { workspace } = result;
  if (values.json) printJson(result);
  else process.stdout.write(`${task.id} → ${result.agent}: ${result.response.status}, verdict ${result.verdict.status}${result.verdict.code ? ` (${result.verdict.code})` : ""}\n${result.response.result}\nworkspace: ${workspace}\n`);
  return result.verdict.status === "rejected" ? EXIT.failed : EXIT.ok;
}
