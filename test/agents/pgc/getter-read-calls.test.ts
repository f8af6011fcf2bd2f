// Reading a property through an object of known class runs that class's getter: found on @tiptap/core, whose
// `Editor.createView` passes `nodeViews: this.extensionManager.nodeViews` — `ExtensionManager`'s `get
// nodeViews()`, which builds every node view — and a chain beginning at the getter ended "nothing else
// calls it". A read of a plain field, a call, an assignment, or a read through an object of unknown class
// is no call (PGC.md, "Property reads are calls of their getter").
import { describe, expect, it } from "vitest";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { callsFrom, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const CODE = {
  core: {
    "core/extension-manager.ts": lines(
      "export class ExtensionManager {",
      "  names: string[] = [];",
      "  get nodeViews(): Record<string, string> {",
      "    return Object.fromEntries(this.names.map((n) => [n, n]));",
      "  }",
      "  set active(value: boolean) {",
      "    this.names = value ? this.names : [];",
      "  }",
      "  plugins(): string[] {",
      "    return this.names;",
      "  }",
      "}",
    ),
    "core/editor.ts": lines(
      'import { ExtensionManager } from "./extension-manager.js";',
      "",
      "export class Editor {",
      "  extensionManager: ExtensionManager;",
      "  constructor() {",
      "    this.extensionManager = new ExtensionManager();",
      "  }",
      "  createView(): object {",
      "    return { nodeViews: this.extensionManager.nodeViews, names: this.extensionManager.names };",
      "  }",
      "  reset(): void {",
      "    this.extensionManager.active = false;",
      "    const plugins = this.extensionManager.plugins;",
      "    void plugins;",
      "  }",
      "}",
      "",
      "export function describeViews(manager: ExtensionManager, other: { nodeViews: object }): unknown[] {",
      "  const local = new ExtensionManager();",
      "  return [manager.nodeViews, local.nodeViews, other.nodeViews];",
      "}",
    ),
  },
};

describe("a property read through an object of known class", () => {
  const scopes = withScopes("mesh-getter-read-", CODE);
  const graph = () => new CallGraph((scopes().get("core") as Pgc).data);

  it("calls the class's getter, from the line that reads it", () => {
    // `names` is a plain field, `active` is assigned (a setter), `plugins` is read as a value (a method passed on).
    expect(callsFrom(graph(), "Editor.createView")).toEqual({ local: ["ExtensionManager.nodeViews:9"], exits: [] });
    expect(callsFrom(graph(), "Editor.reset").local).toEqual(["ExtensionManager.plugins:13"]);
  });

  it("through a typed parameter or a local built from the class, not through an object of unknown class", () => {
    expect(callsFrom(graph(), "describeViews")).toEqual({ local: ["ExtensionManager:19", "ExtensionManager.nodeViews:20"], exits: [] });
  });

  it("makes the reader a caller of the getter for a climb", async () => {
    const core = scopes().get("core") as Pgc;
    const result = await core.search().expand({ question: parseQuestion("How are node views built?"), mode: "callers", from: { symbol: "nodeViews", method_of: "ExtensionManager" }, covered: {} });
    expect(result.steps.map((s) => s.qualified).sort()).toEqual(["Editor.createView", "describeViews"]);
  });
});
