// `f.call(thisArg, …)` and `f.apply(thisArg, args)` call `f` (PGC.md, call rule 1): tried as a new user
// would on axios, "how does axios run response data through transformResponse" stopped at
// `transformData` ("nothing else calls it") because `dispatchRequest` calls it as
// `transformData.call(config, config.transformResponse, response)`, which had been read as a call of a
// method `call`. Only a plain name the caller does not bind is read so: through a parameter or variable
// (`middleware.apply(store)`, `fn.call(…)`) or a member, `call` and `apply` are the object's own methods.
// JavaScript and TypeScript parsed for real, two scopes.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { callsFrom, sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  core: {
    "core/dispatch.js": sourceLines(
      "import transformData from './transform.js';",
      "import { settle } from '../helpers/settle.js';",
      "",
      "export default function dispatchRequest(config) {",
      "  config.data = transformData.call(config, config.transformRequest);",
      "  return config.adapter(config).then((response) => settle.call(null, response));",
      "}",
      "",
      "export function transformResponse(config, response) {",
      "  return transformData.apply(config, [config.transformResponse, response]);",
      "}",
      "",
      "export function runEach(fns, data) {",
      "  return fns.map((fn) => fn.call(this, data));",
      "}",
    ),
    "core/transform.js": sourceLines(
      "export default function transformData(fns, response) {",
      "  return fns.reduce((data, fn) => fn(data, response), this.data);",
      "}",
    ),
    "core/store.ts": sourceLines(
      "export class Middleware {",
      "  apply(store: unknown): unknown {",
      "    return store;",
      "  }",
      "}",
      "export function applyMiddleware(middleware: Middleware, store: unknown): unknown {",
      "  return middleware.apply(store);",
      "}",
      "export function apply(store: unknown): unknown {",
      "  return store;",
      "}",
    ),
  },
  helpers: {
    "helpers/settle.js": sourceLines(
      "export function settle(response) {",
      "  return response.status < 400 ? response : null;",
      "}",
    ),
  },
};

describe("a call through .call or .apply", () => {
  const scopes = withScopes("call-apply-", SOURCES);
  const graphOf = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);

  it("calls the function before .call or .apply, in the scope or in another", () => {
    const { local, exits } = callsFrom(graphOf("core"), "dispatchRequest");
    expect(local).toEqual(["transformData:5"]);
    expect(exits).toEqual(["adapter:6", "settle:6"]);
    expect(callsFrom(graphOf("core"), "transformResponse").local).toEqual(["transformData:10"]);
    expect((scopes().get("core") as Pgc).facts().references.map((r) => r.target)).toContain("settle");
  });

  it("is an object's own method when the object is a value the caller holds, and a function value's call is nothing", () => {
    const graph = graphOf("core");
    // `middleware.apply(store)` is the parameter's method `apply`, not a call of `middleware` (nor of the function `apply`).
    expect(callsFrom(graph, "applyMiddleware").local).toEqual(["Middleware.apply:7"]);
    const runEach = callsFrom(graph, "runEach");
    expect(runEach.local).toEqual([]);
    expect(runEach.exits).toEqual([]);
  });
});
