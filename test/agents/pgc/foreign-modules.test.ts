// A name imported from a package that is not part of the code base (PGC.md, "foreign modules") calls no
// function of it: found when pip's `_internal`, indexed as a root of its own, took `parse as parse_version`
// from the vendored `pip._vendor.packaging.version` for its own requirements parser's `parse`. Python: the
// root holds no directory or module of the import's top package (or, when the root is that package, no file
// of the rest). TS/JS: the nearest package.json lists the package as a dependency, and no package.json of
// the root is that package. Both the scopes' exits and the layout rules themselves are checked here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForeignModules } from "../../../agents/pgc/parse/foreign-modules.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const PYTHON = {
  app: {
    "app/__init__.py": "",
    "app/views.py": lines(
      "from vendored.packaging.version import parse as parse_version",
      "from lib.helpers import render",
      "import vendored.markup",
      "",
      "def show_version(text):",
      "    return parse_version(text)",
      "",
      "def show_page(text):",
      "    return render(text)",
      "",
      "def show_markup(text):",
      "    return vendored.markup.escape(text)",
    ),
  },
  lib: {
    "lib/__init__.py": "",
    "lib/helpers.py": lines("def render(text):", "    return text", "", "def parse(text):", "    return text", "", "def escape(text):", "    return text"),
  },
};

const SCRIPT = {
  core: {
    "package.json": JSON.stringify({ name: "mylib", dependencies: { yaml: "^2.0.0" }, devDependencies: { "@types/node": "^20" } }),
    "core/load.ts": lines(
      'import { parse } from "yaml";',
      'import { build } from "mylib";',
      "",
      "export function loadConfig(text: string) {",
      "  return parse(text);",
      "}",
      "",
      "export function makeThing() {",
      "  return build();",
      "}",
    ),
  },
  util: {
    "util/index.ts": lines("export function parse(text: string) {", "  return text;", "}", "", "export function build() {", "  return 1;", "}"),
  },
};

async function exitTargets(scope: Pgc, symbol: string, question: string): Promise<string[]> {
  const result = await scope.search().expand({ question: parseQuestion(question), mode: "forward", from: { symbol }, covered: {} });
  return result.leads.flatMap((lead) => (lead.exit ? [lead.exit.target] : []));
}

describe("calls of a foreign package's names leave the code base, not into a same-named function", () => {
  const python = withScopes("mesh-foreign-py-", PYTHON);
  const script = withScopes("mesh-foreign-ts-", SCRIPT);

  it("Python: a name from a package the root does not hold is no exit; one from another scope's package is", async () => {
    const app = python().get("app") as Pgc;
    expect(await exitTargets(app, "show_version", "How does show_version parse the version?")).toEqual([]);
    expect(await exitTargets(app, "show_markup", "How does show_markup escape the markup?")).toEqual([]);
    expect(await exitTargets(app, "show_page", "How does show_page render the page?")).toEqual(["render"]);
    // The scope's references (what the topology is built from) keep the imports, and name no foreign call.
    const references = app.facts().references;
    expect(references.filter((r) => r.kind === "call").map((r) => r.target)).toEqual(["render"]);
    expect(references.filter((r) => r.kind === "import").map((r) => r.target)).toEqual(expect.arrayContaining(["vendored.packaging.version", "vendored.markup", "lib/helpers.py"]));
  });

  it("TS: a dependency of the nearest package.json is foreign; the package's own name is not", async () => {
    const core = script().get("core") as Pgc;
    expect(await exitTargets(core, "loadConfig", "How does loadConfig parse the text?")).toEqual([]);
    expect(await exitTargets(core, "makeThing", "How does makeThing build the thing?")).toEqual(["build"]);
  });
});

describe("the layout rules", () => {
  let dir = "";
  const write = (path: string, text = "") => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const exists = (root: string) => async (candidate: string) => {
    try {
      const { statSync } = await import("node:fs");
      return statSync(join(root, candidate)).isFile();
    } catch {
      return false;
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mesh-foreign-layout-"));
    write("pip/_internal/__init__.py");
    write("pip/_internal/req/parser.py");
    write("pip/_vendor/__init__.py");
    write("repo/packages/tool/src/toolkit/__init__.py");
    write("repo/packages/tool/src/toolkit/run.py");
    write("repo/single.py");
    write("ws/package.json", JSON.stringify({ name: "root", private: true }));
    write("ws/packages/a/package.json", JSON.stringify({ name: "@ws/a", dependencies: { "@ws/b": "workspace:*", zod: "^3" } }));
    write("ws/packages/a/src/deep/x.ts");
    write("ws/packages/b/package.json", JSON.stringify({ name: "@ws/b" }));
    write("bare/src/x.ts");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("Python: the root as the package itself, packages laid out deeper, and packages not there", async () => {
    const pip = new ForeignModules(join(dir, "pip"), exists(join(dir, "pip")));
    expect(await pip.python("pip._internal.req.parser")).toBe(false);
    expect(await pip.python("pip._internal")).toBe(false);
    expect(await pip.python("pip._vendor.packaging.version")).toBe(true);
    expect(await pip.python("requests.adapters")).toBe(true);
    const repo = new ForeignModules(join(dir, "repo"), exists(join(dir, "repo")));
    expect(await repo.python("toolkit.run")).toBe(false);
    expect(await repo.python("single")).toBe(false);
    expect(await repo.python("numpy")).toBe(true);
  });

  it("TS/JS: dependencies of the nearest package.json, a workspace's own packages, and no package.json at all", async () => {
    const ws = new ForeignModules(join(dir, "ws"), exists(join(dir, "ws")));
    expect(await ws.script("zod", "packages/a/src/deep/x.ts")).toBe(true);
    expect(await ws.script("zod/v4/core", "packages/a/src/deep/x.ts")).toBe(true);
    expect(await ws.script("@ws/b", "packages/a/src/deep/x.ts")).toBe(false);
    expect(await ws.script("@ws/a", "packages/a/src/deep/x.ts")).toBe(false);
    expect(await ws.script("lodash", "packages/a/src/deep/x.ts")).toBe(false);
    const bare = new ForeignModules(join(dir, "bare"), exists(join(dir, "bare")));
    expect(await bare.script("zod", "src/x.ts")).toBe(false);
  });
});
