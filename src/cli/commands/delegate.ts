// `mesh delegate`: a DelegatedTask through the fleet's manager, with its CDP workspace and manifest line.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { GROUNDING_STRATEGIES, type DelegatedTask, type GroundingStrategy, type TaskResponse } from "../../../agents/protocol/index.js";
import { renderHandoff } from "../../../agents/worker/exec/handoff.js";
import { WORKSPACES_DIR, workspaceName } from "../../../agents/worker/exec/exec-executor.js";
import type { Verdict } from "../../../agents/manager/validation/index.js";
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

function outputMarkdown(response: TaskResponse, verdict: Verdict, agent: string): string {
  const citations = (response.grounding_evidence?.citations ?? []).map((c) => `- \`${c.file_path}:${c.line_start}-${c.line_end}\` sha256 ${c.sha256} (${c.similarity_kind} ${c.similarity.toFixed(2)})`);
  return `# Task Complete: ${response.task_id}

**Status:** ${response.status}
**Agent:** ${agent}
**Verdict:** ${verdict.status}${verdict.code ? ` (${verdict.code})` : ""}

## Summary
${response.result}

## Key Findings
${(response.key_findings ?? []).map((f) => `- ${f}`).join("\n") || "(none)"}

## Evidence
${citations.join("\n") || "(none)"}

## For Primary
${[...verdict.reasons, ...verdict.warnings].map((r) => `- ${r}`).join("\n") || "(nothing to flag)"}
`;
}

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
  const task: DelegatedTask = {
    id: `T-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(3).toString("hex")}`,
    task: values.task,
    acceptance_criteria: values.criteria ?? [],
    ...(values.critical ? { critical: true } : {}),
    grounding: { strategy, ...(overlays ? { overlay_hints: overlays } : {}), ...(strategy !== "none" ? { evidence_required: strategy === "pgc_cite" } : {}) },
  };
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const { dir, fleet } = await findFleet(values.fleet);
  const workspace = join(dir, WORKSPACES_DIR, workspaceName(task.id));
  mkdirSync(workspace, { recursive: true });
  const scope = fleet.scopes.find((s) => s.name === values.scope);
  if (!scope) throw new CliError(`the fleet has no scope "${values.scope}"`, EXIT.usage, `scopes: ${fleet.scopes.map((s) => s.name).join(", ")}`);
  writeFileSync(join(workspace, "HANDOFF.md"), renderHandoff(task, { name: scope.name, root: fleet.root, paths: scope.paths }, "manager", [], Date.now() + 120_000));
  const result = (await askManager(fleet, "delegate", { scope: values.scope, task }, logger)) as { response: TaskResponse; verdict: Verdict; agent: string; failovers: unknown[] };
  writeFileSync(join(workspace, "OUTPUT.md"), outputMarkdown(result.response, result.verdict, result.agent));
  if (values.json) printJson({ ...result, workspace });
  else process.stdout.write(`${task.id} → ${result.agent}: ${result.response.status}, verdict ${result.verdict.status}${result.verdict.code ? ` (${result.verdict.code})` : ""}\n${result.response.result}\nworkspace: ${workspace}\n`);
  return result.verdict.status === "rejected" ? EXIT.failed : EXIT.ok;
}
