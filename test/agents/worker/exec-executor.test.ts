// The exec adapter with a scripted agent as a real child process: workspace files, OUTPUT.md,
// and every failure mode ending in a result, never a hang or a stray process.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { createExecExecutor, workspaceName } from "../../../agents/worker/exec/exec-executor.js";
import type { ExecutorInput } from "../../../agents/worker/executor.js";
import type { Citation } from "../../../agents/protocol/index.js";

const AGENT = fileURLToPath(new URL("../../fixtures/executors/agent.mjs", import.meta.url));
const logger = pino({ level: "silent" });
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mesh-exec-"))));
afterEach(() => {
  delete process.env["MESH_TEST_AGENT_MODE"];
  rmSync(dir, { recursive: true, force: true });
});

const citation: Citation = { overlay: "O1", content: "function:dma_alloc_coherent", relevance: "exact", file_path: "kernel/dma/mapping.c", line_start: 60, line_end: 75, sha256: "a".repeat(64), similarity: 1, similarity_kind: "exact" };

function input(id: string, deadlineMs = 10_000): ExecutorInput {
  return {
    task: { id, task: "Explain the DMA allocation path", acceptance_criteria: ["names dma_alloc_coherent"], delegation_depth: 1, delegation_chain: ["manager"], grounding: { strategy: "pgc_first", overlay_hints: ["O1"], evidence_required: true } },
    scope: { name: "kernel", root: dir, paths: ["kernel/"] },
    workerId: "kernel-1",
    evidence: [citation],
    deadline: Date.now() + deadlineMs,
    signal: new AbortController().signal,
    logger,
  };
}

function run(mode: string, id: string, deadlineMs?: number) {
  process.env["MESH_TEST_AGENT_MODE"] = mode;
  return createExecExecutor({ command: [process.execPath, AGENT], workspaceRoot: dir, logger, killGraceMs: 200 }).execute(input(id, deadlineMs));
}

describe("exec adapter", () => {
  it("writes the CDP workspace and reads OUTPUT.md back", async () => {
    const output = await run("ok", "task-1");
    expect(output.status).toBe("completed");
    expect(output.result).toMatch(/first cited file is kernel\/dma\/mapping\.c/);
    expect(output.key_findings).toContain("depth line present: true");
    expect(output.referenced_files).toEqual(["kernel/dma/mapping.c"]);
    const handoff = readFileSync(join(dir, ".agent-workspaces", "task-1", "HANDOFF.md"), "utf8");
    expect(handoff).toMatch(/^\[AI-TO-AI DELEGATION\]/);
    expect(handoff).toMatch(/Your-Depth: 1/);
    expect(handoff).toMatch(/\[ \] names dma_alloc_coherent/);
    expect(handoff).toContain(`sha256=${"a".repeat(64)}`);
    expect(readFileSync(join(dir, ".agent-workspaces", "task-1", "WORK.md"), "utf8")).toMatch(/Working Notes/);
  });

  it("reports a failing command with its exit code and last stderr lines", async () => {
    const output = await run("fail", "task-2");
    expect(output).toMatchObject({ status: "failed", error: { code: "EXECUTOR_FAILED" } });
    expect(output.result).toMatch(/exited with code 3/);
    expect(output.result).toMatch(/giving up/);
  });

  it("blocks when the command writes no OUTPUT.md", async () => {
    expect(await run("silent", "task-3")).toMatchObject({ status: "blocked", error: { code: "EXECUTOR_FAILED", message: "no OUTPUT.md was written" } });
  });

  it("stops a command at the deadline, with its whole process group", async () => {
    const output = await run("hang", "task-4", 1_500);
    expect(output).toMatchObject({ status: "failed", error: { code: "DEADLINE_EXCEEDED", retryable: true } });
    const pids = JSON.parse(readFileSync(join(dir, ".agent-workspaces", "task-4", "pids.json"), "utf8")) as number[];
    await expect.poll(() => pids.filter((pid) => { try { process.kill(pid, 0); return true; } catch { return false; } }), { timeout: 5_000 }).toEqual([]);
  });

  it("passes a clarification request through", async () => {
    const output = await run("clarify", "task-5");
    expect(output.status).toBe("needs_clarification");
    expect(output.clarification_request?.question).toMatch(/TX or the RX ring/);
  });

  it("reports a missing command instead of throwing", async () => {
    const output = await createExecExecutor({ command: ["/nonexistent/agent-cli"], workspaceRoot: dir, logger }).execute(input("task-6"));
    expect(output).toMatchObject({ status: "failed", error: { code: "EXECUTOR_FAILED" } });
    expect(output.result).toMatch(/command not found/);
  });

  it("never lets a task id escape the workspace directory", () => {
    expect(workspaceName("../../etc/passwd")).not.toMatch(/\.\.|\//);
    expect(workspaceName("..")).not.toBe("..");
  });
});
