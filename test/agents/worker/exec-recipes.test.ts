// The agent-CLI recipes of docs/EXECUTORS.md, run by the exec adapter as a worker runs them: the wrapper's
// command line for the CLI (prompt, model hint, workspace), with a stand-in for the CLI itself, which
// cannot run a model here.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { createExecExecutor, workspaceName } from "../../../agents/worker/exec/exec-executor.js";
import type { DelegatedTask } from "../../../agents/protocol/index.js";
import { scriptPath } from "../../fixtures/executors/scripts.js";

const logger = pino({ level: "silent" });
let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mesh-recipe-")));
  mkdirSync(join(dir, "scope"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const planStep: DelegatedTask = {
  id: "P-1-ring",
  task: "Explain e1000_setup_ring",
  acceptance_criteria: [],
  grounding: { strategy: "pgc_first" },
  execution: { mode: "pipeline", complexity: 0.74, model_hint: "opus", auto_calculated: true },
};

/** Runs a recipe's wrapper as a worker would, with the stand-in CLI; returns the output and what the CLI was given. */
async function runRecipe(script: string, binVariable: string): Promise<{ status: string; result: string; workspace: string; argv: string[] }> {
  const executor = createExecExecutor({
    command: [join(process.cwd(), "scripts", "agents", script), "{model}"],
    workspaceRoot: dir,
    env: { ...process.env, [binVariable]: scriptPath("fake-agent-cli") },
    logger,
  });
  const output = await executor.execute({ task: planStep, scope: { name: "drivers", root: join(dir, "scope"), paths: [] }, workerId: "drivers-1", evidence: [], deadline: Date.now() + 20_000, signal: new AbortController().signal, logger });
  const workspace = join(dir, ".agent-workspaces", workspaceName(planStep.id));
  return { status: output.status, result: output.result, workspace, argv: JSON.parse(readFileSync(join(workspace, "argv.json"), "utf8")) as string[] };
}

describe("the Claude Code recipe", () => {
  it("runs claude in print mode on the workspace's HANDOFF.md with the step's model hint, and reads back its OUTPUT.md", async () => {
    const { status, result, workspace, argv } = await runRecipe("claude-code.sh", "CLAUDE_BIN");
    expect(status).toBe("completed");
    expect(result).toContain("Did: Explain e1000_setup_ring");
    expect(argv[0]).toBe("-p");
    expect(argv[1]).toContain(`Read ${workspace}/HANDOFF.md`);
    expect(argv.slice(2)).toEqual(["--model", "opus", "--permission-mode", "acceptEdits", "--add-dir", workspace, "--output-format", "text"]);
    expect(readFileSync(join(workspace, "HANDOFF.md"), "utf8")).toContain("- **Model Hint**: opus");
  });
});

describe("the aider recipe", () => {
  it("gives aider one message on the workspace's HANDOFF.md with the step's model hint, commits nothing, and reads back its OUTPUT.md", async () => {
    const { status, workspace, argv } = await runRecipe("aider.sh", "AIDER_BIN");
    expect(status).toBe("completed");
    expect(argv[0]).toBe("--message");
    expect(argv[1]).toContain(`Read ${workspace}/HANDOFF.md`);
    expect(argv.slice(2)).toEqual(["--model", "opus", "--yes-always", "--no-auto-commits", "--read", `${workspace}/HANDOFF.md`, `${workspace}/OUTPUT.md`]);
  });
});
