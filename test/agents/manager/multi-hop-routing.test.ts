// Where a multi-hop question goes, with the hops answered by a table instead of workers: the routing
// rules alone (the same rules run over real worker processes in manager-mesh.test.ts).
import { describe, expect, it } from "vitest";
import { briefFinding } from "../../../agents/manager/answer-synthesis.js";
import { answerMultiHop, type MultiHopDeps } from "../../../agents/manager/multi-hop.js";
import type { AgentInfo } from "../../../agents/manager/agents-directory.js";
import type { Verdict } from "../../../agents/manager/validation/index.js";
import { ScopeGraph } from "../../../topology/index.js";
import type { Citation, DelegatedTask } from "../../../agents/protocol/index.js";

function cite(content: string): Citation {
  return { overlay: "O3", content, relevance: "call", file_path: "x.ts", line_start: 1, line_end: 1, sha256: "0".repeat(64), similarity: 1, similarity_kind: "exact" };
}

const accepted: Verdict = { status: "accepted", reasons: [], warnings: [], checks: [], citations_checked: 1, citations_verified: 1, citations: [], criteria: [], needs_followup: [] };

/** Each scope answers with the evidence listed for it; owners maps a symbol to the scopes defining it. */
function deps(evidence: Record<string, string[]>, owners: Record<string, string[]>, asked: { scope: string; task: DelegatedTask }[]): MultiHopDeps {
  const scopes = Object.keys(evidence);
  return {
    managerId: "manager",
    scopes,
    graph: new ScopeGraph(scopes.map((name) => ({ name, metadata: {} })), []),
    ownership: { ownersOf: (symbol) => owners[symbol] ?? [] },
    dispatch: async (scope, task) => {
      asked.push({ scope, task });
      const citations = (evidence[scope] ?? []).map(cite);
      const response = { task_id: task.id, status: "completed" as const, result: "ok", protocol_version: "2.0" as const, key_findings: [], grounding_evidence: { queries_executed: ["q"], overlays_consulted: ["O3" as const], citations, grounding_confidence: "high" as const } };
      return { response, agent: { id: `${scope}-1`, scope } as AgentInfo, failovers: [] };
    },
    validate: async () => accepted,
    storeHop: (hop) => `hops.jsonl#t-hop${hop}`,
    bestScopeFor: async () => null,
  };
}

describe("evidence-following routes", () => {
  const owners = { innerFrom: ["observable"], switchMap: ["operators"], Observable: ["core"], operate: ["util"] };
  const evidence = {
    observable: ["function:innerFrom | returns:Observable<T> | file:observable/innerFrom.ts:16"],
    operators: ["call_chain: switchMap → operate | file:operators/switchMap.ts:89 | callee outside this scope"],
    core: ["class:Observable | file:core/Observable.ts:1"],
    util: ["function:operate | file:util/lift.ts:1"],
  };

  it("goes to the scope owning a name the question asks about before a generic lead in the evidence", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    const question = "How does switchMap operate on an Observable with innerFrom?";
    const result = await answerMultiHop(deps(evidence, owners, asked), { id: "t", question, from: "observable", maxHops: 6, mode: "evidence" });
    // observable's evidence leads to core (Observable); the question's switchMap lives in operators: that
    // first, then util along operators' lead to operate. "Observable" is the visited scope's own name, so
    // it asks for no more and core is not asked.
    expect(result.query_path).toEqual(["observable", "operators", "util"]);
    expect(asked[1]?.task.task).toContain("how is switchMap implemented here?");
    expect(result.knowledge_chain[2]?.focus).toEqual(["operate"]);
  });

  it("stops once what the question names is answered, when the evidence's other leads share nothing with it", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    const result = await answerMultiHop(deps(evidence, owners, asked), { id: "t", question: "How does switchMap subscribe with innerFrom?", from: "observable", maxHops: 6, mode: "evidence" });
    // operate (util) and Observable (core) are called or returned, but the question asks about neither.
    expect(result.query_path).toEqual(["observable", "operators"]);
    expect(result.safety.stopped_because).toMatch(/points to no unvisited scope that bears on the question/);
    // A name the question asks about is chased even when its parts are plain words: SMTPHandler → "smtp".
    const mail = { logging: ["call_chain: emit → smtplib.SMTP | file:logging/handlers.py:1 | callee outside this scope", "call_chain: emit → print_exc"], smtplib: [], traceback: [] };
    const path = await answerMultiHop(deps(mail, { SMTP: ["smtplib"], print_exc: ["traceback"] }, []), { id: "m", question: "How does SMTPHandler send mail with smtplib?", from: "logging", maxHops: 6, mode: "evidence" });
    expect(path.query_path).toEqual(["logging", "smtplib"]);
    // A question term inside a name's part counts from five letters ("alloc" in kzalloc), not below ("read" in thread).
    const kernel = { drivers: ["call_chain: e1000_setup → kzalloc", "call_chain: e1000_setup → kthread_run"], mm: [], sched: [] };
    const dma = await answerMultiHop(deps(kernel, { kzalloc: ["mm"], kthread_run: ["sched"] }, []), { id: "k", question: "How does e1000 read and allocate its rings?", from: "drivers", maxHops: 6, mode: "evidence" });
    expect(dma.query_path).toEqual(["drivers", "mm"]);
  });

  it("starts a question that names no code at the scope it names by a word, else at the best match", async () => {
    const scopes = { email: [], distutils: [], test: [] };
    const run = (question: string) => answerMultiHop({ ...deps(scopes, {}, []), bestScopeFor: async () => "distutils" }, { id: "s", question, maxHops: 1, mode: "evidence" });
    expect((await run("How does the email parser decode base64 payloads?")).query_path).toEqual(["email"]);
    expect((await run("How do I test the parser of base64 payloads?")).query_path).toEqual(["distutils"]);
    // A C name that reads as a word (kmalloc) starts at the one scope defining it; defined twice, it says nothing.
    const words = (owners: Record<string, string[]>) => ({ ...deps({ lib: [], mm: [] }, owners, []), bestScopeFor: async () => "lib" });
    const kmalloc = "How does kmalloc get pages from the buddy allocator?";
    expect((await answerMultiHop(words({ kmalloc: ["mm"] }), { id: "w", question: kmalloc, maxHops: 1, mode: "evidence" })).query_path).toEqual(["mm"]);
    expect((await answerMultiHop(words({ kmalloc: ["mm", "lib"] }), { id: "w", question: kmalloc, maxHops: 1, mode: "evidence" })).query_path).toEqual(["lib"]);
    // With one scope, every question starts there, even one that names nothing it knows.
    const only = { ...deps({ app: [] }, {}, []), bestScopeFor: async () => null };
    expect((await answerMultiHop(only, { id: "o", question: "what does f return?", maxHops: 1, mode: "evidence" })).query_path).toEqual(["app"]);
  });

  it("prefers the target when the evidence leads there, and stops at it", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    const result = await answerMultiHop(deps(evidence, owners, asked), { id: "t", question: "How does switchMap subscribe with innerFrom?", from: "observable", to: "core", maxHops: 6, mode: "evidence" });
    expect(result.query_path).toEqual(["observable", "core"]);
    expect(result.safety.stopped_because).toBe("reached core");
  });

  it("never visits a scope twice and stops at the hop budget", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    const result = await answerMultiHop(deps(evidence, owners, asked), { id: "t", question: "How does switchMap operate on an Observable with innerFrom?", from: "observable", maxHops: 2, mode: "evidence" });
    expect(result.query_path).toEqual(["observable", "operators"]);
    expect(result.safety).toMatchObject({ actual_hops: 2, stopped_because: "hop budget of 2 spent" });
    expect(new Set(asked.map((a) => a.scope)).size).toBe(asked.length);
  });
});

describe("a scope no worker serves", () => {
  it("is refused with the scopes that exist and the likeliest one meant", async () => {
    const fleet = deps({ drivers: [], kernel: [], mm: [] }, {}, []);
    await expect(answerMultiHop(fleet, { id: "u", question: "q", from: "driver", maxHops: 3, mode: "evidence" })).rejects.toMatchObject({
      code: "unknown_scope",
      message: 'no worker serves scope "driver" (scopes: drivers, kernel, mm); did you mean "drivers"?',
    });
    await expect(answerMultiHop(fleet, { id: "u", question: "q", from: "drivers", to: "memory", maxHops: 3 })).rejects.toMatchObject({
      message: 'no worker serves scope "memory" (scopes: drivers, kernel, mm)',
    });
  });
});

describe("questions about callers", () => {
  it("goes from the scope defining the name to the scopes calling it, most calls first, and asks where it is called", async () => {
    const asked: { scope: string; task: DelegatedTask }[] = [];
    const evidence = { mm: ["function:kmalloc | file:mm/slab.c:19", "call_chain: kmalloc → alloc_pages"], kernel: [], drivers: [], net: [] };
    const base = deps(evidence, { kmalloc: ["mm"], alloc_pages: ["mm"] }, asked);
    const calls: Record<string, { scope: string; count: number }[]> = { kmalloc: [{ scope: "kernel", count: 3 }, { scope: "drivers", count: 1 }] };
    const withCallers = { ...base, ownership: { ...base.ownership, callersOf: (symbol: string) => calls[symbol] ?? [] } };
    const result = await answerMultiHop(withCallers, { id: "c", question: "Who calls kmalloc?", maxHops: 6, mode: "evidence" });
    expect(result.query_path).toEqual(["mm", "kernel", "drivers"]);
    expect(asked[1]?.task.task).toBe("Who calls kmalloc? (continuing from mm: where is kmalloc called here?)");
    expect(result.safety.stopped_because).toBe("no other scope calls what the question names");
    // A qualified name counts only the callers whose code names its module: json.dumps, not pickle's dumps.
    const json = deps({ json: ["function:dumps | file:json/__init__.py:183"], logging: [], multiprocessing: [] }, { dumps: ["json"], "json.dumps": ["json"] }, []);
    const byModule: Record<string, { scope: string; count: number }[]> = {
      "json.dumps": [{ scope: "logging", count: 1 }],
      dumps: [{ scope: "multiprocessing", count: 4 }, { scope: "logging", count: 2 }],
    };
    const jsonCallers = { ...json, ownership: { ...json.ownership, callersOf: (symbol: string) => byModule[symbol] ?? [] } };
    expect((await answerMultiHop(jsonCallers, { id: "j", question: "What calls json.dumps?", maxHops: 6, mode: "evidence" })).query_path).toEqual(["json", "logging"]);
    // "How does kmalloc work?" is not about callers: it stays with kmalloc's own evidence.
    expect((await answerMultiHop(withCallers, { id: "h", question: "How does kmalloc work?", maxHops: 6, mode: "evidence" })).query_path).toEqual(["mm"]);
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
    expect(briefFinding("doc_comment:kmalloc | allocate memory | file:mm/slab.c:3 — mm/slab.c:1-3")).toBe("doc comment kmalloc (mm/slab.c:1-3)");
    expect(briefFinding("Call chain: include/linux/slab.h:kzalloc() → mm/slab.c:kmalloc() → pr_err() [outside scope] — mm/slab.c:22-22")).toBe(
      "kzalloc → kmalloc → pr_err (mm/slab.c:22-22)",
    );
    expect(briefFinding("Pages come from the buddy allocator.")).toBe("Pages come from the buddy allocator.");
    expect(briefFinding("x".repeat(300))).toHaveLength(160);
  });
});
