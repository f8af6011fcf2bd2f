// A Python class head keeps the comments written before the class body (PyYAML's `class Parser:` followed by
// "# Since writing a recursive-descendant parser is a straightforward task, we …"): they are no bases. Tried
// as a new user would on PyYAML, `yaml.load`'s `loader.get_single_data()` was an exit to a class `task`, and
// `FullConstructor(SafeConstructor)` had lost its base to its comment, so the inherited method was not found.
// And a call through `self` calls no module-level function: `Serializer.open`'s `self.emit(…)` was linked to
// the package's `yaml.emit(events, …)`, not to the `Emitter.emit` a dumper mixes in.
import { describe, expect, it } from "vitest";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const YAMLISH = {
  yamlish: {
    "yamlish/parser.py": lines(
      "class Parser:",
      "    # Since writing a recursive-descendant parser is a straightforward task, we",
      "    # do not give many comments here.",
      "",
      "    def dispose(self):",
      "        self.states = []",
    ),
    "yamlish/constructor.py": lines(
      "class BaseConstructor:",
      "    def get_single_data(self):",
      "        return self.construct_document(None)",
      "",
      "    def construct_document(self, node):",
      "        return node",
      "",
      "class FullConstructor(BaseConstructor):",
      "    # 'extend' is blacklisted because it is used by",
      "    # construct_python_object_apply (to add `listitems`)",
      "    def find_python_name(self, name):",
      "        return name",
      "",
      "class Constructor(FullConstructor):",
      "    pass",
    ),
    "yamlish/__init__.py": lines("def emit(events, stream=None):", "    for event in events:", "        stream.write(event)"),
    "yamlish/emitter.py": lines("class Emitter:", "    def emit(self, event):", "        self.events.append(event)"),
    "yamlish/serializer.py": lines("class Serializer:", "    def open(self):", '        self.emit("stream-start")'),
    "yamlish/loader.py": lines(
      "from .parser import Parser",
      "from .constructor import Constructor",
      "",
      "class Loader(Parser, Constructor):",
      "    pass",
      "",
      "def load(stream):",
      "    loader = Loader(stream)",
      "    try:",
      "        return loader.get_single_data()",
      "    finally:",
      "        loader.dispose()",
    ),
  },
};

describe("comments in a Python class head", () => {
  const scopes = withScopes("mesh-class-head-", YAMLISH);

  it("name no base and hide none: an inherited method through two bases with comments is found", () => {
    const graph = new CallGraph((scopes().get("yamlish") as Pgc).data);
    expect([...graph.superclassesOf("Loader")].sort()).toEqual(["BaseConstructor", "Constructor", "FullConstructor", "Parser"]);
    const [load] = graph.named("load");
    expect(graph.callsOf(load!.id).map((e) => graph.nodes[e.to]?.qualified).sort()).toEqual(["BaseConstructor.get_single_data", "Loader", "Parser.dispose"]);
    expect(graph.exitsOf(load!.id)).toEqual([]);
  });

  it("a call through self is a method's, not a module-level function's", () => {
    const graph = new CallGraph((scopes().get("yamlish") as Pgc).data);
    const open = graph.named("open").find((n) => n.container === "Serializer");
    expect(graph.callsOf(open!.id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["Emitter.emit"]);
  });
});
