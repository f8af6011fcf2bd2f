// What the fault suites share: two "hosts" of the demo kernel (mm on host B, the rest on host A), an agent
// command that logs each run of a task (so a task run twice shows), and `mesh delegate` run as a host runs it.
import { spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN } from "../helpers/processes.js";

/** Copies the demo kernel to both roots: host A runs net, drivers and kernel; host B runs mm. */
export function splitDemoKernel(rootA: string, rootB: string): void {
  cpSync(C_KERNEL_DIR, rootA, { recursive: true });
  cpSync(C_KERNEL_DIR, rootB, { recursive: true });
  const scopes = JSON.parse(readFileSync(join(C_KERNEL_DIR, "mesh-scopes.json"), "utf8")) as { scopes: { name: string }[] };
  writeFileSync(join(rootA, "mesh-scopes.json"), JSON.stringify({ scopes: scopes.scopes.filter((s) => s.name !== "mm") }));
  writeFileSync(join(rootB, "mesh-scopes.json"), JSON.stringify({ scopes: scopes.scopes.filter((s) => s.name === "mm") }));
}

/**
 * Writes the agent command: it logs `start [task]`, its pid, waits `ms`, writes OUTPUT.md and logs `end
 * [task]`, the task being the `[fault: …]` label of the handoff. Returns the --exec command line.
 */
export function writeFaultAgent(path: string, log: string, ms = 500): string {
  writeFileSync(
    path,
    `import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const [log, workspace] = [process.argv[2], process.argv.at(-1)];
const task = /\\[fault: ([^\\]]*)\\]/.exec(readFileSync(join(workspace, "HANDOFF.md"), "utf8"))?.[1] ?? "?";
appendFileSync(log, "start [" + task + "]\\n");
appendFileSync(log, "pid [" + task + "] " + process.pid + "\\n");
await new Promise((resolve) => setTimeout(resolve, ${ms}));
writeFileSync(join(workspace, "OUTPUT.md"), "# Task Complete: " + process.env.MESH_TASK_ID + "\\n\\n**Status:** completed\\n**Agent:** faults\\n\\n## Summary\\nRan once.\\n\\n## Key Findings\\n- kmalloc is in mm\\n");
appendFileSync(log, "end [" + task + "]\\n");
`,
  );
  return `${process.execPath} ${path} ${log}`;
}

/** The agent's log lines so far. */
export function runLinesOf(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}

/** How many of `tasks` the agent started more than once. */
export function ranTwice(log: string, tasks: readonly string[]): number {
  const starts = runLinesOf(log).filter((l) => l.startsWith("start "));
  return tasks.filter((task) => starts.filter((l) => l === `start [${task}]`).length > 1).length;
}

export interface DelegateRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** One `mesh delegate --scope mm` with the task's `[fault: …]` label, run after `prefix` (`ip netns exec A`). */
export function delegateTask(task: string, env: NodeJS.ProcessEnv, prefix: readonly string[] = []): Promise<DelegateRun> {
  const started = Date.now();
  const argv = [...prefix, process.execPath, MESH_BIN, "delegate", "--scope", "mm", "--task", `Where is kmalloc defined? [fault: ${task}]`, "--json"];
  const child = spawn(argv[0] as string, argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
}

/** A run's clear error (`mesh: …`), or null when it completed; anything else is neither and fails the caller's check. */
export function clearError(run: DelegateRun): string | null {
  if (run.code === 0 && (JSON.parse(run.stdout) as { response: { status: string } }).response.status === "completed") return null;
  return /^mesh: (.+)$/m.exec(run.stderr)?.[1] ?? `unclear failure (exit ${run.code}): ${run.stderr.slice(0, 300)}`;
}
