// Python's dispatch by a built name across scopes: `NodeVisitor.visit` builds "visit_" + the node's class
// name in one scope, the code generator's `visit_*` methods are in another. The manager finds the scopes
// defining names with the prefix, the owner picks the method the question names, and the chain crosses with
// the prefix's line as its call site and the method's `def` as its binding, both checked.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkChain } from "../../../agents/manager/validation/index.js";
import { stepLines } from "../../../agents/manager/answer/chain-answer.js";
import { climbCallers } from "../../../agents/manager/search/climb-callers.js";
import { toStep, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import { parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { scopeMapOf, traceFrom, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  visitor: {
    "visitor/visitor.py": [
      "class NodeVisitor:",
      '    """Walks a template\'s node tree, calling visit_<class name> for each node."""',
      "",
      "    def visit(self, node):",
      '        method = "visit_" + type(node).__name__',
      "        visitor = getattr(self, method, None)",
      "        if visitor is None:",
      "            return self.generic_visit(node)",
      "        return visitor(node)",
      "",
      "    def generic_visit(self, node):",
      "        return None",
      "",
    ].join("\n"),
  },
  compiler: {
    "compiler/codegen.py": [
      "from visitor.visitor import NodeVisitor",
      "",
      "class CodeGenerator(NodeVisitor):",
      "    def visit_Template(self, node):",
      '        """Writes the Python code of a whole template: its render function."""',
      "        self.write_render_function(node)",
      "",
      "    def visit_Output(self, node):",
      "        self.write(node)",
      "",
      "    def write_render_function(self, node):",
      "        self.write(node)",
      "",
      "    def write(self, node):",
      "        pass",
      "",
    ].join("\n"),
  },
};

describe("a dispatch by a built name across scopes", () => {
  const scopes = withScopes("mesh-dispatch-across-", SOURCES);

  it("knows the scopes whose names begin with a dispatch's prefix", async () => {
    const map = await scopeMapOf([...scopes().values()].map((p) => p.facts()));
    expect(map.bindersOf("visit_*")).toEqual(["compiler"]);
    expect(map.bindersOf("write_*")).toEqual(["compiler"]);
    expect(map.bindersOf("render_*")).toEqual([]);
    expect(map.fieldCallersOf("visit_*")).toEqual([{ scope: "visitor", count: 1 }]);
  });

  it("crosses into the method the question names, with the prefix's line and the method's def, and the chain checks", async () => {
    const opened = scopes();
    const facts = [...opened.values()].map((p) => p.facts());
    const outcome = await traceFrom(opened, facts, "How does the NodeVisitor visit a Template node to write its Python render function?", "visit");
    expect(outcome.steps.map((s) => s.symbol).slice(0, 3)).toEqual(["NodeVisitor.visit", "CodeGenerator.visit_Template", "CodeGenerator.write_render_function"]);
    const crossing = outcome.steps[1];
    expect(crossing?.call_site).toMatchObject({ file_path: "visitor/visitor.py", line: 5, bound_at: { field: "visit_*", file_path: "compiler/codegen.py", line: 4 } });
    const root = join((opened.get("visitor") as unknown as { data: { root: string } }).data.root);
    const check = await checkChain(outcome.steps, { readFile: async (path) => readFileSync(join(root, path), "utf8") });
    expect(check).toMatchObject({ kept: outcome.steps.length, cut: null });
    // The answer's text quotes both lines: the one building the name, and the method's definition.
    expect(stepLines(crossing as NonNullable<typeof crossing>, 1, outcome.steps[0], outcome.steps[0]).join("\n")).toContain('by the name built from "visit_", defined at compiler/codegen.py:4\n     4 | def visit_Template(self, node):');
    expect(outcome.decisions.find((d) => d.at === "exit")?.detail).toContain('by the name it builds from "visit_" (visitor/visitor.py:5), which compiler defines as CodeGenerator.visit_Template at compiler/codegen.py:4');
  });

  it("does not cross when the question names none of the methods", async () => {
    const opened = scopes();
    const facts = [...opened.values()].map((p) => p.facts());
    const outcome = await traceFrom(opened, facts, "How does the NodeVisitor visit a node?", "visit");
    expect(outcome.steps.some((s) => s.scope === "compiler")).toBe(false);
  });

  it("climbs from a dispatched method back to the method that dispatches to it, with both lines, and the chain checks", async () => {
    const opened = scopes();
    const map = await scopeMapOf([...opened.values()].map((p) => p.facts()));
    const question = parseQuestion("How does the NodeVisitor visit a Template node?");
    const expand = async (at: string, args: ExpandArgs) => ({ result: await (opened.get(at) as Pgc).search().expand(parseExpandArgs(args)), agent: `${at}-1`, failovers: 0 });
    const args: ExpandArgs = { question, mode: "forward", from: { symbol: "CodeGenerator.visit_Template" }, covered: {} };
    const first = await (opened.get("compiler") as Pgc).search().expand(parseExpandArgs(args));
    // The method says which dispatches may reach it: its name's prefixes, bound at its def.
    expect(first.entry_fields).toEqual([expect.objectContaining({ field: "visit_*", file_path: "compiler/codegen.py", line: 4, text: "    def visit_Template(self, node):" })]);
    const entry = toStep(first.steps[0]!, "compiler", "compiler-1", null);
    const outcome: TraceOutcome = { steps: [entry], hops: [{ scope: "compiler", agent: "compiler-1", args, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };
    const climbed = await climbCallers({ expand, managerId: "manager", ownership: map }, question, outcome, 6);
    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["visitor:NodeVisitor.visit", "compiler:CodeGenerator.visit_Template"]);
    expect(climbed.steps[1]?.call_site).toMatchObject({ file_path: "visitor/visitor.py", line: 5, bound_at: { field: "visit_*", file_path: "compiler/codegen.py", line: 4 } });
    const root = (opened.get("visitor") as unknown as { data: { root: string } }).data.root;
    expect(await checkChain(climbed.steps, { readFile: async (path) => readFileSync(join(root, path), "utf8") })).toMatchObject({ kept: 2, cut: null });
  });
});
