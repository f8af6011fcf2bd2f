// A Python function defined in another function's body is no attribute of any module or object (PGC.md,
// call rule 4): a member call `plugins.load(…)` never calls a closure `load`, in the scope or in another, and
// a scope holding only such a `load` does not define it for the manager. Found on SQLAlchemy, where
// `plugins.load(plugin_name)` in `URL._instantiate_plugins` was followed into a closure `load` of the
// mutable extension instead of the plugin loader. Over code written here in that shape, five scopes; a
// member call whose callee two scopes define (the ORM's event hook `load` besides the loader's) is looked into
// in each, and the one whose class the object is named after (`plugins`, `PluginLoader`) is followed.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { sourceLines, traceFrom, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  engine: {
    "engine/url.py": sourceLines(
      "from dialects import plugins",
      "",
      "class URL:",
      "    def instantiate_plugins(self, names):",
      '        """Load each dialect plugin the URL names."""',
      "        for name in names:",
      "            plugins.load(name)(self)",
      "",
      "    def listen(self, target):",
      "        def load(state):",
      "            return state",
      "        target.on_load(load)",
      "        return target.load(self)",
    ),
  },
  util: {
    "util/loader.py": sourceLines(
      "class PluginLoader:",
      "    def load(self, name):",
      "        return self.impls[name]()",
    ),
  },
  orm: {
    "orm/events.py": sourceLines(
      "class InstanceEvents:",
      "    def load(self, target, context):",
      '        """Receive each object the ORM loaded from a row."""',
      "        return target",
    ),
  },
  dialects: {
    "dialects/__init__.py": sourceLines("from util.loader import PluginLoader", "", "plugins = PluginLoader()"),
  },
  ext: {
    "ext/mutable.py": sourceLines(
      "class Mutable:",
      "    @classmethod",
      "    def associate_with_attribute(cls, attribute):",
      "        def load(state, *args):",
      '            """Listen for objects loaded and mark their dialect plugin values."""',
      "            return cls.coerce(state)",
      "        attribute.listen(load)",
    ),
  },
};

describe("a Python closure", () => {
  const scopes = withScopes("nested-python-", SOURCES);
  const facts = () => [...scopes().values()].map((p) => p.facts());

  it("is no name the scope defines for others", () => {
    expect(facts().find((f) => f.scope === "ext")?.symbols).not.toContain("load");
    expect(facts().find((f) => f.scope === "ext")?.symbols).toContain("associate_with_attribute");
    expect(facts().find((f) => f.scope === "util")?.symbols).toContain("load");
  });

  it("is not what a member call of its name calls in its own scope, though its enclosing function still reaches it", () => {
    const graph = new CallGraph((scopes().get("engine") as Pgc).data);
    const listen = graph.nodes.find((n) => n.qualified === "URL.listen");
    expect(listen).toBeDefined();
    const calls = graph.callsOf(listen?.id ?? -1).map((e) => ({ to: graph.nodes[e.to]?.name, line: e.line, defines: e.defines ?? false }));
    // `target.load(self)` (line 13) is no call of the closure; the closure is defined at line 10.
    expect(calls).toEqual([{ to: "load", line: 10, defines: true }]);
    expect(graph.exitsOf(listen?.id ?? -1).map((e) => `${e.target}:${e.line}:${e.via}`)).toContain("load:13:member");
  });

  it("does not take a chain leaving the scope by a member call of its name", async () => {
    const outcome = await traceFrom(scopes(), facts(), "How does the URL instantiate each dialect it names?", "instantiate_plugins");
    const steps = outcome.steps.map((s) => `${s.scope}:${s.symbol}`);
    expect(steps).toEqual(["engine:URL.instantiate_plugins", "util:PluginLoader.load"]);
    expect(outcome.decisions.find((d) => d.at === "exit")?.detail).toMatch(/also looked at: load in orm/);
  });
});
