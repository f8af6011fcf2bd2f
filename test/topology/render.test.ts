// Golden renderings of the kernel example. After a deliberate format change, review the diff and rerun with
// UPDATE_GOLDEN=1 to rewrite test/topology/golden/.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  GRAPH_JSON_FORMAT,
  RENDER_FORMATS,
  ScopeGraphBuilder,
  TopologyInputError,
  deriveScopeGraph,
  findQueryPath,
  parseGraphJson,
  renderDot,
  renderGraph,
  renderJson,
  renderMermaid,
  renderText,
  type RenderFormat,
} from "../../topology/index.js";
import { KERNEL_FACTS } from "./kernel-fixture.js";

const kernel = deriveScopeGraph(KERNEL_FACTS).graph;
const best = findQueryPath(kernel, "net", "mm");
const highlight = best.ok ? best.path : [];
const EXTENSIONS: Record<RenderFormat, string> = { text: "txt", json: "json", dot: "dot", mermaid: "mmd" };

function golden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

describe("golden renderings of the kernel example", () => {
  for (const format of RENDER_FORMATS) {
    it(`renders ${format}`, () => {
      golden(`kernel.${EXTENSIONS[format]}`, renderGraph(kernel, format));
    });
    it(`renders ${format} with the net -> mm path highlighted`, () => {
      expect(highlight).toEqual(["net", "kernel", "mm"]);
      golden(`kernel-path.${EXTENSIONS[format]}`, renderGraph(kernel, format, { highlight }));
    });
  }

  it("is byte-identical across calls and input orders", () => {
    const reordered = deriveScopeGraph([...KERNEL_FACTS].reverse()).graph;
    for (const format of RENDER_FORMATS) expect(renderGraph(reordered, format)).toBe(renderGraph(kernel, format));
  });
});

describe("JSON round trip", () => {
  it("reads back what renderJson wrote", () => {
    const text = renderJson(kernel);
    const copy = parseGraphJson(text);
    expect(renderJson(copy)).toBe(text);
    expect(copy.edge("net", "drivers")).toEqual(kernel.edge("net", "drivers"));
  });

  it("refuses other documents and unknown versions", () => {
    expect(() => parseGraphJson('{"format":"something-else","version":1,"scopes":[],"edges":[]}')).toThrow(TopologyInputError);
    expect(() => parseGraphJson({ format: GRAPH_JSON_FORMAT, version: 2, scopes: [], edges: [] })).toThrow(/version/);
    expect(() => parseGraphJson("not json")).toThrow(/invalid scope graph JSON/);
    const dangling = { format: GRAPH_JSON_FORMAT, version: 1, scopes: [], edges: [{ from: "a", to: "b", counts: { call: 1, include: 0, import: 0, manual: 0 } }] };
    expect(() => parseGraphJson(dangling)).toThrow(/unknown scope "a"/);
  });
});

describe("awkward scope names", () => {
  const awkward = new ScopeGraphBuilder()
    .addReference({ from: "drivers/net", to: "lib.c-utils", kind: "include" })
    .addReference({ from: "drivers_net", to: "end", kind: "call", count: 2 })
    .addReference({ from: 'say "hi"\\now', to: "end", kind: "manual" })
    .addScope("3d#<gpu>")
    .build();

  it("sanitises Mermaid ids, resolves clashes, keeps keywords out and escapes labels", () => {
    expect(renderMermaid(awkward)).toBe(
      [
        "graph LR",
        '  s_3d__gpu_["3d#35;#lt;gpu#gt;"]',
        '  s_drivers_net["drivers/net"]',
        '  s_drivers_net_2["drivers_net"]',
        '  s_end["end"]',
        '  s_lib_c_utils["lib.c-utils"]',
        '  s_say__hi__now["say #quot;hi#quot;\\now"]',
        '  s_drivers_net -->|"include 1"| s_lib_c_utils',
        '  s_drivers_net_2 -->|"call 2"| s_end',
        '  s_say__hi__now -->|"manual 1"| s_end',
        "",
      ].join("\n"),
    );
  });

  it("quotes and escapes every DOT id", () => {
    const dot = renderDot(awkward);
    expect(dot).toContain('  "say \\"hi\\"\\\\now" -> "end" [label="manual 1"];');
    expect(dot).toContain('  "3d#<gpu>";');
  });

  it("lists isolated scopes in text", () => {
    expect(renderText(awkward).trimEnd().split("\n").at(-1)).toBe("isolated scopes: 3d#<gpu>");
  });

  it("renders an empty graph in every format", () => {
    const empty = new ScopeGraphBuilder().build();
    expect(renderText(empty)).toBe("scope graph: 0 scopes, 0 edges, 0 references\nisolated scopes: none\n");
    expect(renderMermaid(empty)).toBe("graph LR\n");
    expect(renderDot(empty)).toBe("digraph scopes {\n  rankdir=LR;\n  node [shape=box];\n}\n");
    expect(JSON.parse(renderJson(empty))).toEqual({ format: GRAPH_JSON_FORMAT, version: 1, scopes: [], edges: [], isolated: [] });
  });

  it("highlights a path found against edge direction", () => {
    const result = findQueryPath(kernel, "fs", "net", { direction: "both" });
    const text = renderText(kernel, { highlight: result.ok ? result.path : [] });
    const marked = text.split("\n").filter((line) => line.startsWith("*"));
    expect(marked.map((line) => line.split(/\s{2,}/)[0])).toEqual(["* kernel -> fs", "* net -> kernel"]);
  });
});
