// A Python call of a local name last assigned an attribute (`meth = statement._execute_on_connection` …
// `meth(self, …)`) runs that method, cited at the assignment's line, where the code names it. Tried on
// SQLAlchemy's Core: `Connection.execute` runs every statement so, and the chain skipped the statement's own
// `_execute_on_connection`. Python parsed for real, two scopes; the chain through the manager checked.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { answerOver, callsFrom, sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  engine: {
    "engine/base.py": sourceLines(
      "class Connection:",
      "    def execute(self, statement, parameters=None):",
      "        meth = statement._execute_on_connection",
      "        return meth(self, parameters)",
      "",
      "    def _execute_clauseelement(self, element, parameters):",
      "        return self._run_compiled_statement(element.compile(), parameters)",
      "",
      "    def _run_compiled_statement(self, compiled, parameters):",
      "        return compiled",
      "",
      "    def write_all(self, chunks):",
      "        write = self.stream.write",
      "        write = len",
      "        for chunk in chunks:",
      "            write(chunk)",
    ),
  },
  sql: {
    "sql/elements.py": sourceLines(
      "class ClauseElement:",
      "    def _execute_on_connection(self, connection, parameters):",
      "        return connection._execute_clauseelement(self, parameters)",
      "",
      "    def compile(self):",
      "        return self",
    ),
  },
};

describe("a call of a method taken from its object first", () => {
  const scopes = withScopes("bound-method-", SOURCES);
  const graphOf = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);

  it("calls that method, at the line that names it", () => {
    expect(callsFrom(graphOf("engine"), "Connection.execute").exits).toEqual(["_execute_on_connection:3"]);
  });

  it("is no method when the name was last given something else", () => {
    expect(callsFrom(graphOf("engine"), "Connection.write_all")).toEqual({ local: [], exits: [] });
  });

  it("joins a traced chain, its call line checked as every step's is", async () => {
    const answer = await answerOver(scopes(), "How does Connection.execute run a statement through _execute_on_connection and _execute_clauseelement?");
    const steps = answer.chain?.map((s) => `${s.symbol}${s.call_site ? `@${s.call_site.line}` : ""}`) ?? [];
    // (The chain does not go back into engine: a scope is visited once.)
    expect(steps.slice(0, 2)).toEqual(["Connection.execute", "ClauseElement._execute_on_connection@3"]);
    expect(answer.outcome).toBe("chain");
  });
});
