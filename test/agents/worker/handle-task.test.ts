// The worker's task flow on the real demo-kernel PGC, in process: overlay fallback, PGC failure and
// timeout (seed 002 §5.2, §5.3), delegation depth, and evidence that is required but missing.
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { handleTask, type TaskDeps } from "../../../agents/worker/handle-task.js";
import { knowledgeFromPgc } from "../../../agents/worker/pgc-knowledge.js";
import { createPgcExecutor } from "../../../agents/worker/pgc-executor.js";
import type { ScopeKnowledge } from "../../../agents/worker/knowledge.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";

const logger = pino({ level: "silent" });
const paths = ["mm/", "include/linux/mm.h", "include/linux/gfp.h", "include/linux/slab.h"];
let knowledge: ScopeKnowledge;

beforeAll(async () => {
  const pgc = new Pgc("mm", paths, await openPgc({ scope: "mm", root: C_KERNEL_DIR, scopePaths: paths, cacheRoot: mkdtempSync(join(tmpdir(), "mesh-ht-")), logger }));
  knowledge = knowledgeFromPgc(pgc);
});

function deps(source: ScopeKnowledge): TaskDeps {
  return { source, executor: createPgcExecutor(source), scope: { name: "mm", root: C_KERNEL_DIR, paths }, workerId: "mm-1", logger };
}
const call = (ms = 5_000) => ({ deadline: Date.now() + ms, signal: new AbortController().signal });

describe("handleTask", () => {
  it("falls back to O1 with overlay warnings when no hinted overlay exists", async () => {
    const limited: ScopeKnowledge = { ...knowledge, overlays: () => ["O1", "O3"] };
    const response = await handleTask({ id: "t1", task: "alloc_pages", acceptance_criteria: [], grounding: { strategy: "pgc_first", overlay_hints: ["O6", "O7"] } }, deps(limited), call());
    expect(response.overlay_warnings?.join(" ")).toMatch(/O6.*O7|none of the hinted overlays/s);
    expect(response.grounding_evidence?.overlays_consulted).toEqual(["O1"]);
  });

  it("tries to build missing overlays within the deadline before falling back", async () => {
    const built: ScopeKnowledge = { ...knowledge, overlays: () => ["O1"], buildOverlays: async (missing) => ["O1", ...missing] };
    const response = await handleTask({ id: "t2", task: "alloc_pages", acceptance_criteria: [], grounding: { strategy: "pgc_first", overlay_hints: ["O3"] } }, deps(built), call());
    expect(response.overlay_warnings).toBeUndefined();
    expect(response.grounding_evidence?.overlays_consulted).toContain("O3");
  });

  it("blocks with low confidence and PGC_TIMEOUT when the PGC does not answer in time", async () => {
    const stuck: ScopeKnowledge = { ...knowledge, query: () => new Promise(() => undefined) };
    const response = await handleTask({ id: "t3", task: "alloc_pages", acceptance_criteria: [], grounding: { strategy: "pgc_first" } }, deps(stuck), call(400));
    expect(response).toMatchObject({ status: "blocked", error: { code: "PGC_TIMEOUT", retryable: true } });
  });

  it("blocks with PGC_QUERY_FAILED when the PGC query fails", async () => {
    const broken: ScopeKnowledge = { ...knowledge, query: async () => Promise.reject(Object.assign(new Error("index unreadable"), { code: "PGC_QUERY_FAILED" })) };
    const response = await handleTask({ id: "t4", task: "alloc_pages", acceptance_criteria: [], grounding: { strategy: "pgc_cite" } }, deps(broken), call());
    expect(response.status).toBe("blocked");
    expect(response.error?.code).toBe("PGC_QUERY_FAILED");
  });

  it("refuses a task beyond the delegation depth limit", async () => {
    const response = await handleTask({ id: "t5", task: "x", acceptance_criteria: [], delegation_depth: 4, delegation_chain: ["a", "b", "c", "d"] }, deps(knowledge), call());
    expect(response).toMatchObject({ status: "failed" });
    expect(["DELEGATION_DEPTH_EXCEEDED", "INVALID_TASK"]).toContain(response.error?.code);
  });

  it("marks a task partial when evidence is required and nothing matches", async () => {
    const empty: ScopeKnowledge = { ...knowledge, query: async () => [] };
    const response = await handleTask({ id: "t6", task: "x", acceptance_criteria: [], grounding: { strategy: "pgc_first", evidence_required: true } }, deps(empty), call());
    expect(response.status).toBe("partial");
    expect(response.grounding_evidence?.grounding_confidence).toBe("low");
  });
});
