// Python: calling an object the code built from one class runs that class's `__call__`. Parsed for real: the
// call is linked to `__call__`, cited by the call line (naming the object) and the line building the object
// (naming the class); a name given no class, or a parameter, is left alone. Found on Rich: `RichHandler.render`
// calls `self._log_render(…)`, built as `LogRender(…)`, and the chain stopped there.
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { renames } from "../../../agents/manager/validation/index.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";

const RENDER = sourceLines(
  "class LogRender:",
  '    """Renders a log line as a table row."""',
  "",
  "    def __call__(self, console, text):",
  "        return add_row(text)",
  "",
  "def add_row(text):",
  "    return [text]",
  "",
  "class Handler:",
  "    def __init__(self):",
  "        self._log_render = LogRender()",
  "",
  "    def render(self, record):",
  '        """Render a log record as a row."""',
  "        return self._log_render(None, record)",
  "",
  "class _Quoter:",
  "    def __call__(self, value):",
  '        return value.replace(" ", "%20")',
  "",
  "_QUOTER = _Quoter()",
  "",
  "def quote(value):",
  "    return _QUOTER(value)",
  "",
  "def local_quote(value):",
  "    quoter = _Quoter()",
  "    return quoter(value)",
  "",
  "def param_quote(value, quoter):",
  "    return quoter(value)",
  "",
  "def chosen_quote(value, flag):",
  "    quoter = _Quoter() if flag else str",
  "    quoter = LogRender()",
  "    return quoter(value)",
);

describe("calling a Python object", () => {
  it("is a call of its class's __call__, with the line that built the object", async () => {
    const parsed = await parseFile({ path: "pkg/render.py", content: RENDER, language: "python" });
    const calls = parsed.calls.filter((c) => c.renamed?.name.endsWith(".__call__")).map((c) => `${c.caller}:${c.callee}@${c.line} ${c.receiver_class} built@${c.renamed?.line}`);
    expect(calls).toEqual(["render:self._log_render@16 LogRender built@12", "quote:_QUOTER@25 _Quoter built@22", "local_quote:quoter@29 _Quoter built@28"]);
  });

  describe("in a scope's call graph", () => {
    const scopes = withScopes("mesh-instance-calls-", { pkg: { "pkg/render.py": RENDER } });
    const graph = () => new CallGraph((scopes().get("pkg") as Pgc).data);

    it("links the call to __call__ and leaves a parameter or a name given two classes alone", () => {
      const g = graph();
      const edges = g.nodes.flatMap((n) => g.callsOf(n.id).map((e) => `${n.qualified ?? n.name}->${g.nodes[e.to]?.qualified ?? g.nodes[e.to]?.name}${e.alias ? ` via ${e.alias.name}@${e.alias.line}` : ""}`));
      expect(edges).toEqual(expect.arrayContaining(["Handler.render->LogRender.__call__ via self._log_render@12", "quote->_Quoter.__call__ via _QUOTER@22", "local_quote->_Quoter.__call__ via quoter@28"]));
      expect(edges.filter((e) => e.startsWith("param_quote->") || e.startsWith("chosen_quote->") && e.includes("__call__"))).toEqual([]);
    });

    it("follows it forward, citing both lines", async () => {
      const result = await (scopes().get("pkg") as Pgc).search().expand({ question: parseQuestion("How is a log record rendered as a table row?"), mode: "forward", from: { symbol: "Handler.render" }, covered: {} });
      const step = result.steps.find((s) => s.qualified === "LogRender.__call__");
      expect(step).toBeDefined();
      const lead = result.leads.find((l) => l.path.some((i) => result.steps[i] === step));
      expect(lead).toBeDefined();
    });
  });

  it("is checked by the line building the object: the object's name assigned a call of the callee's class", () => {
    expect(renames("        self._log_render = LogRender()", "LogRender.__call__", "self._log_render")).toBe(true);
    expect(renames("_QUOTER = _Quoter(safe='@:')", "_Quoter.__call__", "_QUOTER")).toBe(true);
    expect(renames("_QUOTER = other(_Quoter())", "_Quoter.__call__", "_QUOTER")).toBe(false);
    expect(renames("_QUOTER = _Quoter()", "LogRender.__call__", "_QUOTER")).toBe(false);
  });
});
