// A module-level value that is another function under a new name (`export const cors: (…) => … =
// internal.cors`, the way every public module of @effect/platform is written) calls that function at the
// value's line (PGC.md, call rule 1). Tried as a new user would on @effect/platform, "where does the router's
// CORS support work out Access-Control-Allow-Headers" stopped at HttpMiddleware.ts's `cors`: a value with no
// calls, so nothing led into internal/httpMiddleware.ts, where the headers are worked out. TypeScript parsed
// for real, two scopes.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { callsFrom, sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  api: {
    "api/middleware.ts": sourceLines(
      'import * as internal from "../internal/middleware.js";',
      'import { format as formatLine } from "./format.js";',
      "/** CORS headers on every response. */",
      "export const cors: (",
      "  options?: { readonly allowedHeaders?: ReadonlyArray<string> }",
      ") => (app: App) => App = internal.cors",
      "export const trace = internal.tracing.span;",
      "export const line = formatLine;",
      "export const LIMIT = 10;",
      "const scheduler = new Scheduler();",
      "export const asap = scheduler;",
      'export const size = "abc".length;',
      "export const router = (app: App) => cors()(app);",
      "export function Scheduler() {}",
    ),
    "api/format.ts": sourceLines("export function format(text: string): string {", "  return text.trim();", "}"),
  },
  internal: {
    "internal/middleware.ts": sourceLines(
      "export const cors = (options?: { readonly allowedHeaders?: ReadonlyArray<string> }) => (app: App) => {",
      "  const allowHeaders = (requested: string) => options?.allowedHeaders ?? requested.split(',');",
      "  return withHeaders(app, allowHeaders);",
      "};",
      "export function withHeaders(app: App, headers: unknown): App {",
      "  return app;",
      "}",
    ),
  },
};

describe("a module-level value that names another function", () => {
  const scopes = withScopes("value-alias-", SOURCES);
  const graphOf = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);

  it("calls that function at the value's line, in another scope or in its own", () => {
    const graph = graphOf("api");
    expect(callsFrom(graph, "cors").exits).toEqual(["cors:6"]);
    expect(callsFrom(graph, "trace").exits).toEqual(["span:7"]);
    expect(callsFrom(graph, "line").local).toEqual(["format:8"]);
    // The public name is reached as before, and leads on through the alias.
    expect(callsFrom(graph, "router").local).toEqual(["cors:13"]);
    expect((scopes().get("api") as Pgc).facts().references.filter((r) => r.kind === "call").map((r) => r.target)).toContain("cors");
  });

  it("is no call for a value that is data: a literal, a property of one, or a value of the file", () => {
    const graph = graphOf("api");
    const symbols = (scopes().get("api") as Pgc).data.symbols;
    expect(symbols.filter((s) => s.alias_of !== undefined).map((s) => [s.name, s.alias_of])).toEqual([
      ["cors", "internal.cors"],
      ["trace", "internal.tracing.span"],
      ["line", "formatLine"],
    ]);
    expect(graph.nodes.filter((n) => ["LIMIT", "size", "asap"].includes(n.name))).toEqual([]);
  });
});
