import { describe, expect, it } from "vitest";
import {
  TopologyInputError,
  deriveScopeGraph,
  renderJson,
  type CodeReference,
  type ScopeFacts,
} from "../../topology/index.js";
import { KERNEL_FACTS } from "./kernel-fixture.js";

function edgeSummary(facts: ScopeFacts[], options = {}): Record<string, string> {
  const { graph } = deriveScopeGraph(facts, options);
  return Object.fromEntries(
    graph.edges().map((edge) => [
      `${edge.from}>${edge.to}`,
      `${edge.counts.call}/${edge.counts.include}/${edge.counts.import} ${edge.examples.join(",")}`,
    ]),
  );
}

function scope(name: string, paths: string[], symbols: string[], references: CodeReference[] = []): ScopeFacts {
  return { scope: name, paths, symbols, references };
}

function ref(kind: CodeReference["kind"], target: string, from_file = "src/a.ts", line = 1): CodeReference {
  return { kind, target, from_file, line };
}

describe("deriveScopeGraph on the kernel example", () => {
  const derived = deriveScopeGraph(KERNEL_FACTS);

  it("derives exactly the edges the code facts imply (call/include/import counts)", () => {
    expect(edgeSummary(KERNEL_FACTS)).toEqual({
      "drivers>kernel": "2/1/0 dma_alloc_coherent,dma_map_single,include/linux/dma-mapping.h",
      "drivers>mm": "1/1/0 alloc_pages,include/linux/mm.h",
      "drivers>net": "1/0/0 netdev_alloc_skb",
      "kernel>fs": "1/0/0 vfs_read",
      "kernel>mm": "2/1/0 __dma_alloc,kmalloc,mm/internal.h",
      "mm>kernel": "1/0/0 schedule",
      "net>drivers": "2/0/0 e1000_xmit_frame",
      "net>kernel": "1/1/0 include/linux/interrupt.h,mod_timer",
    });
  });

  it("keeps every scope as a node, with the path prefixes it owns as metadata", () => {
    const names = derived.graph.nodes().map((node) => node.name);
    expect(names).toEqual(["arch/arm64", "arch/x86", "drivers", "fs", "kernel", "mm", "net"]);
    expect(derived.graph.node("kernel")?.metadata).toEqual({ paths: ["include/linux/", "kernel/"] });
  });

  it("counts self references apart and keeps every unresolved reference with its reason", () => {
    expect(derived.stats).toEqual({ references: 20, resolved: 15, selfReferences: 1, unresolved: 4 });
    const reasons = derived.unresolved.map((entry) => [entry.scope, entry.reason, entry.reference.target]);
    expect(reasons).toEqual([
      ["net", "undefined_symbol", "trace_net_dev_xmit"],
      ["net", "escapes_root", "../../../../outside.h"],
      ["drivers", "no_owner", "asm/io.h"],
      ["mm", "ambiguous", "set_pte_at"],
    ]);
    const ambiguous = derived.unresolved[3];
    expect(ambiguous?.candidates).toEqual(["arch/arm64", "arch/x86"]);
    expect(ambiguous?.detail).toBe(
      'call "set_pte_at" at mm/memory.c:5000: 2 scopes own "set_pte_at" (arch/arm64, arch/x86); skipped as ambiguous',
    );
    expect(derived.unresolved[2]?.detail).toContain('no scope owns "asm/io.h" or "include/asm/io.h"');
  });

  it("does not depend on the order of scopes or references", () => {
    const shuffled = [...KERNEL_FACTS].reverse().map((facts) => ({ ...facts, references: [...facts.references].reverse() }));
    expect(renderJson(deriveScopeGraph(shuffled).graph)).toBe(renderJson(derived.graph));
  });

  it("counts an ambiguous reference on every candidate when asked to", () => {
    const { graph, unresolved } = deriveScopeGraph(KERNEL_FACTS, { ambiguous: "all" });
    expect(graph.edge("mm", "arch/x86")?.counts.call).toBe(1);
    expect(graph.edge("mm", "arch/arm64")?.counts.call).toBe(1);
    expect(unresolved.map((entry) => entry.reason)).not.toContain("ambiguous");
  });

  it("resolves includes under a configured arch include root", () => {
    const facts = [...KERNEL_FACTS, scope("arch-x86-headers", ["arch/x86/include/"], [])];
    const { graph } = deriveScopeGraph(facts, { includeRoots: ["include/", "arch/x86/include/"] });
    expect(graph.edge("drivers", "arch-x86-headers")?.examples).toEqual(["arch/x86/include/asm/io.h"]);
  });
});

describe("resolution rules", () => {
  it("treats a reference the scope can satisfy itself as local, even if others define it too", () => {
    const facts = [scope("a", ["a/"], ["kmalloc"], [ref("call", "kmalloc")]), scope("b", ["b/"], ["kmalloc"])];
    const { graph, stats } = deriveScopeGraph(facts);
    expect(graph.edgeCount).toBe(0);
    expect(stats.selfReferences).toBe(1);
  });

  it("prefers the longest owning prefix and respects path segment boundaries", () => {
    const facts = [
      scope("drivers", ["drivers/"], []),
      scope("drivers-net", ["drivers/net"], []),
      scope("user", ["user/"], [], [ref("include", "drivers/net/e1000.h"), ref("include", "drivers/network/x.h")]),
    ];
    expect(edgeSummary(facts)).toEqual({
      "user>drivers": "0/1/0 drivers/network/x.h",
      "user>drivers-net": "0/1/0 drivers/net/e1000.h",
    });
  });

  it("tries an include as written, then under each include root", () => {
    const facts = [
      scope("mm", ["mm/"], []),
      scope("headers", ["include/"], []),
      scope("user", ["user/"], [], [
        ref("include", "mm/dma.h"),
        ref("include", "linux/dma.h"),
        ref("include", "include/uapi/types.h"),
        ref("include", "<linux/list.h>"),
        ref("include", '"mm/slab.h"'),
      ]),
    ];
    expect(edgeSummary(facts)).toEqual({
      "user>headers": "0/3/0 include/linux/dma.h,include/linux/list.h,include/uapi/types.h",
      "user>mm": "0/2/0 mm/dma.h,mm/slab.h",
    });
  });

  it("strips a leading include root when nobody owns the path as written", () => {
    const facts = [
      scope("uapi", ["uapi/"], []),
      scope("user", ["user/"], [], [ref("include", "include/uapi/types.h"), ref("include", "include/other/x.h")]),
    ];
    const { graph, unresolved } = deriveScopeGraph(facts);
    expect(graph.edge("user", "uapi")?.examples).toEqual(["uapi/types.h"]);
    expect(unresolved[0]?.detail).toContain('no scope owns "include/other/x.h" or "include/include/other/x.h" or "other/x.h"');
  });

  it("joins relative includes and imports to the referencing file's directory", () => {
    const facts = [
      scope("mm", ["mm/"], []),
      scope("kernel", ["kernel/"], [], [
        ref("include", "../../mm/internal.h", "kernel/dma/mapping.c"),
        ref("include", "./local.h", "kernel/dma/mapping.c"),
        ref("import", "../mm/index.js", "kernel/main.ts"),
      ]),
    ];
    const { graph, stats } = deriveScopeGraph(facts);
    expect(graph.edge("kernel", "mm")?.counts).toEqual({ call: 0, include: 1, import: 1, manual: 0 });
    expect(graph.edge("kernel", "mm")?.examples).toEqual(["mm/index.js", "mm/internal.h"]);
    expect(stats.selfReferences).toBe(1);
  });

  it("reads dotted module imports as paths", () => {
    const facts = [
      scope("storage", ["pkg/storage/"], []),
      scope("api", ["pkg/api/"], [], [ref("import", "pkg.storage.models", "pkg/api/views.py")]),
    ];
    expect(edgeSummary(facts)).toEqual({ "api>storage": "0/0/1 pkg/storage/models" });
  });

  it("uses a catch-all scope only when no specific owner matches", () => {
    const facts = [
      scope("rest", ["./"], []),
      scope("mm", ["mm/", "include/linux/mm.h"], []),
      scope("user", ["user/"], [], [ref("include", "linux/mm.h"), ref("include", "mm/x.h"), ref("include", "odd/y.h")]),
    ];
    expect(edgeSummary(facts)).toEqual({
      "user>mm": "0/2/0 include/linux/mm.h,mm/x.h",
      "user>rest": "0/1/0 odd/y.h",
    });
  });

  it("reports two scopes claiming the same prefix as ambiguous", () => {
    const facts = [scope("a", ["shared/"], []), scope("b", ["shared/"], []), scope("c", ["c/"], [], [ref("include", "shared/x.h")])];
    const { unresolved } = deriveScopeGraph(facts);
    expect(unresolved).toHaveLength(1);
    expect(unresolved[0]).toMatchObject({ reason: "ambiguous", candidates: ["a", "b"] });
  });

  it("leaves external modules unresolved as no_owner", () => {
    const facts = [scope("a", ["a/"], [], [ref("import", "zod"), ref("import", "node:fs")])];
    const { unresolved } = deriveScopeGraph(facts);
    expect(unresolved.map((entry) => entry.reason)).toEqual(["no_owner", "no_owner"]);
  });
});

describe("input validation", () => {
  it("rejects duplicate scopes, bad lines, unknown kinds and empty targets with every issue listed", () => {
    const bad = [
      scope("a", ["a/"], []),
      scope("a", ["b/"], []),
    ];
    expect(() => deriveScopeGraph(bad)).toThrow(/scope "a" is listed twice/);
    const malformed = [
      {
        scope: "a",
        paths: [],
        symbols: [],
        references: [
          { kind: "calls", target: "x", from_file: "a.c", line: 1 },
          { kind: "call", target: " ", from_file: "a.c", line: 0 },
        ],
      },
    ] as unknown as ScopeFacts[];
    try {
      deriveScopeGraph(malformed);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TopologyInputError);
      const issues = (error as TopologyInputError).issues;
      expect(issues.some((issue) => issue.startsWith("[0].references[0].kind:"))).toBe(true);
      expect(issues.some((issue) => issue.startsWith("[0].references[1].target:"))).toBe(true);
      expect(issues.some((issue) => issue.startsWith("[0].references[1].line:"))).toBe(true);
    }
  });

  it("rejects unknown options", () => {
    expect(() => deriveScopeGraph([], { ambiguous: "first" as "all" })).toThrow(TopologyInputError);
  });
});
