// Real OS processes for integration tests: `mesh node` children whose ready line is awaited and
// which are always killed in teardown.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const MESH_BIN = fileURLToPath(new URL("../../bin/mesh.js", import.meta.url));
/** A process that exists and is not a zombie (a killed child its parent has not reaped yet). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `mesh ARGS…` to completion in `env` (a test's own MESH_HOME), with its exit code, never throwing. */
export function meshCli(env: NodeJS.ProcessEnv, timeoutMs = 120_000): (args: string[], withEnv?: NodeJS.ProcessEnv) => Promise<CliRun> {
  const run = promisify(execFile);
  return async (args, withEnv = env) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [MESH_BIN, ...args], { timeout: timeoutMs, env: withEnv });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
}

/** Liveness fast enough for tests, passed as flags to child nodes. */
export const FAST_FLAGS = ["--heartbeat-ms", "150", "--suspect-ms", "500", "--expire-ms", "1500"];

export interface NodeProcess {
  id: string;
  endpoint: string;
  incarnation: number;
  child: ChildProcess;
  /** Every JSON line the process printed on stdout. */
  events: Record<string, unknown>[];
  exited: Promise<number | null>;
}

export class ProcessSet {
  private readonly children: ChildProcess[] = [];

  async startNode(id: string, args: string[] = []): Promise<NodeProcess> {
    const child = spawn(process.execPath, [MESH_BIN, "node", "--id", id, "--log-level", "warn", ...FAST_FLAGS, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    this.children.push(child);
    const events: Record<string, unknown>[] = [];
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const event = JSON.parse(line) as Record<string, unknown>;
        events.push(event);
        if (event["event"] === "ready") resolve(event);
      });
      void exited.then((code) => reject(new Error(`node ${id} exited (${code}) before ready: ${stderr}`)));
    });
    const event = await ready;
    return { id, endpoint: event["endpoint"] as string, incarnation: event["incarnation"] as number, child, events, exited };
  }

  /** Start `mesh worker` for one scope; resolves with its ready line once it is reachable. */
  async startWorker(scope: string, args: string[]): Promise<NodeProcess & { ready: Record<string, unknown> }> {
    return this.startCommand(scope, ["worker", "--scope", scope, "--log-level", "warn", ...args]);
  }

  private async startCommand(id: string, argv: string[]): Promise<NodeProcess & { ready: Record<string, unknown> }> {
    const child = spawn(process.execPath, [MESH_BIN, ...argv], { stdio: ["ignore", "pipe", "pipe"] });
    this.children.push(child);
    const events: Record<string, unknown>[] = [];
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const event = JSON.parse(line) as Record<string, unknown>;
        events.push(event);
        if (event["event"] === "ready") resolve(event);
      });
      void exited.then((code) => reject(new Error(`${id} exited (${code}) before ready: ${stderr}`)));
    });
    return { id: ready["id"] as string, endpoint: ready["endpoint"] as string, incarnation: 0, child, events, exited, ready };
  }

  /** SIGKILL whatever is still running. */
  killAll(): void {
    for (const child of this.children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}
