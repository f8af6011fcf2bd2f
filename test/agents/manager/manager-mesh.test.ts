// The manager over a fleet of worker processes on the demo kernel: topology from the code, traced
// answers and planned routes with verified citations, cycle safety, hop budgets, audit and manifest records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { MESH_BIN } from "../../helpers/processes.js";
import { Manager } from "../../../agents/manager/manager.js";
import { MeshNode } from "../../../bus/index.js";
import { MultiHopError } from "../../../agents/manager/answer/result.js";
import { serveManager } from "../../../agents/manager/serve-manager.js";
import { ValidationPolicyError } from "../../../agents/manager/validation/index.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";
import { citationHash, MAX_EXPAND_BATCH } from "../../../agents/protocol/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { expected, TestFleet } from "../../helpers/fleet.js";

const fleet = new TestFleet();
let manager: Manager;
let managerNode: MeshNode;

beforeAll(async () => {
  await fleet.startAll();
  const node = await fleet.node("manager");
  managerNode = node;
  await fleet.untilWorkers(node, expected.scopes.length);
  manager = new Manager({ node, auditDir: join(fleet.dir, "audit"), root: C_KERNEL_DIR, logger: pino({ level: "silent" }) });
  serveManager(node, manager);
}, 120_000);
afterAll(async () => {
  await manager.audit.flush();
  await fleet.stop();
});

describe("the manager over the demo kernel", () => {
  it("refuses a validation policy it does not understand when it is built, before any worker does work", () => {
    // Never started: building a manager only wires it to the node.
    const node = new MeshNode({ id: "manager-bad-policy", role: "manager" });
    expect(() => new Manager({ node, auditDir: join(fleet.dir, "audit-bad"), validation: { sampleSize: 0 }, logger: pino({ level: "silent" }) })).toThrow(ValidationPolicyError);
  });

  it("lists every worker with scope, state, revision and protocol versions", () => {
    const agents = manager.listAgents();
    expect(agents.map((a) => a.scope).sort()).toEqual(expected.scopes.map((s) => s.name).sort());
    for (const agent of agents) {
      expect(agent.state).toBe("alive");
      expect(agent.index_revision).toMatch(/^[0-9a-f]{16}$/);
      expect(agent.protocol_versions).toContain("2.0");
    }
  });

  it("derives the topology of the fixture's real cross-subsystem references", async () => {
    const graph = await manager.topology();
    const edges: Record<string, string[]> = {};
    for (const edge of graph.edges()) (edges[edge.from] ??= []).push(edge.to);
    for (const list of Object.values(edges)) list.sort();
    const golden = Object.fromEntries(Object.entries(expected.topology.edges).map(([k, v]) => [k, [...v].sort()]));
    expect(edges).toEqual(golden);
  });

  it("answers a question from drivers to mm over the expected path, as a traced chain whose every edge is a real call", async () => {
    const result = await manager.ask("How does the e1000 driver allocate DMA buffers?", { from: "drivers", to: "mm" });
    const golden = expected.topology.shortest_paths.find((p) => p.from === "drivers" && p.to === "mm")?.path;
    expect(result.query_path).toEqual(golden);
    expect(result.mode).toBe("traced");
    expect(result.outcome).toBe("chain");
    const chain = result.chain ?? [];
    expect([...new Set(chain.map((s) => s.scope))]).toEqual(golden);
    for (const [i, step] of chain.entries()) {
      const text = readFileSync(join(C_KERNEL_DIR, step.file_path), "utf8").split("\n");
      expect(citationHash(text.slice(step.line_start - 1, step.line_end).join("\n")), step.symbol).toBe(step.sha256);
      if (i === 0) continue;
      // The call line is in the previous step's file and names this step's function.
      expect(step.call_site?.file_path).toBe(chain[i - 1]?.file_path);
      expect(text.length).toBeGreaterThan(0);
      expect(step.call_site?.text).toContain(step.symbol.split(".").at(-1));
    }
    for (const hop of result.knowledge_chain) {
      expect(hop.verdict.status).toBe("accepted");
      for (const c of hop.citations) expect(expected.scopes.find((s) => s.name === hop.scope)?.paths.some((p) => c.file_path.startsWith(p))).toBe(true);
    }
    expect(result.safety).toMatchObject({ max_hops: 6, actual_hops: 3, stopped_because: "reached mm" });
    // Of the driver's calls into kernel, the one whose path goes on into mm (dma_map_single, not dma_mapping_error).
    expect(result.decisions?.find((d) => d.at === "exit")?.detail).toMatch(/^left drivers by dma_map_single .*: the planned route goes to kernel, and kernel's path from dma_map_single goes on into mm/);
    expect(result.answer).toMatch(/drivers → kernel → mm/);
    expect(result.answer).toMatch(/^\d\. .* → .*\[kernel\]$/m);
  });

  it("traces the driver's allocation into the kernel's DMA code without being told where to go", async () => {
    const result = await manager.ask("How does e1000_setup_ring allocate DMA memory?");
    expect(result.mode).toBe("traced");
    expect(result.query_path[0]).toBe("drivers");
    expect(result.chain?.[0]?.symbol).toBe("e1000_setup_ring");
    expect(result.chain?.some((s) => s.symbol === "dma_alloc_coherent" && s.scope === "kernel")).toBe(true);
    expect(new Set(result.query_path).size).toBe(result.query_path.length);
    expect(result.decisions?.[0]?.detail).toMatch(/e1000_setup_ring .* in drivers: relevance/);
    // What it asked of the fleet: every scope's entry, and its expansions in as many requests at most as were not shared.
    const cost = result.cost;
    expect(cost?.entry_requests).toBe(expected.scopes.length);
    expect(cost?.expand_requests).toBeGreaterThan(0);
    expect(cost?.expand_requests).toBeLessThanOrEqual((cost?.expansions ?? 0) - (cost?.expansions_shared ?? 0));
  });

  it("of two exits worth the same, follows the one the worker put first: the call that maps the buffer, not its error check", async () => {
    const result = await manager.ask("How does the e1000 driver allocate DMA buffers?");
    // dma_map_single (line 91) and dma_mapping_error (line 92) both name only "dma"; the fleet calls the
    // first from more places, which orders what is looked into, not which of equal worth is followed.
    expect(result.chain?.map((s) => s.symbol)).toContain("dma_map_single");
    expect(result.chain?.map((s) => s.symbol)).not.toContain("dma_mapping_error");
    expect(result.decisions?.find((d) => d.at === "exit")?.detail).toMatch(/^left drivers by dma_map_single .*also looked at: dma_mapping_error/);
  });

  it("answers who calls a function: its definition, then the functions in other scopes whose code calls it", async () => {
    const result = await manager.ask("Who calls kmalloc?");
    expect(result.query_path[0]).toBe("mm");
    expect(result.chain?.[0]).toMatchObject({ symbol: "kmalloc", scope: "mm", call_site: null });
    const caller = result.chain?.find((s) => s.scope === "kernel");
    expect(caller?.file_path).toBe("kernel/workqueue.c");
    expect(caller?.call_site?.text).toMatch(/kmalloc\(/);
    expect(result.answer).toMatch(/calls kmalloc at kernel\/workqueue\.c:\d+/);
  });

  it("delegates a planned route hop by hop when asked to, and only with both ends given", async () => {
    const result = await manager.ask("How does the e1000 driver allocate DMA buffers?", { from: "drivers", to: "mm", mode: "planned" });
    expect(result.mode).toBe("planned");
    expect(result.query_path).toEqual(expected.topology.shortest_paths.find((p) => p.from === "drivers" && p.to === "mm")?.path);
    expect(result.chain).toBeUndefined();
    for (const hop of result.knowledge_chain) expect(hop.verdict.citations_verified).toBe(hop.verdict.citations_checked);
    await expect(manager.ask("How does the e1000 driver allocate DMA buffers?", { to: "mm", mode: "planned" })).rejects.toMatchObject({ code: "no_path", message: expect.stringMatching(/needs both ends/) });
    // A client asking for a mode the manager no longer has is told so, and the manager keeps serving.
    const client = await fleet.node("mode-client", "client");
    await expect.poll(() => client.peers().some((p) => p.card.id === managerNode.id && p.state === "alive")).toBe(true);
    await expect(client.request(managerNode.id, "ask", { question: "How does kmalloc work?", mode: "evidence" })).rejects.toThrow(/invalid ask: mode: .*planned.*traced/);
    await expect(client.request(managerNode.id, "ask", { question: "Who calls kmalloc?" })).resolves.toMatchObject({ mode: "traced" });
  });

  it("says honestly that it found no chain for a question about something the code does not have", async () => {
    const result = await manager.ask("How does the renderer draw 3D terrain meshes with shaders?");
    expect(result.outcome).toBe("no_chain");
    expect(result.confidence).toBe("low");
    expect(result.chain).toEqual([]);
    expect(result.answer).toMatch(/^No chain found/);
    // Why it stopped is a decision of its own, in the answer's audit record as in its text.
    expect(result.decisions?.at(-1)).toMatchObject({ at: "end", detail: expect.stringMatching(/^no chain reported: the question matches no code well enough to start/) });
  });

  it("has a worker answer expand_batch as it answers each expand, in order, and refuse a batch that breaks the schema", async () => {
    const worker = manager.listAgents().find((a) => a.scope === "mm")?.id as string;
    const question = parseQuestion("How does alloc_pages wake kswapd?");
    const items = [
      { question, mode: "forward", from: { symbol: "alloc_pages" }, covered: {} },
      { question, mode: "callers", from: { symbol: "wakeup_kswapd" }, covered: {} },
      { question, mode: "forward", from: { symbol: "no_such_function" }, covered: {} },
    ];
    const batch = (await managerNode.request(worker, "expand_batch", { items })) as { results: { resolved: boolean }[] };
    const one = await Promise.all(items.map((item) => managerNode.request(worker, "expand", item)));
    expect(batch.results).toEqual(one);
    expect(batch.results.map((r) => r.resolved)).toEqual([true, true, false]);
    await expect(managerNode.request(worker, "expand_batch", { items, extra: 1 })).rejects.toMatchObject({ code: "INVALID_TASK" });
    await expect(managerNode.request(worker, "expand_batch", { items: [] })).rejects.toMatchObject({ code: "INVALID_TASK" });
    await expect(managerNode.request(worker, "expand_batch", { items: Array.from({ length: MAX_EXPAND_BATCH + 1 }, () => items[0]) })).rejects.toMatchObject({ code: "INVALID_TASK" });
  });

  it("cannot loop in the kernel ↔ mm cycle, with a large budget", async () => {
    const result = await manager.ask("How does alloc_pages wake kswapd through queue_work?", { from: "mm", maxHops: 20 });
    expect(new Set(result.query_path).size).toBe(result.query_path.length);
    expect(result.query_path.length).toBeLessThanOrEqual(expected.scopes.length);
  });

  it("refuses a planned path that does not exist, or exceeds the hop budget, with a typed reason", async () => {
    await expect(manager.ask("How does alloc_pages work?", { from: "mm", to: "net" })).rejects.toMatchObject({ name: "MultiHopError", code: "no_path" });
    await expect(manager.ask("How does dev_queue_xmit work?", { from: "net", to: "mm", maxHops: 2 })).rejects.toBeInstanceOf(MultiHopError);
    await expect(manager.ask("anything", { from: "driver" })).rejects.toThrow(/did you mean "drivers"/);
  });

  it("records every multi-hop answer in the audit log and every delegation in MANIFEST.jsonl", async () => {
    const result = await manager.ask("Where is dma_alloc_coherent defined?", { from: "kernel", to: "kernel" });
    expect(await manager.audit.find(result.id)).toMatchObject({ id: result.id, kind: "multi_hop" });
    const hop = result.knowledge_chain[0];
    expect(await manager.audit.readHopOutput(hop?.output_ref ?? "")).toMatchObject({ agent: hop?.agent, op: "expand", result: { scope: "kernel", resolved: true } });
    const trace = await promisify(execFile)(process.execPath, [MESH_BIN, "trace", result.id, "--audit", join(fleet.dir, "audit")]);
    expect(trace.stdout).toMatch(/path kernel/);
    expect(trace.stdout).toMatch(/cites kernel\//);
    const missing = await promisify(execFile)(process.execPath, [MESH_BIN, "trace", "nope", "--audit", join(fleet.dir, "audit")]).catch((e: { code: number }) => e);
    expect((missing as { code: number }).code).toBe(65);
    const delegated = await manager.delegate({ id: "T-manifest", task: "alloc_pages", acceptance_criteria: ["alloc_pages"], grounding: { strategy: "pgc_cite", evidence_required: true } }, { scope: "mm" });
    expect(delegated.verdict.status).not.toBe("rejected");
    const lines = readFileSync(join(fleet.dir, "audit", "MANIFEST.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; status: string; file: string });
    expect(lines.filter((l) => l.id === "T-manifest")).toHaveLength(1);
    const entry = lines.find((l) => l.id === "T-manifest");
    if (!entry) throw new Error("no manifest line for T-manifest");
    expect(entry.status).toBe("complete");
    expect(JSON.parse(readFileSync(join(fleet.dir, "audit", entry.file), "utf8"))).toMatchObject({ task: { id: "T-manifest" }, agent: delegated.agent.id });
  });
});
