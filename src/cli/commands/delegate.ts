// `mesh delegate`: a DelegatedTask through the fleet's manager, with its CDP workspace and manifest line.
import { GROUNDING_STRATEGIES, type GroundingStrategy } from "../../../agents/protocol/index.js";
import type { AgentInfo } from "../../../agents/manager/agents-directory.js";
import { readFileSync } from "node:fs";
import { buildTask, delegateTask, liveScopes, UnknownScopeError } from "../../delegation.js";
import { FleetLink } from "../../fleet/fleet-link.js";
import { delegatePlan, PlanError } from "../../plans/index.js";
import { askManager, askManagerSurviving, findFleet, UNAUTHORIZED_HINT } from "../../fleet/find-fleet.js";
import { createLogger } from "../../logging.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { overlaysOption } from "../overlays-option.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh delegate --scope SCOPE --task TEXT [--criteria TEXT]... [--strategy S] [--overlays O1,O3] [--critical] [--json]
       mesh delegate --plan PLAN.json [--json]

Send a DelegatedTask to a scope of the running fleet through its manager (least-loaded replica, fail-over,
evidence validation). Writes the CDP workspace .agent-workspaces/<task-id>/ (HANDOFF.md, OUTPUT.md) in the
fleet directory and one MANIFEST.jsonl line in its audit directory.

With --plan, runs a delegation plan: several steps for the fleet's scopes, some depending on others
({"strategy"?, "tasks": [{"id", "scope", "task", "criteria"?, "depends_on"?, "strategy"?, "model_hint"?}]}).
The plan is checked whole first (unknown scopes, dependency cycles: nothing runs); its complexity and
dependency count choose how it runs — parallel, sequential, pipeline or fan-out-fan-in — unless it names
one (docs/PLANS.md). Progress on stderr; Ctrl-C cancels the running steps on their workers. Exits 0 when
every step completed, 1 when some did not.

Options:
  --plan FILE        run a delegation plan (a JSON file, or - for stdin)
  --scope SCOPE      the scope to delegate to (required without --plan)
  --task TEXT        what to do (required)
  --criteria TEXT    an acceptance criterion (repeatable)
  --strategy S       pgc_first | pgc_verify | pgc_cite (default) | none
  --overlays O1,O3   overlay hints
  --critical         validate every citation; low confidence is rejected
  --fleet ROOT       the fleet's code root, when several fleets run
  --json             print {response, verdict, agent, failovers, workspace}
  -h, --help         show this help`;

const OPTIONS = { plan: { type: "string" }, scope: { type: "string" }, task: { type: "string" }, criteria: { type: "string", multiple: true }, strategy: { type: "string" }, overlays: { type: "string" }, critical: { type: "boolean" }, fleet: { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (values.plan) return runPlanFile(values.plan, values.fleet, values.json === true, logLevelOf(values["log-level"], "warn"));
  if (!values.scope || !values.task) throw new CliError("--scope and --task are required", EXIT.usage, 'for example: mesh delegate --scope mm --task "explain alloc_pages" --criteria "names alloc_pages"');
  const strategy = (values.strategy ?? "pgc_cite") as GroundingStrategy;
  if (!(GROUNDING_STRATEGIES as readonly string[]).includes(strategy)) throw new CliError(`unknown strategy "${strategy}"`, EXIT.usage, `strategies: ${GROUNDING_STRATEGIES.join(", ")}`);
  const overlays = overlaysOption(values.overlays);
  const task = buildTask({ task: values.task, criteria: values.criteria ?? [], strategy, ...(overlays ? { overlays } : {}), ...(values.critical ? { critical: true } : {}) });
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const { dir, fleet } = await findFleet(values.fleet);
  const agents = (await askManager(fleet, "agents", {}, logger)) as AgentInfo[];
  const result = await delegateTask(dir, fleet, liveScopes(fleet, agents), values.scope, task, (args) => askManagerSurviving(fleet, "delegate", args, { op: "delegation", args: { task_id: task.id } }, logger)).catch((error: unknown) => {
    if (error instanceof UnknownScopeError) throw new CliError(error.message, EXIT.usage, `scopes: ${error.known.join(", ")}`);
    throw error;
  });
  const { workspace } = result;
  if (values.json) printJson(result);
  else process.stdout.write(`${task.id} → ${result.agent}: ${result.response.status}, verdict ${result.verdict.status}${result.verdict.code ? ` (${result.verdict.code})` : ""}\n${result.response.result}\nworkspace: ${workspace}\n`);
  return result.verdict.status === "rejected" ? EXIT.failed : EXIT.ok;
}

async function runPlanFile(file: string, root: string | undefined, json: boolean, level: ReturnType<typeof logLevelOf>): Promise<number> {
  let value: unknown;
  try {
    value = JSON.parse(file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8"));
  } catch (error) {
    throw new CliError(`cannot read the plan ${file}: ${(error as Error).message}`, EXIT.dataError, "a plan is JSON: {\"tasks\": [{\"id\", \"scope\", \"task\", \"depends_on\"?}]}");
  }
  const logger = createLogger(level);
  const link = new FleetLink(root, logger);
  const controller = new AbortController();
  const cancel = () => {
    process.stderr.write("plan: cancelling the running steps…\n");
    controller.abort();
  };
  process.once("SIGINT", cancel);
  process.once("SIGTERM", cancel);
  try {
    const { dir, fleet } = await link.fleet();
    const agents = (await link.request("agents", {})) as AgentInfo[];
    const result = await delegatePlan(
      { dir, fleet, scopes: liveScopes(fleet, agents), request: (op, args, signal, recover) => link.request(op, args, { ...(signal ? { signal } : {}), ...(recover ? { recover } : {}) }) },
      value,
      { signal: controller.signal, onProgress: (counts, event) => process.stderr.write(`plan: ${event} — ${counts.completed} done, ${counts.running} running, ${counts.waiting} waiting${counts.failed + counts.blocked + counts.cancelled > 0 ? `, ${counts.failed} failed, ${counts.blocked} blocked, ${counts.cancelled} cancelled` : ""}\n`) },
    ).catch((error: unknown) => {
      if (error instanceof PlanError) throw new CliError(`${error.message} (${error.code})`, EXIT.dataError, "nothing ran; fix the plan and run it again");
      if ((error as { code?: unknown }).code === "unauthorized") throw new CliError(`plan refused, nothing ran: ${(error as Error).message.replace(/^unauthorized: /, "")}`, EXIT.forbidden, UNAUTHORIZED_HINT);
      throw error;
    });
    if (json) printJson(result);
    else {
      process.stdout.write(`plan ${result.id}: ${result.status} — ${result.strategy.mode} (${result.strategy.reason}; model hint ${result.strategy.model_hint})\n`);
      for (const step of result.steps) process.stdout.write(`  ${step.id} [${step.scope}] ${step.status}${step.agent ? ` by ${step.agent}` : ""}${step.verdict ? `, verdict ${step.verdict.status}` : ""}${step.reason ? ` — ${step.reason}` : ""}${step.workspace ? `\n      ${step.workspace}` : ""}\n`);
      if (result.aggregate) process.stdout.write(`fan-in:\n${result.aggregate.summary}\n`);
    }
    return result.status === "completed" ? EXIT.ok : EXIT.failed;
  } finally {
    process.off("SIGINT", cancel);
    process.off("SIGTERM", cancel);
    await link.close();
  }
}
