// A method called on a value the language builds — a literal, or a built-in type's result — is the
// language's own (PGC.md call rule 4): docutils' `str(self.data).translate(self.xml_entities)` is
// `str.translate`, not the code base's `Writer.translate`, and a chain for "how does LaTeX math become
// MathML" had gone from MathML's `_xml_body` into the writer. The same call through an object of unknown
// class still resolves as before. And a plain call reaches no method in Python and TS/JS (SQLAlchemy's
// `dict(bind_arguments)` had been linked to `InstanceState.dict`). Python and TypeScript parsed for real,
// one scope each.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  docutils: {
    "docutils/writer.py": sourceLines(
      "class Writer:",
      "    def translate(self, table):",
      "        return table",
      "",
      "    def title(self):",
      "        return 'writer'",
      "",
      "class MathToken:",
      "    def _xml_body(self, level=0):",
      "        return [str(self.data).translate(self.xml_entities)]",
      "",
      "    def _label(self):",
      "        return 'token: {}'.title() + f'{self.data}'.translate({})",
      "",
      "def render(writer, table):",
      "    return writer.translate(table)",
      "",
      "class InstanceState:",
      "    def dict(self):",
      "        return self.obj.__dict__",
      "",
      "def copy_arguments(arguments):",
      "    return dict(arguments)",
    ),
  },
  web: {
    "web/keys.ts": sourceLines(
      "export class Router {",
      "  map(path: string): string {",
      "    return path;",
      "  }",
      "}",
      "export function routes(table: Record<string, string>): string[] {",
      "  return Object.keys(table).map((k) => k);",
      "}",
      "export function route(router: Router, path: string): string {",
      "  return router.map(path);",
      "}",
      "export function mapAll(paths: string[]): string[] {",
      "  return paths.map((p) => map(p));",
      "}",
      "declare function map(path: string): string;",
    ),
  },
};

describe("a method called on a value the language builds", () => {
  const scopes = withScopes("builtin-value-", SOURCES);
  const graphOf = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);
  const callsOf = (scope: string, qualified: string) => {
    const graph = graphOf(scope);
    const node = graph.nodes.find((n) => n.qualified === qualified);
    if (!node) throw new Error(`no ${qualified}`);
    return { local: graph.callsOf(node.id).map((e) => graph.nodes[e.to]?.qualified), exits: graph.exitsOf(node.id).map((e) => e.target) };
  };

  it("is no call of the code base's method of that name, nor an exit", () => {
    expect(callsOf("docutils", "MathToken._xml_body")).toEqual({ local: [], exits: [] });
    expect(callsOf("docutils", "MathToken._label")).toEqual({ local: [], exits: [] });
    // `Object.keys` itself stays a member exit naming its class, which no scope defines (rule 4).
    expect(callsOf("web", "routes")).toEqual({ local: [], exits: ["keys"] });
  });

  it("a plain call of a name only a method has (Python's `dict(…)`) calls no method: only an object reaches one", () => {
    expect(callsOf("docutils", "copy_arguments").local).toEqual([]);
    expect(callsOf("web", "mapAll").local).toEqual([]);
  });

  it("leaves the same call through an object of the code base as it was", () => {
    expect(callsOf("docutils", "render").local).toEqual(["Writer.translate"]);
    expect(callsOf("web", "route").local).toEqual(["Router.map"]);
  });
});
