import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  OverrideFileError,
  applyOverrides,
  deriveScopeGraph,
  findQueryPath,
  parseOverrides,
  parseOverridesValue,
  readOverridesFile,
} from "../../topology/index.js";
import { KERNEL_FACTS } from "./kernel-fixture.js";

const kernel = deriveScopeGraph(KERNEL_FACTS).graph;

function errorOf(action: () => unknown): OverrideFileError {
  try {
    action();
  } catch (error) {
    if (error instanceof OverrideFileError) return error;
    throw error;
  }
  throw new Error("expected an OverrideFileError");
}

describe("parseOverrides", () => {
  it("fills defaults: kind manual, count 1, empty sections", () => {
    const overrides = parseOverrides('{ "add": [{ "from": "fs", "to": "mm" }] }', "topology.json");
    expect(overrides).toEqual({
      source: "topology.json",
      add: [{ from: "fs", to: "mm", kind: "manual", count: 1 }],
      remove: [],
    });
    expect(parseOverrides("{}")).toEqual({ source: "<inline>", add: [], remove: [] });
  });

  it("keeps kind, count and reason when given", () => {
    const overrides = parseOverridesValue({
      $schema: "./overrides.schema.json",
      add: [{ from: "fs", to: "mm", kind: "call", count: 4, reason: "page cache via function pointers" }],
      remove: [{ from: "mm", to: "kernel", reason: "only a scheduler hint" }],
    });
    expect(overrides.add[0]).toEqual({ from: "fs", to: "mm", kind: "call", count: 4, reason: "page cache via function pointers" });
    expect(overrides.remove[0]).toEqual({ from: "mm", to: "kernel", reason: "only a scheduler hint" });
  });

  it("reports malformed JSON with the source name", () => {
    const error = errorOf(() => parseOverrides('{ "add": [', "ops/topology.json"));
    expect(error).toMatchObject({ name: "OverrideFileError", code: "TOPOLOGY_OVERRIDE_INVALID", source: "ops/topology.json" });
    expect(error.message).toMatch(/^ops\/topology\.json: not valid JSON/);
    expect(error.retryable).toBe(false);
  });

  it("lists every schema problem with a JSON path, typos included", () => {
    const error = errorOf(() =>
      parseOverridesValue({
        add: [{ to: "mm" }, { from: "fs", to: "fs" }, { from: "a", to: "b", kind: "calls" }, { from: "a", to: "b", count: 0 }],
        remvoe: [],
      }),
    );
    expect(error.code).toBe("TOPOLOGY_OVERRIDE_INVALID");
    const paths = error.issues.map((issue) => issue.split(":")[0]);
    expect(paths).toEqual(expect.arrayContaining(["add[0].from", "add[1]", "add[2].kind", "add[3].count", "(root)"]));
    expect(error.issues.find((issue) => issue.startsWith("add[1]:"))).toContain("different scopes");
    expect(error.issues.find((issue) => issue.startsWith("(root)"))).toContain("remvoe");
    expect(error.message).toContain("and 2 more");
  });

  it("rejects a document that is not an object", () => {
    expect(() => parseOverrides("[]")).toThrow(OverrideFileError);
    expect(() => parseOverrides("null")).toThrow(OverrideFileError);
  });
});

describe("applyOverrides", () => {
  it("adds a manual edge that path finding then uses", () => {
    expect(findQueryPath(kernel, "fs", "mm")).toMatchObject({ ok: false, reason: "no_path" });
    const { graph, report } = applyOverrides(kernel, parseOverrides('{ "add": [{ "from": "fs", "to": "mm" }] }'));
    expect(graph.edge("fs", "mm")).toMatchObject({ kind: "manual", weight: 1, counts: { manual: 1 } });
    expect(findQueryPath(graph, "fs", "mm")).toEqual({ ok: true, path: ["fs", "mm"], hops: 1, weight: 1 });
    expect(report.added).toHaveLength(1);
  });

  it("adds to the counts of an edge the code already has", () => {
    const overrides = parseOverrides('{ "add": [{ "from": "net", "to": "drivers", "kind": "call", "count": 3 }] }');
    const { graph } = applyOverrides(kernel, overrides);
    expect(graph.edge("net", "drivers")?.counts.call).toBe(5);
    expect(graph.edge("net", "drivers")?.examples).toEqual(["e1000_xmit_frame"]);
  });

  it("removes first and adds second, so a pair in both is replaced; leaves the input graph alone", () => {
    const overrides = parseOverridesValue({
      remove: [{ from: "net", to: "kernel" }, { from: "fs", to: "net" }],
      add: [{ from: "net", to: "kernel" }],
    });
    const { graph, report } = applyOverrides(kernel, overrides);
    expect(graph.edge("net", "kernel")?.counts).toEqual({ call: 0, include: 0, import: 0, manual: 1 });
    expect(kernel.edge("net", "kernel")?.weight).toBe(2);
    expect(report.removed).toEqual([{ from: "net", to: "kernel" }]);
    expect(report.notFound).toEqual([{ from: "fs", to: "net" }]);
  });

  it("rejects scopes the graph does not have, naming each entry and the known scopes", () => {
    const overrides = parseOverridesValue(
      { add: [{ from: "nett", to: "mm" }], remove: [{ from: "mm", to: "ghost" }] },
      "topology.json",
    );
    const error = errorOf(() => applyOverrides(kernel, overrides));
    expect(error.code).toBe("TOPOLOGY_OVERRIDE_UNKNOWN_SCOPE");
    expect(error.issues).toEqual(['add[0].from: unknown scope "nett"', 'remove[0].to: unknown scope "ghost"']);
    expect(error.message).toContain("known scopes: arch/arm64, arch/x86, drivers, fs, kernel, mm, net");
    expect(error.message).toMatch(/^topology\.json: /);
  });
});

describe("readOverridesFile", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("reads a file and names it in errors", async () => {
    const dir = await mkdtemp(join(tmpdir(), "topology-overrides-"));
    dirs.push(dir);
    const good = join(dir, "good.json");
    const bad = join(dir, "bad.json");
    await writeFile(good, JSON.stringify({ remove: [{ from: "mm", to: "kernel" }] }));
    await writeFile(bad, JSON.stringify({ add: "everything" }));
    expect((await readOverridesFile(good)).remove).toEqual([{ from: "mm", to: "kernel" }]);
    await expect(readOverridesFile(bad)).rejects.toMatchObject({ source: bad, code: "TOPOLOGY_OVERRIDE_INVALID" });
    await expect(readOverridesFile(join(dir, "missing.json"))).rejects.toThrow(/cannot read override file .*ENOENT/);
  });
});
