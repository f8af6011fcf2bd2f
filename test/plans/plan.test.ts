// Delegation plans without a fleet: checking a plan, its complexity and the strategy and model hint it
// gets (seed 000's tables), and how each mode orders and hands on its steps, with a table of answers in
// place of the manager (the same plans run over worker processes in test/cli/plans.test.ts).
import { describe, expect, it } from "vitest";
import type { DelegatedTask } from "../../agents/protocol/index.js";
import type { DelegationOutcome } from "../../src/delegation.js";
import { chooseStrategy, complexityOf, modelHintFor, parsePlan, selectMode, stepDelegation, type Plan, type PlanError } from "../../src/plans/plan.js";
import { inputsOf, runPlan, stagesOf, topologicalOrder, type PlanRunDeps } from "../../src/plans/run-plan.js";

const SCOPES = ["net", "drivers", "kernel", "mm"];

function refusal(value: unknown): PlanError {
  try {
    parsePlan(value, SCOPES);
  } catch (error) {
    return error as PlanError;
  }
  throw new Error("the plan was accepted");
}

describe("checking a plan before anything runs", () => {
  it("refuses a cycle, naming its steps in order", () => {
    const error = refusal({ tasks: [{ id: "a", scope: "mm", task: "x", depends_on: ["c"] }, { id: "b", scope: "mm", task: "x", depends_on: ["a"] }, { id: "c", scope: "mm", task: "x", depends_on: ["b"] }] });
    expect(error.code).toBe("dependency_cycle");
    expect(error.message).toMatch(/a → c → b → a|c → b → a → c|b → a → c → b/);
    expect([...error.ids].sort()).toEqual(["a", "b", "c"]);
  });

  it("refuses unknown scopes, unknown or self dependencies, duplicate ids and bad shapes, with the offending ids", () => {
    expect(refusal({ tasks: [{ id: "a", scope: "memory", task: "x" }] })).toMatchObject({ code: "unknown_scope", ids: ["a"], message: expect.stringMatching(/a \(memory\)/) });
    expect(refusal({ tasks: [{ id: "a", scope: "mm", task: "x", depends_on: ["zz"] }] })).toMatchObject({ code: "unknown_dependency", ids: ["a"] });
    expect(refusal({ tasks: [{ id: "a", scope: "mm", task: "x", depends_on: ["a"] }] })).toMatchObject({ code: "unknown_dependency" });
    expect(refusal({ tasks: [{ id: "a", scope: "mm", task: "x" }, { id: "a", scope: "net", task: "y" }] })).toMatchObject({ code: "duplicate_id", ids: ["a"] });
    expect(refusal({ tasks: [] })).toMatchObject({ code: "invalid_plan" });
    expect(refusal({ tasks: [{ id: "a", scope: "mm", task: "x", extra: 1 }] })).toMatchObject({ code: "invalid_plan", message: expect.stringMatching(/tasks\.0/) });
    expect(refusal({ strategy: "eventually", tasks: [{ id: "a", scope: "mm", task: "x" }] })).toMatchObject({ code: "invalid_plan", message: expect.stringMatching(/strategy/) });
  });
});

describe("a plan submitted by an agent in a delegation chain (seed 004)", () => {
  it("delegates its steps one level deeper with the chain extended, and refuses a plan past the maximum depth", () => {
    const tasks = [{ id: "a", scope: "mm", task: "x" }];
    const plan = parsePlan({ delegation_depth: 1, delegation_chain: ["primary"], delegated_by: "planner", tasks }, SCOPES);
    expect(stepDelegation(plan)).toEqual({ delegation_depth: 2, delegation_chain: ["primary", "planner"] });
    expect(stepDelegation(parsePlan({ tasks }, SCOPES))).toEqual({});
    expect(refusal({ delegation_depth: 3, delegation_chain: ["p", "q", "r"], delegated_by: "s", tasks })).toMatchObject({ code: "DELEGATION_DEPTH_EXCEEDED", ids: ["a"], message: expect.stringMatching(/depth 4, past the maximum of 3/) });
    expect(refusal({ delegation_depth: 1, delegation_chain: [], delegated_by: "s", tasks })).toMatchObject({ code: "invalid_plan" });
    expect(refusal({ delegation_chain: ["p"], tasks })).toMatchObject({ code: "invalid_plan" });
  });
});

describe("complexity, strategy and model hint", () => {
  it("follows seed 000's tables at their boundaries", () => {
    expect(selectMode(0.39, 0)).toBe("parallel");
    expect(selectMode(0.55, 0)).toBe("parallel");
    expect(selectMode(0.2, 1)).toBe("sequential");
    expect(selectMode(0.69, 5)).toBe("sequential");
    expect(selectMode(0.7, 2)).toBe("pipeline");
    expect(selectMode(0.7, 3)).toBe("fan-out-fan-in");
    expect([modelHintFor(0.39), modelHintFor(0.4), modelHintFor(0.69), modelHintFor(0.7)]).toEqual(["haiku", "sonnet", "sonnet", "opus"]);
  });

  it("scores a one-step plan as simple and a wide, long, demanding plan as complex, and says why", () => {
    const one = parsePlan({ tasks: [{ id: "a", scope: "mm", task: "Where is kmalloc?" }] }, SCOPES);
    expect(complexityOf(one).score).toBeLessThan(0.1);
    const words = Array.from({ length: 160 }, (_, i) => `word${i}`).join(" ");
    const big: Plan = parsePlan({ tasks: Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, scope: SCOPES[i % 4], task: words, criteria: ["a", "b", "c"], ...(i > 0 ? { depends_on: [`s${i - 1}`] } : {}) })) }, SCOPES);
    const chosen = chooseStrategy(big);
    expect(chosen.complexity.score).toBeGreaterThan(0.9);
    expect(chosen.execution).toEqual({ mode: "fan-out-fan-in", complexity: chosen.complexity.score, model_hint: "opus", auto_calculated: true });
    expect(chosen.reason).toMatch(/^complexity 0\.\d+ \(steps 1\.00, length 1\.00, criteria 1\.00, spread 0\.75\) and 9 dependencies choose fan-out-fan-in$/);
    const named = chooseStrategy({ ...big, strategy: "sequential" });
    expect(named.execution).toMatchObject({ mode: "sequential", auto_calculated: false });
    expect(named.reason).toMatch(/^named by the plan .* would choose fan-out-fan-in\)$/);
  });
});

describe("how each mode orders and hands on its steps", () => {
  const plan = parsePlan(
    {
      tasks: [
        { id: "a", scope: "net", task: "x" },
        { id: "b", scope: "mm", task: "x" },
        { id: "c", scope: "kernel", task: "x", depends_on: ["a", "b"] },
        { id: "d", scope: "drivers", task: "x", depends_on: ["c"] },
      ],
    },
    SCOPES,
  );

  it("takes the dependency levels as stages, and a plan without dependencies as a chain", () => {
    expect(stagesOf(plan)).toEqual([["a", "b"], ["c"], ["d"]]);
    expect(topologicalOrder(plan)).toEqual(["a", "b", "c", "d"]);
    const flat = parsePlan({ tasks: [{ id: "x", scope: "mm", task: "1" }, { id: "y", scope: "mm", task: "2" }] }, SCOPES);
    expect(stagesOf(flat)).toEqual([["x"], ["y"]]);
    expect(inputsOf(flat, "pipeline").get("y")).toEqual(["x"]);
    expect(inputsOf(flat, "parallel").get("y")).toEqual([]);
  });

  it("hands a step the findings of what it follows: its dependencies, the previous stage, or the previous step", () => {
    expect(Object.fromEntries(inputsOf(plan, "parallel"))).toEqual({ a: [], b: [], c: ["a", "b"], d: ["c"] });
    expect(Object.fromEntries(inputsOf(plan, "sequential"))).toEqual({ a: [], b: ["a"], c: ["a", "b"], d: ["c"] });
    expect(Object.fromEntries(inputsOf(plan, "pipeline"))).toEqual({ a: [], b: [], c: ["a", "b"], d: ["c"] });
  });

  /** Each step answers from the table: "fail" fails; everything else completes with one finding. */
  function table(outcomes: Record<string, "ok" | "fail">, seen: DelegatedTask[], running: { now: number; max: number }): PlanRunDeps & { skipped: string[] } {
    const skipped: string[] = [];
    return {
      skipped,
      delegate: async (scope, task) => {
        seen.push(task);
        running.now++;
        running.max = Math.max(running.max, running.now);
        await new Promise((resolve) => setImmediate(resolve));
        running.now--;
        const step = task.id.split("-").at(-1) as string;
        const ok = outcomes[step] !== "fail";
        const citations = [{ file_path: `${scope}/x.c`, line_start: 1, line_end: 2, sha256: "0".repeat(64), similarity: 1, similarity_kind: "exact" as const, overlay: "O1" as const, content: "x", relevance: "r" }];
        return {
          response: { task_id: task.id, status: ok ? "completed" : "failed", result: ok ? "done" : "no", protocol_version: "2.0", key_findings: [`found by ${step}`], grounding_evidence: { queries_executed: ["q"], overlays_consulted: ["O1"], citations, grounding_confidence: "high" } },
          verdict: { status: "accepted", reasons: [], warnings: [], checks: [], citations_checked: 1, citations_verified: 1, citations: [], criteria: [], needs_followup: [] },
          agent: `${scope}-1`,
          failovers: [],
          workspace: `/ws/${task.id}`,
        } as unknown as DelegationOutcome;
      },
      recordSkipped: async (step) => void skipped.push(`${step.id}: ${step.reason}`),
    };
  }

  it("runs a pipeline stage by stage, each step handed the previous stage's findings and a reference to its OUTPUT.md", async () => {
    const seen: DelegatedTask[] = [];
    const running = { now: 0, max: 0 };
    const chosen = chooseStrategy({ ...plan, strategy: "pipeline" });
    const result = await runPlan(plan, "P-1", chosen, table({}, seen, running));
    expect(result.status).toBe("completed");
    expect(seen.map((t) => t.id)).toEqual(["P-1-a", "P-1-b", "P-1-c", "P-1-d"]);
    expect(running.max).toBe(2);
    const c = seen.find((t) => t.id === "P-1-c");
    expect(c?.context).toContain("Key findings from step a (net, task P-1-a):\n- found by a\nFull output: /ws/P-1-a/OUTPUT.md");
    expect(c?.context).toContain("Key findings from step b");
    expect(c?.execution).toEqual({ ...chosen.execution });
    expect(result.aggregate).toBeNull();
  });

  it("runs a sequential plan one step at a time", async () => {
    const running = { now: 0, max: 0 };
    const result = await runPlan(plan, "P-2", chooseStrategy({ ...plan, strategy: "sequential" }), table({}, [], running));
    expect(result.status).toBe("completed");
    expect(running.max).toBe(1);
  });

  it("blocks what depends on a failed step, with the reason, lets independent branches finish, and records the blocked steps", async () => {
    const deps = table({ c: "fail" }, [], { now: 0, max: 0 });
    const wide = parsePlan({ tasks: [...plan.tasks, { id: "e", scope: "mm", task: "independent" }] }, SCOPES);
    const result = await runPlan(wide, "P-3", chooseStrategy({ ...wide, strategy: "parallel" }), deps);
    expect(result.status).toBe("partial");
    expect(Object.fromEntries(result.steps.map((s) => [s.id, s.status]))).toEqual({ a: "completed", b: "completed", c: "failed", d: "blocked", e: "completed" });
    expect(result.steps.find((s) => s.id === "d")?.reason).toMatch(/^step c \(kernel\) failed: its agent answered failed/);
    expect(deps.skipped).toEqual([expect.stringMatching(/^P-3-d: step c \(kernel\) failed/)]);
  });

  it("fans in: every branch's findings under its step, and all their citations once each", async () => {
    const result = await runPlan(plan, "P-4", chooseStrategy({ ...plan, strategy: "fan-out-fan-in" }), table({}, [], { now: 0, max: 0 }));
    expect(result.aggregate?.summary).toContain("a (net):\n- found by a");
    expect(result.aggregate?.summary).toContain("d (drivers):\n- found by d");
    expect(result.aggregate?.citations.map((c) => c.file_path).sort()).toEqual(["drivers/x.c", "kernel/x.c", "mm/x.c", "net/x.c"]);
  });

  it("cancelled, runs nothing more: the steps not started are cancelled and recorded, the plan is blocked", async () => {
    const controller = new AbortController();
    const deps = table({}, [], { now: 0, max: 0 });
    const first = deps.delegate;
    deps.delegate = async (scope, task, signal) => {
      controller.abort();
      if (signal.aborted) throw new Error("cancelled");
      return first(scope, task, signal);
    };
    const result = await runPlan(plan, "P-5", chooseStrategy({ ...plan, strategy: "sequential" }), { ...deps, signal: controller.signal });
    expect(result.status).toBe("blocked");
    expect(result.steps.map((s) => s.status)).toEqual(["cancelled", "cancelled", "cancelled", "cancelled"]);
    expect(result.steps[0]?.reason).toBe("the plan was cancelled while it ran");
    expect(deps.skipped).toHaveLength(4);
  });
});
