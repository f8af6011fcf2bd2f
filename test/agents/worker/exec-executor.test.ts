// The exec adapter with scripted agents as real child processes: the CDP workspace it writes, the
// environment the agent gets, OUTPUT.md read back, and every failure mode ending in a result — never
// an exception, a hang or a stray process.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { createExecExecutor, workspaceName, type ExecExecutorOptions } from "../../../agents/worker/exec/exec-executor.js";
import { ExecutorConfigError } from "../../../agents/worker/exec/executor-config-error.js";
import type { ExecutorInput } from "../../../agents/worker/executor.js";
import type { Citation, DelegatedTask } from "../../../agents/protocol/index.js";
import { exists, fileWritten, nodeCommand, onTestClock, readPids, type AgentScript } from "../../fixtures/executors/scripts.js";

const logger = pino({ level: "silent" });
/** The hanging agent's deadline on the test's clock (see onTestClock): it passes only when the test says. */
const HANG_DEADLINE_MS = 1_500;

/** Waits, in real time, until the hanging agent of `taskId` has started its grandchild and written both pids. */
async function hangingStarted(taskId: string): Promise<string> {
  const pidsFile = join(workspaceOf(taskId), "pids.json");
  await fileWritten(pidsFile);
  return pidsFile;
}
const citation: Citation = { overlay: "O1", content: "function:dma_alloc_coherent\nsecond line", relevance: "the allocator", file_path: "kernel/dma/mapping.c", line_start: 60, line_end: 75, sha256: "a".repeat(64), similarity: 1, similarity_kind: "exact" };

let dir: string;
let root: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mesh-exec-")));
  root = join(dir, "scope");
  mkdirSync(root);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const workspaceOf = (name: string) => join(dir, ".agent-workspaces", name);

function task(id: string): DelegatedTask {
  return {
    id,
    task: "Explain the DMA allocation path",
    acceptance_criteria: ["names dma_alloc_coherent", "cites the source"],
    context: "Previous agent found: the driver calls dma_alloc_coherent.",
    delegation_depth: 1,
    delegation_chain: ["manager"],
    grounding: { strategy: "pgc_first", overlay_hints: ["O1"], query_hints: ["dma allocation"], evidence_required: true },
  };
}

function input(id: string, options: { deadlineMs?: number; signal?: AbortSignal } = {}): ExecutorInput {
  return {
    task: task(id),
    scope: { name: "kernel", root, paths: ["kernel/"] },
    workerId: "kernel-1",
    evidence: [citation],
    deadline: Date.now() + (options.deadlineMs ?? 10_000),
    signal: options.signal ?? new AbortController().signal,
    logger,
  };
}

function executor(script: AgentScript, options: Partial<ExecExecutorOptions> = {}) {
  return createExecExecutor({ command: nodeCommand(script), workspaceRoot: dir, logger, ...options });
}

describe("exec adapter: the workspace", () => {
  it("writes HANDOFF.md with the chain preamble, depth line, criteria, grounding and citations, and an empty WORK.md", async () => {
    await executor("agent-ok").execute(input("T-1"));
    const handoff = readFileSync(join(workspaceOf("T-1"), "HANDOFF.md"), "utf8");
    expect(handoff.split("\n").slice(0, 4)).toEqual(["[AI-TO-AI DELEGATION]", "From: manager", "Chain: human -> manager -> you", "Max-Depth: 3 | Your-Depth: 1 | Can-Spawn: YES"]);
    expect(handoff).toContain("# Task Handoff: T-1");
    expect(handoff).toContain("- [ ] names dma_alloc_coherent\n- [ ] cites the source");
    expect(handoff).toContain("Previous agent found: the driver calls dma_alloc_coherent.");
    expect(handoff).toMatch(/- Strategy: pgc_first — Query the PGC/);
    expect(handoff).toContain("- Overlay hints: O1");
    expect(handoff).toContain('- Query hints: "dma allocation"');
    expect(handoff).toMatch(/- Evidence required: yes/);
    expect(handoff).toContain(`1. \`kernel/dma/mapping.c:60-75\` [O1] sha256=${"a".repeat(64)} (exact 1.00) — function:dma_alloc_coherent\n`);
    expect(readFileSync(join(workspaceOf("T-1"), "WORK.md"), "utf8")).toBe("");
  });

  it("runs the command without a shell, in the scope root, with the workspace last and the MESH_* environment", async () => {
    const literal = "$(touch pwned)";
    const run = createExecExecutor({ command: [...nodeCommand("agent-ok"), literal], workspaceRoot: dir, env: { PATH: process.env["PATH"] ?? "", AGENT_GREETING: "hello" }, logger });
    const given = input("T-env");
    await run.execute(given);
    const seen = JSON.parse(readFileSync(join(workspaceOf("T-env"), "env.json"), "utf8")) as { argv: string[]; cwd: string; env: Record<string, string> };
    expect(seen.argv).toEqual([literal, workspaceOf("T-env")]);
    expect(seen.cwd).toBe(root);
    expect(seen.env).toMatchObject({ MESH_WORKSPACE: workspaceOf("T-env"), MESH_TASK_ID: "T-env", MESH_SCOPE: "kernel", MESH_SCOPE_ROOT: root, AGENT_GREETING: "hello" });
    expect(Number(seen.env["MESH_DEADLINE"])).toBeLessThanOrEqual(given.deadline);
    expect(existsSync(join(root, "pwned"))).toBe(false);
  });

  it("keeps the agent's stdout and stderr in exec.log", async () => {
    await executor("agent-ok").execute(input("T-log"));
    const log = readFileSync(join(workspaceOf("T-log"), "exec.log"), "utf8");
    expect(log).toMatch(/# exit code 0 after \d+ ms/);
    expect(log).toContain("agent-ok: read the handoff");
    expect(log).toContain("agent-ok: a warning on stderr");
  });

  it("gives a task id with path characters a directory inside the workspaces directory", async () => {
    const output = await executor("agent-ok").execute(input("../../escape"));
    expect(output.status).toBe("completed");
    expect(workspaceName("../../escape")).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
    expect(existsSync(join(workspaceOf(workspaceName("../../escape")), "OUTPUT.md"))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([".agent-workspaces", "scope"]);
  });

  it("refuses a workspace directory that is a symlink leading out of the workspaces directory", async () => {
    const outside = join(dir, "outside");
    mkdirSync(outside);
    mkdirSync(join(dir, ".agent-workspaces"));
    symlinkSync(outside, workspaceOf("T-link"));
    const output = await executor("agent-ok").execute(input("T-link"));
    expect(output).toMatchObject({ status: "failed", error: { code: "SCOPE_VIOLATION", retryable: false } });
    expect(readdirSync(outside)).toEqual([]);
  });

  it("never reads an OUTPUT.md left by an earlier run of the same task", async () => {
    mkdirSync(workspaceOf("T-again"), { recursive: true });
    writeFileSync(join(workspaceOf("T-again"), "OUTPUT.md"), "**Status:** completed\n\n## Summary\nstale\n");
    const output = await executor("agent-silent").execute(input("T-again"));
    expect(output.status).toBe("blocked");
  });
});

describe("exec adapter: OUTPUT.md", () => {
  it("turns OUTPUT.md into the result: status, summary, key findings, files inside the scope", async () => {
    const output = await executor("agent-ok").execute(input("T-out"));
    expect(output).toEqual({
      status: "completed",
      result: "Scope kernel: the first cited file is kernel/dma/mapping.c.\n\nNothing to flag.",
      key_findings: ["preamble first: true", "depth line: Max-Depth: 3 | Your-Depth: 1 | Can-Spawn: YES", "a finding that wraps onto a second line"],
      referenced_files: ["kernel/dma/mapping.c", "include/ring.h"],
    });
  });

  it("passes a clarification request through, with its question and suggested answers", async () => {
    const output = await executor("agent-clarify").execute(input("T-ask"));
    expect(output).toEqual({
      status: "needs_clarification",
      result: "Two rings match the task.",
      clarification_request: { question: "Should I look at the TX ring or the RX ring?", options: ["TX ring", "RX ring"] },
    });
  });
});

describe("exec adapter: failures are results", () => {
  it("reports a non-zero exit as failed EXECUTOR_FAILED with the exit code and the last stderr lines", async () => {
    const output = await executor("agent-fail").execute(input("T-fail"));
    expect(output).toMatchObject({ status: "failed", error: { code: "EXECUTOR_FAILED", retryable: false } });
    expect(output.error?.message).toMatch(/exited with code 3; last stderr lines:\n.*reading HANDOFF\.md\n.*something went wrong\n.*giving up$/);
    expect(output.error?.message).not.toContain("agent-fail: starting");
    expect(output.result).toBe(output.error?.message);
  });

  it("blocks with a clear reason when the command exits 0 without writing OUTPUT.md", async () => {
    const output = await executor("agent-silent").execute(input("T-silent"));
    expect(output).toMatchObject({ status: "blocked", error: { code: "EXECUTOR_FAILED" } });
    expect(output.error?.message).toMatch(/exited 0 without writing OUTPUT\.md in .*T-silent; its last output lines:\nagent-silent: thought about it/);
  });

  it("stops a command at the deadline with its whole process group, grandchild included", async () => {
    const { output, pidsFile } = await onTestClock(async () => {
      const pending = executor("agent-hang").execute(input("T-hang", { deadlineMs: HANG_DEADLINE_MS }));
      const file = await hangingStarted("T-hang");
      // Past SIGTERM (ignored by the agent), then past SIGKILL.
      await vi.advanceTimersByTimeAsync(HANG_DEADLINE_MS);
      return { output: await pending, pidsFile: file };
    });
    expect(output).toMatchObject({ status: "failed", error: { code: "DEADLINE_EXCEEDED", retryable: true } });
    expect(output.error?.message).toMatch(/was stopped \(SIGTERM, then SIGKILL/);
    const pids = readPids(pidsFile);
    expect(pids).toHaveLength(2);
    // SIGKILL is sent before execute() resolves; the poll only waits for the kernel to reap the corpses.
    await expect.poll(() => pids.filter(exists), { timeout: 5_000 }).toEqual([]);
    expect(readFileSync(join(workspaceOf("T-hang"), "exec.log"), "utf8")).toMatch(/# timed_out after/);
  });

  it("stops a command when the task is cancelled", async () => {
    const controller = new AbortController();
    const pending = executor("agent-hang", { killGraceMs: 200 }).execute(input("T-cancel", { signal: controller.signal }));
    const pidsFile = join(workspaceOf("T-cancel"), "pids.json");
    await expect.poll(() => existsSync(pidsFile), { timeout: 5_000 }).toBe(true);
    controller.abort(new Error("worker stopping"));
    const output = await pending;
    expect(output).toMatchObject({ status: "failed", error: { code: "EXECUTOR_FAILED" } });
    expect(output.error?.message).toMatch(/the task was cancelled \(Error: worker stopping\)/);
    await expect.poll(() => readPids(pidsFile).filter(exists), { timeout: 5_000 }).toEqual([]);
  });

  it("answers WORKER_OVERLOADED to a second run of a task that is still running", async () => {
    const { first, second } = await onTestClock(async () => {
      const pending = executor("agent-hang").execute(input("T-twice", { deadlineMs: HANG_DEADLINE_MS }));
      await hangingStarted("T-twice");
      const refused = await executor("agent-ok").execute(input("T-twice"));
      await vi.advanceTimersByTimeAsync(HANG_DEADLINE_MS);
      return { first: await pending, second: refused };
    });
    expect(second).toMatchObject({ status: "failed", error: { code: "WORKER_OVERLOADED", retryable: true } });
    expect(first.error?.code).toBe("DEADLINE_EXCEEDED");
    expect(existsSync(join(workspaceOf("T-twice"), ".lock"))).toBe(false);
  });

  it("reports a missing command as failed EXECUTOR_FAILED \"command not found\"", async () => {
    const output = await createExecExecutor({ command: ["/nonexistent/agent-cli", "--flag"], workspaceRoot: dir, logger }).execute(input("T-404"));
    expect(output).toMatchObject({ status: "failed", result: "command not found: /nonexistent/agent-cli", error: { code: "EXECUTOR_FAILED", message: "command not found: /nonexistent/agent-cli" } });
  });

  it("reports a command that is not executable", async () => {
    const script = join(dir, "agent.sh");
    writeFileSync(script, "#!/bin/sh\nexit 0\n", { mode: 0o644 });
    const output = await createExecExecutor({ command: [script], workspaceRoot: dir, logger }).execute(input("T-noexec"));
    expect(output).toMatchObject({ status: "failed", error: { code: "EXECUTOR_FAILED", message: `command is not executable: ${script}` } });
  });

  it("does not start the command when the deadline has already passed", async () => {
    const output = await executor("agent-ok").execute(input("T-late", { deadlineMs: -1 }));
    expect(output).toMatchObject({ status: "failed", error: { code: "DEADLINE_EXCEEDED" } });
    expect(existsSync(workspaceOf("T-late"))).toBe(false);
  });

  it("rejects unusable options when it is created, not when a task arrives", () => {
    expect(() => createExecExecutor({ command: [], workspaceRoot: dir, logger })).toThrow(ExecutorConfigError);
    expect(() => createExecExecutor({ command: ["agent"], workspaceRoot: dir, killGraceMs: -1, logger })).toThrow(/killGraceMs/);
  });
});
