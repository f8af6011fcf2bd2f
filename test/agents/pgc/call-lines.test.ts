// A call's line is the line that names its callee (PGC.md, "The call graph"): a member call chained over
// several lines names its method on its last line, and validation checks a chain's edge by that line.
// SQLAlchemy's `Load.for_existing_path(\n … \n).lazyload(rev)` had been recorded at its first line, and
// the chain through it was cut ("does not call lazyload"). Python, TypeScript and C parsed for real.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  orm: {
    "orm/strategies.py": sourceLines(
      "class Load:",
      "    @classmethod",
      "    def for_existing_path(cls, path):",
      "        return cls()",
      "",
      "    def lazyload(self, attr):",
      "        return self",
      "",
      "def emit_lazyload(path, rev):",
      "    Load.for_existing_path(",
      "        path[",
      "            rev",
      "        ]",
      "    ).lazyload(rev)",
    ),
  },
  web: {
    "web/query.ts": sourceLines(
      "export class Builder {",
      "  where(clause: string): Builder {",
      "    return this;",
      "  }",
      "}",
      "export function build(builder: Builder): Builder {",
      "  return builder",
      "    .where('a')",
      "    .where('b');",
      "}",
    ),
  },
  net: {
    "net/dev.c": sourceLines(
      "struct ops { int (*xmit)(int); };",
      "static int loop_xmit(int skb) { return skb; }",
      "static const struct ops loop_ops = { .xmit = loop_xmit };",
      "int dev_xmit(const struct ops *ops, int skb)",
      "{",
      "\treturn ops->",
      "\t\txmit(skb);",
      "}",
    ),
  },
};

describe("a call's line", () => {
  const scopes = withScopes("call-lines-", SOURCES);
  const edges = (scope: string, from: string) => {
    const graph = new CallGraph((scopes().get(scope) as Pgc).data);
    const node = graph.nodes.find((n) => n.qualified === from);
    if (!node) throw new Error(`no ${from}`);
    return graph.callsOf(node.id).map((e) => `${graph.nodes[e.to]?.qualified}:${e.line}`);
  };

  it("is the line naming a chained member call's method, not the chain's first line", () => {
    expect(edges("orm", "emit_lazyload")).toEqual(["Load.for_existing_path:10", "Load.lazyload:14"]);
    expect(edges("web", "build")).toEqual(["Builder.where:8"]);
    expect((scopes().get("web") as Pgc).data.calls.filter((c) => c.callee.endsWith("where")).map((c) => c.line)).toEqual([8, 9]);
  });

  it("is the line naming the field a C call goes through", () => {
    expect(edges("net", "dev_xmit")).toEqual(["loop_xmit:7"]);
  });
});
