// Workers as real processes over the demo kernel, one per subsystem, asked through the mesh:
// tasks by strategy, legacy mode, bad tasks, overlays, ask, references, and citations re-checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MeshNode } from "../../../bus/index.js";
import { citationHash, parseTaskResponse, sliceLines, type TaskResponse } from "../../../agents/protocol/index.js";
import { C_KERNEL_DIR, loadExpectedTopology } from "../../fixtures/fixture-paths.js";
import { ProcessSet, type NodeProcess } from "../../helpers/processes.js";

const expected = loadExpectedTopology();
const processes = new ProcessSet();
let dir: string;
let manager: MeshNode;
const ids = new Map<string, string>();
const workers = new Map<string, NodeProcess>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-workers-"));
  const registry = join(dir, "registry");
  await Promise.all(
    expected.scopes.map(async (scope) => {
      const paths = scope.paths.flatMap((p) => ["--scope-path", p]);
      const worker = await processes.startWorker(scope.name, ["--root", C_KERNEL_DIR, ...paths, "--registry", registry, "--cache", join(dir, "cache")]);
      ids.set(scope.name, worker.id);
      workers.set(scope.name, worker);
    }),
  );
  manager = new MeshNode({ id: "test-manager", role: "manager", registryDir: registry, gossipMs: 200 });
  await manager.start();
  // Hooks cannot use expect.poll: wait for the peer:join events instead.
  await new Promise<void>((resolve) => {
    const check = () => {
      if (manager.peers().filter((p) => p.state === "alive").length === expected.scopes.length) {
        manager.off("peer:join", check);
        resolve();
      }
    };
    manager.on("peer:join", check);
    check();
  });
}, 120_000);

afterAll(async () => {
  await manager?.stop();
  processes.killAll();
  rmSync(dir, { recursive: true, force: true });
});

async function task(scope: string, body: Record<string, unknown>): Promise<TaskResponse> {
  return parseTaskResponse(await manager.request(ids.get(scope) as string, "task", body, { timeoutMs: 20_000 }));
}

function expectCitationsCheck(response: TaskResponse): void {
  for (const citation of response.grounding_evidence?.citations ?? []) {
    const text = readFileSync(join(C_KERNEL_DIR, citation.file_path), "utf8");
    expect(citationHash(sliceLines(text, citation.line_start, citation.line_end)), `${citation.file_path}:${citation.line_start}`).toBe(citation.sha256);
  }
}

describe("workers over the demo kernel", () => {
  it("advertise their scope, index revision and protocol versions in their cards", () => {
    for (const scope of expected.scopes) {
      const card = manager.peerCard(ids.get(scope.name) as string);
      expect(card?.role).toBe("worker");
      expect(card?.meta).toMatchObject({ scope: scope.name, protocol_versions: ["2.0", "1.0-legacy"], executor: "pgc" });
      expect(card?.meta["index_revision"]).toMatch(/^[0-9a-f]{16}$/);
      expect(card?.meta["symbols"]).toBeGreaterThan(0);
    }
  });

  it("answers a pgc_first task with citations whose hashes match the files", async () => {
    const response = await task("drivers", {
      id: "t-dma",
      task: "How does the e1000 driver allocate its DMA descriptor rings?",
      acceptance_criteria: ["names the allocation function"],
      grounding: { strategy: "pgc_first", overlay_hints: ["O1", "O3"], evidence_required: true },
    });
    expect(response).toMatchObject({ task_id: "t-dma", status: "completed", protocol_version: "2.0" });
    const evidence = response.grounding_evidence;
    expect(evidence?.citations.length).toBeGreaterThan(0);
    expect(evidence?.citations.every((c) => c.file_path.startsWith("drivers/") || c.file_path === "include/linux/e1000.h")).toBe(true);
    expect(evidence?.overlays_consulted.some((o) => o === "O1" || o === "O3")).toBe(true);
    expect(response.result).toMatch(/e1000_/);
    expectCitationsCheck(response);
  });

  it("runs a task without grounding in legacy mode and says so", async () => {
    const response = await task("mm", { id: "t-legacy", task: "Where are pages allocated?", acceptance_criteria: [] });
    expect(response.protocol_version).toBe("1.0-legacy");
    expect(response.grounding_evidence).toBeUndefined();
  });

  it("verifies after executing under pgc_verify, and cites under pgc_cite", async () => {
    const verify = await task("mm", { id: "t-verify", task: "alloc_pages page allocator", acceptance_criteria: [], grounding: { strategy: "pgc_verify" } });
    expect(verify.grounding_evidence?.queries_executed[0]).toMatch(/In scope mm/);
    const cite = await task("kernel", { id: "t-cite", task: "dma_alloc_coherent", acceptance_criteria: [], grounding: { strategy: "pgc_cite" } });
    expect(cite.grounding_evidence?.citations[0]).toMatchObject({ similarity: 1, similarity_kind: "exact" });
    expect(cite.grounding_evidence?.grounding_confidence).toBe("high");
    expectCitationsCheck(cite);
  });

  it("refuses an invalid task with INVALID_TASK and keeps serving", async () => {
    const response = await task("net", { id: "t-bad", acceptance_criteria: "not a list" });
    expect(response).toMatchObject({ task_id: "t-bad", status: "failed", error: { code: "INVALID_TASK", retryable: false } });
    await expect(manager.request(ids.get("net") as string, "ping", {})).resolves.toBeTruthy();
  });

  it("falls back to O1 with overlay warnings when hinted overlays are missing", async () => {
    const response = await task("net", { id: "t-o7", task: "socket send path", acceptance_criteria: [], grounding: { strategy: "pgc_first", overlay_hints: ["O7"] } });
    if (!response.overlay_warnings) {
      // The scope has O7 documents after all: then the hint is simply honoured.
      expect(response.grounding_evidence?.overlays_consulted).toContain("O7");
    } else {
      expect(response.overlay_warnings.join(" ")).toMatch(/O7/);
    }
  });

  it("rates a query of random words low", async () => {
    const response = await task("mm", { id: "t-noise", task: "cabbage violin harbor thunder", acceptance_criteria: [], grounding: { strategy: "pgc_cite" } });
    expect(response.grounding_evidence?.grounding_confidence).toBe("low");
  });

  it("answers ask in the seed's ask --json shape", async () => {
    const result = (await manager.request(ids.get("kernel") as string, "ask", { question: "how is coherent DMA memory allocated?" })) as { sources: { file_path: string; similarity_kind: string }[]; metadata: { question_hash: string } };
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.sources.every((s) => s.file_path.startsWith("kernel/") || s.file_path.startsWith("include/linux/"))).toBe(true);
    expect(result.metadata.question_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("warm up once ready: every function's body tokenized and questions of their own asked, said on stdout", async () => {
    for (const scope of expected.scopes) {
      const events = (workers.get(scope.name) as NodeProcess).events;
      await expect.poll(() => events.find((e) => e["event"] === "warmed"), { timeout: 30_000 }).toBeTruthy();
      const warmed = events.find((e) => e["event"] === "warmed") as Record<string, unknown>;
      expect(warmed).toMatchObject({ id: ids.get(scope.name), scope: scope.name });
      expect(warmed["bodies"]).toBeGreaterThan(0);
      expect(warmed["questions"]).toBeGreaterThan(0);
      // After its ready line.
      expect(events.findIndex((e) => e["event"] === "ready")).toBeLessThan(events.indexOf(warmed));
    }
  });

  it("reports its cross-scope references for the topology", async () => {
    const facts = (await manager.request(ids.get("drivers") as string, "references", {})) as { scope: string; symbols: string[]; references: { kind: string; target: string }[] };
    expect(facts.scope).toBe("drivers");
    expect(facts.symbols).toContain("e1000_setup_ring");
    const calls = facts.references.filter((r) => r.kind === "call").map((r) => r.target);
    for (const call of expected.cross_scope_calls["drivers"] ?? []) expect(calls).toContain(call.callee);
  });

  it("NACKs a request whose hop budget is spent, itself", async () => {
    const error = await manager
      .request(ids.get("mm") as string, "ask", { question: "x" }, { trail: { path: ["a", "b", "c", "d", "e", "f", "test-manager"], hops: 7, maxHops: 6 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NackError", code: "hop_limit" });
  });
});
