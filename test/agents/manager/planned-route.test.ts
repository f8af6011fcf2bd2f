// A planned route (mode "planned"): the scope graph's path from one scope to another, one delegated task
// per hop, with the hops answered by a table instead of workers (manager-mesh.test.ts runs it over real
// worker processes); what a hop hands to the next; and how a name, module or path finds its scope.
import { describe, expect, it } from "vitest";
import { mentionedSymbols, pointers, quotedCode, refineQuestion } from "../../../agents/manager/answer/handoff.js";
import { answerPlannedRoute, type PlannedRouteDeps } from "../../../agents/manager/answer/planned-route.js";
import { briefFinding } from "../../../agents/manager/answer/synthesis.js";
import { ownersOfEntity, type Ownership } from "../../../agents/manager/ownership.js";
import type { AgentInfo } from "../../../agents/manager/agents-directory.js";
import type { Verdict } from "../../../agents/manager/validation/index.js";
import type { Citation, DelegatedTask } from "../../../agents/protocol/index.js";
import { pathMatch } from "../../../agents/manager/scope-map.js";
import { ScopeGraph } from "../../../topology/index.js";

function ownership(owners: Record<string, string[]>): Ownership {
  return { ownersOf: (symbol) => owners[symbol] ?? [] };
}

function cite(content: string): Citation {
  return { overlay: "O3", content, relevance: "call", file_path: "a.ts", line_start: 1, line_end: 1, sha256: "0".repeat(64), similarity: 1, similarity_kind: "exact" };
}


describe("pointers and mentionedSymbols", () => {
  it("reads the code a citation quotes, not the paths and template words the index wrote around it", () => {
    expect(quotedCode("call_chain: e1000_alloc_rx_buffers → dma_map_single | file:drivers/net/e1000/e1000_main.c:4412 | callee defined at kernel/dma/mapping.c:10")).toBe(
      "e1000_alloc_rx_buffers → dma_map_single",
    );
    expect(quotedCode("call_chain: ZodString → core.$constructor | file:v4/classic/schemas.ts:529 | callee not in this scope (library, builtin or indirect)")).toBe("ZodString → core.$constructor");
    expect(quotedCode("function:parsedType | params:1 | returns:errors.$ZodInvalidTypeExpected | file:v4/core/util.ts:1024 — v4/core/util.ts:1024-1045")).toBe(
      "parsedType | 1 | errors.$ZodInvalidTypeExpected",
    );
    // The cited source after the first line is the code itself: kept whole.
    expect(quotedCode("assertion:BUG_ON | BUG_ON(!page) | in:(file scope) | file:mm/page_alloc.c:7\n\tBUG_ON(!page);\n\tfree_pages(page);")).toBe(
      "BUG_ON | BUG_ON(!page)\n\tBUG_ON(!page);\n\tfree_pages(page);",
    );
    // A path in the evidence is not a lead: "mapping" and "kernel" would be, if another scope defined them.
    const map = ownership({ mapping: ["other"], kernel: ["other"], dma_map_single: ["dma"] });
    const leads = pointers([cite("call_chain: e1000_xmit → dma_map_single | file:drivers/e1000.c:1 | callee defined at kernel/dma/mapping.c:10")], [], map, "drivers");
    expect([...leads]).toEqual([["dma", ["dma_map_single"]]]);
    // A call in the cited source leads too.
    const fromBody = pointers([cite("function:e1000_alloc_rx_buffers | file:drivers/e1000.c:10\n\tbuffer_info->dma = dma_map_single(&pdev->dev, data, len, DMA_FROM_DEVICE);")], [], map, "drivers");
    expect([...fromBody]).toEqual([["dma", ["dma_map_single"]]]);
  });

  it("counts names in citations and findings, \"$\" included, most mentioned first", () => {
    expect(mentionedSymbols([cite("inst.$ZodCheck calls core.$constructor(def)")], ["$ZodCheck runs first"])).toEqual(["$ZodCheck", "$constructor"]);
  });

  it("takes a name that reads as an English word only where the evidence calls it", () => {
    const evidence = [cite("call_chain: e1000_setup → kmalloc | file:e1000.c:3\n\tlist_add(&entry->chain, head);\n\tprintk (\"reserved\");")];
    // kmalloc is called (a call chain's callee) and printk too; entry, chain, head and "reserved" are not.
    expect(mentionedSymbols(evidence, [])).toEqual(["e1000_setup", "kmalloc", "list_add", "printk"]);
  });

  it("points to the other scopes that alone own a mentioned name, never back home", () => {
    const map = ownership({ $constructor: ["v4-core"], clone: ["v4-core", "v3"], ZodType: ["v4-classic"], parse: ["v3"] });
    const leads = pointers([cite("ZodType calls core.$constructor(def) and clone(x), then parse(y)")], [], map, "v4-classic");
    expect([...leads]).toEqual([
      ["v4-core", ["$constructor"]],
      ["v3", ["parse"]],
    ]);
  });
});

describe("refineQuestion", () => {
  it("narrows the question to the symbols that led to the scope", () => {
    expect(refineQuestion("How is DMA set up?", null, [])).toBe("How is DMA set up?");
    expect(refineQuestion("How is DMA set up?", "drivers", ["dma_map_single"])).toBe("How is DMA set up? (continuing from drivers: how is dma_map_single implemented here?)");
    expect(refineQuestion("How is DMA set up?", "drivers", ["dma_map_single", "dma_unmap_single"])).toMatch(/how are dma_map_single, dma_unmap_single implemented here\?\)$/);
  });
});

describe("the scopes owning a name, module or path", () => {
  // Scope paths as a fleet's facts give them; the most specific owner wins, as in ScopeMap.ownersOfPath.
  const paths: Record<string, string[]> = { json_urllib: ["json/", "urllib/"], asyncio_email_http: ["asyncio/", "email/", "http/"], mm: ["mm/"], "mm-2": ["mm/slab.c"] };
  const map: Ownership = {
    ownersOf: (symbol) => ({ request: ["asyncio_email_http"] })[symbol] ?? [],
    ownersOfPath: (path) => {
      const matches = Object.entries(paths).flatMap(([scope, owned]) => owned.map((p) => [scope, pathMatch(p, path)] as const)).filter(([, n]) => n > 0);
      const best = Math.max(0, ...matches.map(([, n]) => n));
      return matches.filter(([, n]) => n === best).map(([scope]) => scope);
    },
  };

  it("takes a symbol to its definers, a dotted module to the scope owning its file, and a dotted name that is no module to its longest module prefix", () => {
    expect(ownersOfEntity(map, "request")).toEqual(["asyncio_email_http"]);
    expect(ownersOfEntity(map, "urllib.request")).toEqual(["json_urllib"]);
    expect(ownersOfEntity(map, "json.dumps")).toEqual(["json_urllib"]);
    expect(ownersOfEntity(map, "nothing_here")).toEqual([]);
  });

  it("takes a path to its most specific scope", () => {
    expect(ownersOfEntity(map, "mm/slab.c")).toEqual(["mm-2"]);
    expect(ownersOfEntity(map, "mm/page_alloc.c")).toEqual(["mm"]);
    expect(pathMatch("mm/", "mm")).toBe(3);
    expect(pathMatch("mm/slab.c", "mm/slab")).toBe(9);
    expect(pathMatch("", "mm/slab")).toBe(0);
    expect(pathMatch("mm/", "mmap/x")).toBe(0);
  });
});

const accepted: Verdict = { status: "accepted", reasons: [], warnings: [], checks: [], citations_checked: 1, citations_verified: 1, citations: [], criteria: [], needs_followup: [] };

/** A chain of scopes a → b → c → d; each scope answers with the evidence listed for it. */
function route(evidence: Record<string, string[]>, owners: Record<string, string[]>, asked: { scope: string; task: DelegatedTask }[], rejected: string[] = []): PlannedRouteDeps {
  const scopes = Object.keys(evidence);
  const edges = scopes.slice(1).map((to, i) => ({ from: scopes[i] as string, to, kind: "call" as const, weight: 1, counts: { call: 1, include: 0, import: 0, manual: 0 }, examples: [] }));
  return {
    managerId: "manager",
    scopes,
    graph: new ScopeGraph(scopes.map((name) => ({ name, metadata: {} })), edges),
    ownership: { ownersOf: (symbol) => owners[symbol] ?? [] },
    dispatch: async (scope, task) => {
      asked.push({ scope, task });
      const citations = (evidence[scope] ?? []).map(cite);
      const response = { task_id: task.id, status: "completed" as const, result: "ok", protocol_version: "2.0" as const, key_findings: [], grounding_evidence: { queries_executed: ["q"], overlays_consulted: ["O3" as const], citations, grounding_confidence: "high" as const } };
      return { response, agent: { id: `${scope}-1`, scope } as AgentInfo, failovers: [] };
    },
    validate: async (task) => (rejected.some((s) => task.id.endsWith(`hop${s}`)) ? { ...accepted, status: "rejected", code: "FABRICATED_CITATION" } : accepted),
    storeHop: (hop) => `hops.jsonl#t-hop${hop}`,
  };
}

describe("a planned route", () => {
  const evidence = { a: ["call_chain: start → middle_step | file:a.c:1"], b: ["call_chain: middle_step → deep_call | file:b.c:1"], c: ["function:deep_call | file:c.c:1"], d: [] };
  const owners = { middle_step: ["b"], deep_call: ["c"] };

  it("asks each scope of the route in turn, focused on what the previous hop's evidence names in it, and hands its findings on", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    const result = await answerPlannedRoute(route(evidence, owners, asked), { id: "t", question: "How does start reach deep_call?", from: "a", to: "d", maxHops: 6 });
    expect(result.mode).toBe("planned");
    expect(result.query_path).toEqual(["a", "b", "c", "d"]);
    expect(result.safety.stopped_because).toBe("reached d");
    expect(asked[1]?.task.task).toBe("How does start reach deep_call? (continuing from a: how is middle_step implemented here?)");
    expect(asked[1]?.task.context).toContain("Full output: hops.jsonl#t-hop0");
    expect(result.answer).toContain("Path a → b → c → d");
  });

  it("refuses a route longer than the hop budget before any hop runs, and stops at a rejected hop", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    await expect(answerPlannedRoute(route(evidence, owners, asked), { id: "t", question: "q", from: "a", to: "d", maxHops: 2 })).rejects.toMatchObject({ code: "hop_limit" });
    expect(asked).toEqual([]);
    const stopped = await answerPlannedRoute(route(evidence, owners, asked, ["1"]), { id: "t", question: "q", from: "a", to: "d", maxHops: 6 });
    expect(stopped.query_path).toEqual(["a", "b"]);
    expect(stopped.safety.stopped_because).toBe("hop 1 in b was rejected (FABRICATED_CITATION)");
  });

  it("refuses a scope no worker serves, with the scopes that exist and the likeliest one meant", async () => {
    const fleet = route({ drivers: [], kernel: [], mm: [] }, {}, []);
    await expect(answerPlannedRoute(fleet, { id: "u", question: "q", from: "driver", to: "mm", maxHops: 3 })).rejects.toMatchObject({
      code: "unknown_scope",
      message: 'no worker serves scope "driver" (scopes: drivers, kernel, mm); did you mean "drivers"?',
    });
  });
});

describe("briefFinding", () => {
  it("shortens an index line to what it names and where, and quotes an agent's own words as they are", () => {
    expect(briefFinding("function:innerFrom | params:1 | returns:Observable<T> | file:internal/observable/innerFrom.ts:16 — internal/observable/innerFrom.ts:16-42")).toBe(
      "function innerFrom (internal/observable/innerFrom.ts:16-42)",
    );
    expect(briefFinding("call_chain: e1000_alloc_rx_buffers → dma_map_single | file:e1000_main.c:4412 | callee defined at kernel/dma/mapping.c:10 — e1000_main.c:4412-4412")).toBe(
      "e1000_alloc_rx_buffers → dma_map_single (e1000_main.c:4412-4412)",
    );
    expect(briefFinding("Call chain: include/linux/slab.h:kzalloc() → mm/slab.c:kmalloc() → pr_err() [outside scope] — mm/slab.c:22-22")).toBe(
      "kzalloc → kmalloc → pr_err (mm/slab.c:22-22)",
    );
    expect(briefFinding("Pages come from the buddy allocator.")).toBe("Pages come from the buddy allocator.");
    expect(briefFinding("x".repeat(300))).toHaveLength(160);
  });
});
