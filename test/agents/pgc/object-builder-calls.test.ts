// TS/JS functions held by an object literal (PGC.md, "The call graph"): the functions of an object a
// function builds and returns (RTK Query's `coreModule = () => ({ init(…) { … } })`, called as `m.init(…)`
// by `buildCreateApi`) are methods of that builder, each the caller of the calls in its body and reached
// from the builder at its first line; so are a module-level object's `key: () => …` functions, and those of
// an object a function keeps in a variable (its methods). An object passed as an argument is no builder's:
// its functions' calls stay the enclosing function's. Over code written here in RTK Query's shape, two scopes.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { sourceLines, traceFrom, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  api: {
    "api/createApi.ts": sourceLines(
      "export interface Module { name: string; init(api: object): { injectEndpoint(name: string): void } }",
      "/** Builds the createApi function from the modules that make up an API. */",
      "export function buildCreateApi(...modules: Module[]) {",
      "  return function createApi(options: object) {",
      "    const api = { options };",
      "    const initialized = modules.map((m) => m.init(api));",
      "    return { api, initialized };",
      "  };",
      "}",
    ),
  },
  core: {
    "core/module.ts": sourceLines(
      'import { buildSlice } from "./slice.js";',
      "/** The module with the Redux logic: the reducer and the slice that hold cached query results. */",
      "export const coreModule = () => ({",
      '  name: "core",',
      "  init(api: object) {",
      "    const slice = buildSlice(api);",
      "    return {",
      "      injectEndpoint: (name: string) => registerEndpoint(slice, name),",
      "    };",
      "  },",
      "});",
      "function registerEndpoint(slice: object, name: string) {",
      "  return [slice, name];",
      "}",
      "export function watch(store: { subscribe(o: object): void }) {",
      "  store.subscribe({",
      "    next: (value: object) => registerEndpoint(value, 'next'),",
      "  });",
      "  const handlers = {",
      "    done() {",
      "      return buildSlice(store);",
      "    },",
      "  };",
      "  return handlers;",
      "}",
      "export const timers = {",
      "  start: (ms: number) => registerEndpoint({ ms }, 'start'),",
      "};",
    ),
    "core/slice.ts": sourceLines(
      "/** Builds the slice whose reducer holds the cached query results. */",
      "export function buildSlice(api: object) {",
      "  const reducer = (state: object) => ({ ...state, api });",
      "  return { reducer };",
      "}",
    ),
  },
};

describe("functions an object literal holds", () => {
  const scopes = withScopes("object-builder-", SOURCES);
  let graph: CallGraph | null = null;
  const core = (): CallGraph => (graph ??= new CallGraph((scopes().get("core") as Pgc).data));
  const node = (qualified: string) => core().nodes.find((n) => `${n.container ? `${n.container}.` : ""}${n.name}` === qualified);
  const calls = (qualified: string) => {
    const from = node(qualified);
    return from ? core().callsOf(from.id).map((e) => ({ to: core().nodes[e.to]?.name, line: e.line })) : [];
  };

  it("are methods of the function that returns the object, reached from it at their first line", () => {
    expect(node("coreModule.init")).toMatchObject({ kind: "method", file_path: "core/module.ts", line_start: 5, line_end: 10 });
    expect(calls("coreModule")).toEqual([{ to: "init", line: 5 }]);
    // The calls in its body are its own, and an object it returns in turn is its.
    expect(calls("coreModule.init")).toEqual(expect.arrayContaining([{ to: "buildSlice", line: 6 }, { to: "injectEndpoint", line: 8 }]));
    expect(calls("init.injectEndpoint")).toEqual([{ to: "registerEndpoint", line: 8 }]);
  });

  it("of a module-level object are its methods, written either way", () => {
    expect(node("timers.start")).toMatchObject({ kind: "method", line_start: 27 });
    expect(calls("timers.start")).toEqual([{ to: "registerEndpoint", line: 27 }]);
  });

  it("of an object passed as an argument are no methods: their calls are the enclosing function's", () => {
    expect(node("watch.next")).toBeUndefined();
    const callers = (name: string) => core().callersOf(name).map((c) => `${c.node.container ? `${c.node.container}.` : ""}${c.node.name}:${c.line}`);
    expect(callers("registerEndpoint")).toContain("watch:17");
    // Kept in a variable of the function, they are that object's methods, which the function defines.
    expect(node("handlers.done")).toMatchObject({ kind: "method", line_start: 20 });
    expect(calls("watch")).toEqual([{ to: "registerEndpoint", line: 17 }, { to: "done", line: 20 }]);
    expect(callers("buildSlice")).toEqual(expect.arrayContaining(["handlers.done:21", "coreModule.init:6"]));
  });

  it("carry a traced chain from a call through the builder's object into the other scope", async () => {
    const facts = [...scopes().values()].map((p) => p.facts());
    const outcome = await traceFrom(scopes(), facts, "When I call createApi, how does the core module init build the slice with the reducer for cached query results?", "buildCreateApi");
    const steps = outcome.steps.map((s) => `${s.scope}:${s.symbol}`);
    expect(steps.slice(0, 3)).toEqual(["api:buildCreateApi", "core:coreModule.init", "core:buildSlice"]);
    expect(outcome.steps[1]?.call_site).toMatchObject({ file_path: "api/createApi.ts", line: 6 });
  });
});
