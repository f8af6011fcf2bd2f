// `mesh mcp` as a coding agent uses it: the official SDK's client starts the server over real stdio (and
// over Streamable HTTP with its bearer token) against a fleet of real worker processes on the demo kernel,
// lists the tools, asks, delegates, replays, reads the resources, and gets tool errors with our codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { citationHash } from "../../agents/protocol/index.js";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN, processAlive } from "../helpers/processes.js";

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), "mesh-home-mcp-"));
const emptyHome = mkdtempSync(join(tmpdir(), "mesh-home-empty-"));
const env = { ...process.env, MESH_HOME: home } as Record<string, string>;
const clients: Client[] = [];
const children: ChildProcess[] = [];

async function connect(environment: Record<string, string> = env): Promise<Client> {
  const client = new Client({ name: "mesh-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MESH_BIN, "mcp"], env: environment, stderr: "pipe" }));
  clients.push(client);
  return client;
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

let client: Client;
beforeAll(async () => {
  const up = await run(process.execPath, [MESH_BIN, "up", C_KERNEL_DIR, "--json"], { env, timeout: 180_000 });
  expect(up.stdout).toContain("manager");
  client = await connect();
}, 240_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const child of children) child.kill("SIGKILL");
  await run(process.execPath, [MESH_BIN, "down", C_KERNEL_DIR], { env, timeout: 60_000 }).catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
  rmSync(emptyHome, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const scratch = mkdtempSync(join(tmpdir(), "mesh-mcp-scratch-"));
const INSPECTOR_BIN = join(process.cwd(), "node_modules", ".bin", "mcp-inspector");

const alive = processAlive;

/** A worker of one more scope whose tasks run a slow agent command that records its pid. */
async function slowWorker(pidFile: string): Promise<ChildProcess> {
  const script = join(scratch, "slow-agent.sh");
  writeFileSync(script, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 60\n`);
  chmodSync(script, 0o755);
  const fleetDir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
  // The fleet is secured: a worker joins it with the fleet's key (PROTOCOL.md §11a).
  const secured = ["--curve-secret", join(fleetDir, "keys", "fleet.key"), "--keyring", join(fleetDir, "keyring")];
  const args = ["worker", "--scope", "slow", "--root", C_KERNEL_DIR, "--scope-path", "mm/", "--registry", join(fleetDir, "registry"), "--dial", "manager", "--exec", script, "--workspace", scratch, "--cache", join(scratch, "cache"), "--log-level", "warn", ...secured];
  const child = spawn(process.execPath, [MESH_BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes('"ready"')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the slow worker exited (${code})`)));
  });
  return child;
}

describe("mesh mcp over stdio", () => {
  it("lists its tools, each with an input and an output schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask", "ask_scope", "delegate", "delegate_plan", "list_agents", "topology", "trace"]);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    expect(tools.find((t) => t.name === "ask")?.inputSchema.required).toEqual(["question"]);
  });

  it("lists the agents and renders the topology", async () => {
    const agents = (await client.callTool({ name: "list_agents", arguments: {} })) as CallToolResult;
    const listed = (agents.structuredContent as { agents: { scope: string; state: string }[] }).agents;
    expect(listed.map((a) => a.scope).sort()).toEqual(["drivers", "kernel", "mm", "net"]);
    expect(listed.every((a) => a.state === "alive")).toBe(true);
    const mermaid = (await client.callTool({ name: "topology", arguments: { format: "mermaid" } })) as CallToolResult;
    expect(text(mermaid)).toMatch(/^(graph|flowchart) /m);
    expect((mermaid.structuredContent as { edges: { from: string; to: string }[] }).edges).toContainEqual(expect.objectContaining({ from: "drivers", to: "kernel" }));
  });

  it("answers a question as a traced chain whose every step re-hashes against the code, with progress, and replays and re-verifies it", async () => {
    const progress: string[] = [];
    const result = (await client.callTool({ name: "ask", arguments: { question: "How does e1000_setup_ring allocate DMA memory?" } }, undefined, { onprogress: (p) => void progress.push(p.message ?? "") })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { id: string; outcome: string; chain: { symbol: string; scope: string; file_path: string; line_start: number; line_end: number; sha256: string }[] };
    expect(answer.outcome).toBe("chain");
    expect(answer.chain[0]?.symbol).toBe("e1000_setup_ring");
    expect(answer.chain.some((s) => s.scope === "kernel")).toBe(true);
    for (const step of answer.chain) {
      const lines = readFileSync(join(C_KERNEL_DIR, step.file_path), "utf8").split("\n");
      expect(citationHash(lines.slice(step.line_start - 1, step.line_end).join("\n")), step.symbol).toBe(step.sha256);
    }
    expect(text(result)).toMatch(/e1000_setup_ring/);
    // The first progress notification precedes the answer; the last may cross it on the way.
    expect(progress[0]).toBe("asking the fleet");

    const traced = (await client.callTool({ name: "trace", arguments: { id: answer.id, verify: true } })) as CallToolResult;
    const recheck = (traced.structuredContent as { recheck: { matching: number; checked: number } }).recheck;
    expect(recheck.checked).toBeGreaterThan(0);
    expect(recheck.matching).toBe(recheck.checked);
    const record = await client.readResource({ uri: `mesh://audit/${answer.id}` });
    expect(JSON.parse((record.contents[0] as { text: string }).text)).toMatchObject({ id: answer.id, question: "How does e1000_setup_ring allocate DMA memory?" });
  });

  it("answers inside one scope, and names the nearest scope for one that does not exist", async () => {
    const inside = (await client.callTool({ name: "ask_scope", arguments: { scope: "mm", question: "How does kmalloc allocate memory?" } })) as CallToolResult;
    expect((inside.structuredContent as { query_path: string[] }).query_path).toEqual(["mm"]);
    const wrong = (await client.callTool({ name: "ask_scope", arguments: { scope: "driver", question: "How is DMA set up?" } })) as CallToolResult;
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toMatch(/^\[unknown_scope\] .*did you mean "drivers"\?.*list_agents/);
  });

  it("delegates a task: validated answer, CDP workspace, manifest line", async () => {
    const result = (await client.callTool({ name: "delegate", arguments: { scope: "mm", task: "Where is alloc_pages defined?", criteria: ["alloc_pages"] } })) as CallToolResult;
    const out = result.structuredContent as { task_id: string; agent: string; verdict: { status: string }; citations: unknown[]; workspace: string };
    expect(out.agent).toMatch(/^mm/);
    expect(out.verdict.status).not.toBe("rejected");
    expect(out.citations.length).toBeGreaterThan(0);
    expect(existsSync(join(out.workspace, "HANDOFF.md"))).toBe(true);
    expect(readFileSync(join(out.workspace, "OUTPUT.md"), "utf8")).toContain(`# Task Complete: ${out.task_id}`);
    const fleetDir = join(out.workspace, "..", "..");
    await expect.poll(() => (existsSync(join(fleetDir, "audit", "MANIFEST.jsonl")) ? readFileSync(join(fleetDir, "audit", "MANIFEST.jsonl"), "utf8") : "")).toContain(out.task_id);
    // An answer whose evidence the manager rejects is a tool error that says so, and what to do.
    const rejected = (await client.callTool({ name: "delegate", arguments: { scope: "mm", task: "Summarize the GPU shader compiler's register allocator", criteria: ["names the shader compiler"], critical: true } })) as CallToolResult;
    expect(rejected.isError).toBe(true);
    expect(text(rejected)).toMatch(/\[[A-Z_]+\] the manager rejected the answer's evidence: .+ — narrow the task/);
    const unknown = (await client.callTool({ name: "delegate", arguments: { scope: "memory", task: "x" } })) as CallToolResult;
    expect(text(unknown)).toMatch(/^\[unknown_scope\] the fleet has no scope "memory"/);
  });

  it("serves the topology and the agent list as resources", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(["mesh://agents", "mesh://topology"]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["mesh://audit/{id}"]);
    const topology = await client.readResource({ uri: "mesh://topology" });
    expect((topology.contents[0] as { text: string }).text).toMatch(/drivers/);
    const agents = await client.readResource({ uri: "mesh://agents" });
    expect(JSON.parse((agents.contents[0] as { text: string }).text)).toHaveLength(4);
  });

  it("answers every call with a tool error saying what to do when no fleet runs, and keeps serving", async () => {
    const lonely = await connect({ ...env, MESH_HOME: emptyHome });
    for (let i = 0; i < 2; i++) {
      const result = (await lonely.callTool({ name: "list_agents", arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^\[no_fleet\] no fleet is running — start one with `mesh up ROOT`/);
    }
  });
});

describe("cancellation", () => {
  it("cancels a delegated task on its worker when the client cancels the call: the agent process is stopped", async () => {
    const pidFile = join(scratch, "agent.pid");
    await slowWorker(pidFile);
    await expect.poll(async () => ((await client.callTool({ name: "list_agents", arguments: {} })) as CallToolResult).structuredContent?.["agents"], { timeout: 20_000 }).toContainEqual(expect.objectContaining({ scope: "slow", state: "alive" }));
    const controller = new AbortController();
    const call = client.callTool({ name: "delegate", arguments: { scope: "slow", task: "Explain the slab allocator" } }, undefined, { signal: controller.signal });
    let settled: unknown = "pending";
    call.then((r) => (settled = r), (e: unknown) => (settled = String(e)));
    // The shell creates the file before it writes the pid into it: wait for a whole line.
    const written = () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8") : "");
    await expect.poll(() => (written().endsWith("\n") ? "started" : JSON.stringify(settled)), { timeout: 20_000 }).toBe("started");
    const pid = Number(written());
    expect(alive(pid)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    // The CANCEL went client → server → manager → worker, which stopped the agent's process group.
    await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
    // The server keeps serving.
    expect(((await client.callTool({ name: "list_agents", arguments: {} })) as CallToolResult).isError).toBeFalsy();
  });
});

describe("a client written by others: the MCP Inspector's CLI", () => {
  it.skipIf(!existsSync(INSPECTOR_BIN))("lists the tools and calls ask", async () => {
    const inspect = (...args: string[]) => run(INSPECTOR_BIN, ["--cli", "-e", `MESH_HOME=${home}`, process.execPath, MESH_BIN, "mcp", ...args], { env, timeout: 120_000 });
    const listed = JSON.parse((await inspect("--method", "tools/list")).stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["ask", "ask_scope", "delegate", "list_agents", "topology", "trace"]));
    const asked = JSON.parse((await inspect("--method", "tools/call", "--tool-name", "ask", "--tool-arg", "question=Who calls kmalloc?")).stdout) as CallToolResult;
    expect(asked.isError).toBeFalsy();
    expect((asked.structuredContent as { chain: { symbol: string }[] }).chain[0]?.symbol).toBe("kmalloc");
  });
});

describe("mesh mcp over Streamable HTTP", () => {
  it("listens on loopback, refuses a request without the fleet's bearer token, and serves a client that has it", async () => {
    const child = spawn(process.execPath, [MESH_BIN, "mcp", "--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stderr! }).on("line", (line) => {
        const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp) \(bearer token in (\S+)\)/.exec(line);
        if (found) resolve(found[1] as string);
      });
      child.once("exit", (code) => reject(new Error(`mesh mcp --http exited (${code})`)));
    });
    const fleetDir = join(home, "fleets");
    const tokenFile = (await run("find", [fleetDir, "-name", "mcp-token"])).stdout.trim();
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, "utf8").trim();

    const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(refused.status).toBe(401);
    const wrong = await fetch(url, { method: "POST", headers: { authorization: "Bearer nope", "content-type": "application/json" }, body: "{}" });
    expect(wrong.status).toBe(401);

    const http = new Client({ name: "mesh-http-test", version: "1.0.0" });
    clients.push(http);
    await http.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const agents = (await http.callTool({ name: "list_agents", arguments: {} })) as CallToolResult;
    expect((agents.structuredContent as { agents: { scope: string }[] }).agents.map((a) => a.scope)).toEqual(expect.arrayContaining(["drivers", "kernel", "mm", "net"]));
  });
});
