// A caller calling one callee on several lines is cited at the line bearing most on the question (PGC.md,
// "The call graph"): the graph kept one line per callee, the first, so a chain step quoted a call that said
// nothing of the question (axios's `Axios._request` calls `utils.getSafeProp` on five lines, for the
// method and for the headers). The graph keeps the other lines of calls written alike (not a closure's
// definition, not `this.sock.connect` beside `super.connect`); a step into the scope and an exit out of it
// cite the best, the first of equals.
// JavaScript parsed for real.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  core: {
    "core/dispatchRequest.js": sourceLines(
      "import transformData from './transformData.js';",
      "import { settle } from '../helpers/settle.js';",
      "",
      "export default function dispatchRequest(config) {",
      "  config.data = transformData.call(config, config.transformRequest);",
      "  return config.adapter(config).then(function onAdapterResolution(response) {",
      "    response.data = transformData.call(config, config.transformResponse, response);",
      "    return response;",
      "  });",
      "}",
      "",
      "export function retry(config) {",
      "  settle(config.first);",
      "  return settle(config.response);",
      "}",
      "",
      "export function redact(config) {",
      "  const visit = (source) => source;",
      "  return visit(config);",
      "}",
      "",
      "export class Client {",
      "  connect(host) {",
      "    return host;",
      "  }",
      "}",
      "export class UnixClient extends Client {",
      "  connect(host) {",
      "    this.sock.connect(host);",
      "    return super.connect(host);",
      "  }",
      "}",
    ),
    "core/transformData.js": sourceLines(
      "export default function transformData(fns, response) {",
      "  for (const fn of fns) this.data = fn(this.data, response);",
      "  return this.data;",
      "}",
    ),
  },
  helpers: {
    "helpers/settle.js": sourceLines(
      "export function settle(outcome) {",
      "  return outcome.ok ? outcome : undefined;",
      "}",
    ),
  },
};

describe("a callee called on several lines", () => {
  const scopes = withScopes("call-line-choice-", SOURCES);
  const core = () => scopes().get("core") as Pgc;

  it("keeps every line the caller calls it on", () => {
    const graph = new CallGraph(core().data);
    const edgesOf = (qualified: string) => {
      const node = graph.nodes.find((n) => n.qualified === qualified);
      return [...graph.callsOf(node?.id ?? -1).map((e) => [graph.nodes[e.to]?.qualified, e.line, e.also]), ...graph.exitsOf(node?.id ?? -1).map((e) => [e.target, e.line, e.also])];
    };
    // The named function expression inside dispatchRequest is part of it: both calls are dispatchRequest's.
    expect(edgesOf("dispatchRequest")).toContainEqual(["transformData", 5, [7]]);
    expect(edgesOf("retry")).toEqual([["settle", 13, [14]]]);
    // A closure's definition is no call line: the edge cites the call.
    expect(edgesOf("redact")).toEqual([["visit", 19, undefined]]);
    // Calls written otherwise are not the same call, even where the graph takes both for Client.connect.
    expect(edgesOf("UnixClient.connect").filter(([callee]) => callee === "Client.connect").map(([, , also]) => also)).toEqual([undefined]);
  });

  it("cites a step's call at the line the question bears on", async () => {
    const stepLine = async (text: string) => {
      const result = await core().search().expand({ question: parseQuestion(text), mode: "forward", from: { symbol: "dispatchRequest" }, covered: {} });
      const lead = result.leads.find((l) => l.path.length === 2 && result.steps[l.path[1] ?? -1]?.symbol === "transformData");
      return lead?.call_sites[0]?.line;
    };
    expect(await stepLine("How does dispatchRequest run the response data through transformData and transformResponse?")).toBe(7);
    expect(await stepLine("How does dispatchRequest run the request data through transformData and transformRequest?")).toBe(5);
  });

  it("cites the line the question bears on, and the first when it bears on none more", async () => {
    const exitLine = async (text: string) => {
      const result = await core().search().expand({ question: parseQuestion(text), mode: "forward", from: { symbol: "retry" }, covered: {}, max_depth: 0 });
      return result.leads.find((l) => l.exit?.target === "settle")?.exit?.call_site.text;
    };
    expect(await exitLine("How does retry settle the response?")).toBe("  return settle(config.response);");
    expect(await exitLine("How does retry settle the first one?")).toBe("  settle(config.first);");
    expect(await exitLine("How does retry settle?")).toBe("  settle(config.first);");
  });
});
