// A named function expression outside any function that no other rule binds — an operand (`export default
// isSupported && function httpAdapter(config) { … }`) — is a function of that name (PGC.md, call rule 1):
// tried as a new user would on axios, its 900-line Node http adapter was no function at all, so its calls
// had no caller ("lib-adapters's code calls buildFullPath, but no function of it could be cited as the
// caller") and no question could start there. Inside a function, a named function expression stays part of
// it as an anonymous one does (`wrapAsync(async function dispatchHttpRequest(…) { … })`), and one bound by
// a declarator keeps the declarator's name. JavaScript parsed for real, two scopes.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { parseExpandArgs } from "../../../agents/protocol/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  adapters: {
    "adapters/http.js": sourceLines(
      "import buildFullPath from '../core/buildFullPath.js';",
      "",
      "const isHttpAdapterSupported = typeof process !== 'undefined';",
      "",
      "function wrapAsync(executor) {",
      "  return new Promise((resolve, reject) => executor(resolve, reject));",
      "}",
      "",
      "export default isHttpAdapterSupported && function httpAdapter(config) {",
      "  return wrapAsync(async function dispatchHttpRequest(resolve, reject) {",
      "    const fullPath = buildFullPath(config.baseURL, config.url);",
      "    [config].forEach((c) => resolve(buildFullPath(c.baseURL, fullPath)));",
      "  });",
      "};",
      "",
      "export const named = function namedByItsDeclarator(config) {",
      "  return buildFullPath(config.baseURL, config.url);",
      "};",
    ),
  },
  core: {
    "core/buildFullPath.js": sourceLines(
      "export default function buildFullPath(baseURL, requestedURL) {",
      "  return baseURL ? baseURL + requestedURL : requestedURL;",
      "}",
    ),
  },
};

describe("a named function expression", () => {
  const scopes = withScopes("named-function-", SOURCES);
  const graph = () => new CallGraph((scopes().get("adapters") as Pgc).data);

  it("is a function of its name, the caller of the calls in its body, and of the named function inside it", () => {
    const g = graph();
    expect(g.nodes.map((n) => `${n.qualified}:${n.line_start}-${n.line_end}`)).toEqual(["wrapAsync:5-7", "httpAdapter:9-14", "named:16-18"]);
    const byName = (name: string) => g.nodes.find((n) => n.qualified === name)?.id ?? -1;
    expect(g.callsOf(byName("httpAdapter")).map((e) => `${g.nodes[e.to]?.qualified}:${e.line}`)).toEqual(["wrapAsync:10"]);
    expect(g.exitsOf(byName("httpAdapter")).map((e) => `${e.target}:${e.line}`)).toEqual(["buildFullPath:11"]);
    expect(g.exitsOf(byName("named")).map((e) => `${e.target}:${e.line}`)).toEqual(["buildFullPath:17"]);
  });

  it("is a caller another scope's function can be asked about", async () => {
    const search = (scopes().get("adapters") as Pgc).search();
    const callers = await search.expand(parseExpandArgs({ question: parseQuestion("Who calls buildFullPath?"), mode: "callers", from: { symbol: "buildFullPath" }, covered: {}, max_depth: 0 }));
    expect(callers.leads.map((l) => `${callers.steps[l.path[0] ?? -1]?.qualified}:${l.exit?.call_site.line}`).sort()).toEqual(["httpAdapter:11", "named:17"]);
  });
});
