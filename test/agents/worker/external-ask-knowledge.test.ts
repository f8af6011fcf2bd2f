// An external ask command as a worker's evidence source: which sources become citations, which are
// dropped as unverifiable, and how its failures reach the TaskResponse (seed 002 §5.2: blocked).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { CitationSchema, parseAskResult } from "../../../agents/protocol/index.js";
import { handleTask, type TaskDeps } from "../../../agents/worker/handle-task.js";
import type { Executor } from "../../../agents/worker/executor.js";
import type { CitationRef, ScopeKnowledge } from "../../../agents/worker/knowledge.js";
import { externalKnowledge } from "../../../agents/worker/external-ask/external-knowledge.js";
import { citationsFrom, markExternal } from "../../../agents/worker/external-ask/external-sources.js";
import type { ScopeFacts } from "../../../topology/index.js";
import { envWith, nodeCommand } from "../../fixtures/executors/scripts.js";

const logger = pino({ level: "silent" });
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mesh-askk-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The scope's own index, reduced to what external knowledge borrows from it: overlays, facts, verification. */
function ownIndex(valid: boolean[]): ScopeKnowledge & { verified: CitationRef[][] } {
  const verified: CitationRef[][] = [];
  const unused = async (): Promise<never> => {
    throw new Error("the own index must not answer queries");
  };
  return {
    verified,
    overlays: () => ["O1", "O3"],
    query: unused,
    ask: unused,
    verify: async (citations) => {
      verified.push([...citations]);
      return citations.map((_, i) => valid[i] ?? false);
    },
    facts: () => ({ scope: "mm", paths: ["mm/"], symbols: ["alloc_pages"], references: [] }) satisfies ScopeFacts,
    stats: () => ({ revision: "r1", documents: 1, symbols: 1, files: 1, overlays: ["O1", "O3"], similarity: "calibrated_lexical" }),
  };
}

function knowledge(mode: string, valid: boolean[] = [true, true], timeoutMs = 5_000) {
  const own = ownIndex(valid);
  return { own, external: externalKnowledge(own, { command: nodeCommand("fake-ask"), cwd: dir, timeoutMs, env: envWith({ FAKE_ASK_MODE: mode }), logger }) };
}

const noExecutor: Executor = {
  name: "stub",
  execute: async () => ({ status: "completed", result: "answered from the evidence" }),
};

function deps(source: ScopeKnowledge): TaskDeps {
  return { source, executor: noExecutor, scope: { name: "mm", root: dir, paths: ["mm/"] }, workerId: "mm-ext", logger };
}

describe("external sources as citations", () => {
  it("cites only sources with an O1-O7 overlay, a file, a line range and a hash, marked external", async () => {
    const { external } = knowledge("ok");
    const citations = citationsFrom(markExternal(parseAskResult(await external.ask("q", {}))));
    expect(citations.map((c) => [c.overlay, c.file_path, c.line_start, c.similarity, c.similarity_kind])).toEqual([
      ["O1", "mm/page_alloc.c", 1, 0.83, "external"],
      ["O3", "mm/page_alloc.c", 3, 1, "external"],
    ]);
    expect(citations[1]?.relevance).toBe("external ask (lineage); similarity not calibrated by this mesh");
    for (const citation of citations) expect(() => CitationSchema.parse(citation)).not.toThrow();
  });

  it("drops citations whose lines no longer hash as cited in the scope's files", async () => {
    const { own, external } = knowledge("ok", [false, true]);
    const citations = await external.query("q", { topK: 5 });
    expect(own.verified[0]?.map((c) => c.line_start)).toEqual([1, 3]);
    expect(citations.map((c) => c.line_start)).toEqual([3]);
  });

  it("answers ask from the command and borrows overlays, facts and verification from the own index", async () => {
    const { external } = knowledge("ok");
    expect((await external.ask("q", { topK: 2 })).sources.every((s) => s.similarity_kind === "external")).toBe(true);
    expect(external.overlays()).toEqual(["O1", "O3"]);
    expect(external.facts().symbols).toEqual(["alloc_pages"]);
    expect(external.stats().similarity).toBe("external");
  });
});

describe("a worker grounded by an external ask command", () => {
  it("completes a pgc_cite task with external, checkable citations", async () => {
    const task = { id: "T-ext", task: "how are pages allocated?", acceptance_criteria: [], grounding: { strategy: "pgc_cite" as const, evidence_required: true } };
    const response = await handleTask(task, deps(knowledge("ok").external), { deadline: Date.now() + 10_000, signal: new AbortController().signal });
    expect(response.status).toBe("completed");
    expect(response.grounding_evidence?.citations.map((c) => c.similarity_kind)).toEqual(["external", "external"]);
  });

  it("blocks the task with PGC_TIMEOUT when the command hangs", async () => {
    const task = { id: "T-slow", task: "q", acceptance_criteria: [], grounding: { strategy: "pgc_first" as const } };
    const response = await handleTask(task, deps(knowledge("hang", [], 500).external), { deadline: Date.now() + 10_000, signal: new AbortController().signal });
    expect(response).toMatchObject({ status: "blocked", error: { code: "PGC_TIMEOUT", retryable: true } });
  });

  it("blocks the task with PGC_QUERY_FAILED when the command prints garbage", async () => {
    const task = { id: "T-bad", task: "q", acceptance_criteria: [], grounding: { strategy: "pgc_first" as const } };
    const response = await handleTask(task, deps(knowledge("garbage").external), { deadline: Date.now() + 10_000, signal: new AbortController().signal });
    expect(response).toMatchObject({ status: "blocked", error: { code: "PGC_QUERY_FAILED", retryable: true } });
  });
});
