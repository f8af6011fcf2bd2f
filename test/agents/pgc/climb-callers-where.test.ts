// A climb asks a scope for the callers of the step it is at, and says where that step is (`from.file_path`,
// `from.line`). Then a call the scope resolved to another function of the same name is not a caller (tried
// on aiohttp: `ClientSession._ws_connect`'s `self.request(…)` was taken for a call of the module's function
// `request`, and the climb went on up through the websocket client), and a closure nothing calls by name is
// reached from the function whose body defines it (tried on TanStack Router: the `commit` callback
// `runClientTransaction` defines and passes on had "nothing else calls it").
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const CODE = {
  client: {
    "client/session.py": lines(
      "class Session:",
      "    def request(self, url):",
      "        return self._request(url)",
      "",
      "    def _request(self, url):",
      "        return url",
      "",
      "    def ws_connect(self, url):",
      "        return self.request(url)",
      "",
      "def request(url):",
      "    return Session()._request(url)",
      "",
      "def fetch(url):",
      "    return request(url)",
    ),
    "client/load.ts": lines(
      "export function runTransaction(lanes: string[]): void {",
      "  const commit = () => {",
      "    commitMatches(lanes);",
      "  };",
      "  schedule(commit);",
      "}",
      "",
      "export function commitMatches(lanes: string[]): void {",
      "  lanes.length = 0;",
      "}",
      "",
      "function schedule(run: () => void): void {",
      "  run();",
      "}",
    ),
    "client/schema.ts": lines(
      "export class NamedSchemaError extends Error {",
      "  constructor(readonly issues: string[]) {",
      "    super(issues.join());",
      "  }",
      "}",
      "",
      "export function parseWithSchema(value: unknown): unknown {",
      "  if (value === null) throw new NamedSchemaError([]);",
      "  return value;",
      "}",
    ),
  },
};

describe("callers of a step whose place the climb gives", () => {
  const scopes = withScopes("mesh-climb-where-", CODE);
  const callers = async (question: string, from: { symbol: string; file_path?: string; line?: number }) => {
    const result = await (scopes().get("client") as Pgc).search().expand({ question: parseQuestion(question), mode: "callers", from, covered: {} });
    return result.leads.map((lead) => ({ caller: result.steps[lead.path[0] as number]?.qualified, line: lead.exit?.call_site.line, defines: lead.exit?.call_site.defines ?? false }));
  };

  it("leaves out calls the scope resolved to another function of the name", async () => {
    const placed = await callers("How does a request get sent?", { symbol: "request", file_path: "client/session.py", line: 11 });
    expect(placed.map((c) => c.caller)).toEqual(["fetch"]);
    // Without a place, every call by the name is a caller, as before.
    const unplaced = await callers("How does a request get sent?", { symbol: "request" });
    expect(unplaced.map((c) => c.caller).sort()).toEqual(["Session.ws_connect", "fetch"]);
  });

  it("counts a construction as a call of the class's constructor (`new Foo(…)` of `Foo.constructor`)", async () => {
    // A climb asks for a constructor by its class's name, at the constructor's line.
    const placed = await callers("Where is the schema error thrown?", { symbol: "NamedSchemaError", file_path: "client/schema.ts", line: 2 });
    expect(placed.map((c) => c.caller)).toEqual(["parseWithSchema"]);
  });

  it("reaches a closure nothing calls by name from the function defining it, on its definition line", async () => {
    expect(await callers("How are the matches committed?", { symbol: "commit", file_path: "client/load.ts", line: 2 })).toEqual([{ caller: "runTransaction", line: 2, defines: true }]);
    // A "who calls" question lists calls only: defining a function is not calling it.
    expect(await callers("Who calls commit?", { symbol: "commit", file_path: "client/load.ts", line: 2 })).toEqual([]);
  });
});
