// A name a file imports from another scope is that scope's function, even when a class of the caller's scope
// has a method of the same name: found on @tiptap/core, whose `Editor.isActive` method returns the helper
// `isActive(this.state, …)` it imports from src/helpers/ — the call was taken for a name the scope defines,
// and the chain ended at the method. A plain name reaches no method in TS/JS or Python (PGC.md, "The call graph").
// A function of the scope's own, imported through a barrel module of another scope (mobx's `"../internal"`),
// stays the scope's.
import { describe, expect, it } from "vitest";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { callsFrom, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const SCRIPT = {
  core: {
    "core/editor.ts": lines(
      'import { isActive } from "../helpers/is-active.js";',
      "",
      "export class Editor {",
      "  state = {};",
      "  isActive(name: string): boolean {",
      "    return isActive(this.state, name);",
      "  }",
      "}",
    ),
  },
  mobx: {
    "mobx/core/batch.ts": lines("export function endBatch(): void {", "  return;", "}"),
    "mobx/core/action.ts": lines('import { endBatch } from "../internal.js";', "", "export function endAction(): void {", "  endBatch();", "}"),
    "mobx/internal.ts": lines('export * from "./core/batch.js";', 'export * from "./core/action.js";'),
  },
  helpers: {
    "helpers/is-active.ts": lines("export function isActive(state: object, name: string): boolean {", "  return name in state;", "}"),
  },
};

const PYTHON = {
  app: {
    "app/__init__.py": "",
    "app/page.py": lines("from lib.helpers import render", "", "class Page:", "    def render(self):", "        return render(self.text)"),
    "app/local.py": lines("from lib.helpers import escape", "", "def escape(text):", "    return text", "", "def show(text):", "    return escape(text)"),
  },
  lib: {
    "lib/__init__.py": "",
    "lib/helpers.py": lines("def render(text):", "    return text", "", "def escape(text):", "    return text"),
  },
};

async function exitTargets(scope: Pgc, symbol: string, question: string): Promise<string[]> {
  const result = await scope.search().expand({ question: parseQuestion(question), mode: "forward", from: { symbol }, covered: {} });
  return result.leads.flatMap((lead) => (lead.exit ? [lead.exit.target] : []));
}

describe("an imported name is the other scope's function, not a same-named method of the caller's scope", () => {
  const script = withScopes("mesh-imported-ts-", SCRIPT, { mobx: ["mobx/core/"], barrel: ["mobx/internal.ts"] });
  const python = withScopes("mesh-imported-py-", PYTHON);

  it("TS: a method returning the helper of its own name leaves the scope for the helper", async () => {
    const core = script().get("core") as Pgc;
    expect(await exitTargets(core, "Editor.isActive", "How does the editor decide whether a node is active?")).toEqual(["isActive"]);
    expect(core.facts().references.filter((r) => r.kind === "call").map((r) => [r.target, r.line])).toEqual([["isActive", 6]]);
  });

  it("TS: a function the scope defines outside classes, imported through another scope's barrel, stays the scope's", async () => {
    const mobx = script().get("mobx") as Pgc;
    expect(callsFrom(new CallGraph(mobx.data), "endAction")).toEqual({ local: ["endBatch:4"], exits: [] });
  });

  it("Python: the same, and a module-level definition of the name in the same file is what the file calls", async () => {
    const app = python().get("app") as Pgc;
    expect(await exitTargets(app, "Page.render", "How does a page render?")).toEqual(["render"]);
    expect(app.facts().references.filter((r) => r.kind === "call").map((r) => r.target)).toEqual(["render"]);
  });
});
