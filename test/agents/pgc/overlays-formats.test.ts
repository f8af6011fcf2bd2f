// Overlay builders on single files: build and CI formats (O5), risk rules that must not fire (O2), text chunks (O4).
import { describe, expect, it } from "vitest";
import { extractFile } from "../../../agents/pgc/overlays/index.js";
import { chunkText } from "../../../agents/pgc/parse/index.js";
import type { IndexDoc } from "../../../agents/pgc/types.js";

const operational = async (path: string, content: string): Promise<[string, string | undefined, number, number][]> => {
  const { docs } = await extractFile({ path, content });
  return docs.filter((doc) => doc.overlay === "O5").map((doc: IndexDoc) => [doc.section, doc.fields.name, doc.line_start, doc.line_end]);
};

describe("O5 formats", () => {
  it("splits a GitHub workflow into jobs with the commands they run", async () => {
    const workflow = [
      "name: CI",
      "on: [push]",
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: npm ci",
      "      - run: npm test",
      "",
      "  lint:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: npm run lint",
    ].join("\n");
    expect(await operational(".github/workflows/ci.yml", workflow)).toEqual([
      ["workflow", "CI/test", 4, 8],
      ["workflow", "CI/lint", 10, 13],
    ]);
    const { docs } = await extractFile({ path: ".github/workflows/ci.yml", content: workflow });
    expect(docs[0]?.text).toBe("workflow:CI/test | runs: npm ci ; npm test | file:.github/workflows/ci.yml:4");
  });

  it("reads CMake targets, TOML/INI sections, Dockerfiles and shell scripts", async () => {
    expect(await operational("CMakeLists.txt", "project(x)\nadd_library(core\n  src/a.c)\nadd_executable(tool main.c)\n")).toEqual([
      ["build_target", "core", 2, 3],
      ["build_target", "tool", 4, 4],
    ]);
    expect(await operational("setup.cfg", "[metadata]\nname = x\n\n[options.entry_points]\nconsole_scripts = x=x:main\n")).toEqual([
      ["config", "metadata", 1, 2],
      ["script", "options.entry_points", 4, 5],
    ]);
    expect(await operational("Dockerfile", "FROM node:20\nRUN npm ci\n")).toEqual([["build_target", "Dockerfile", 1, 2]]);
    expect(await operational("tools/release", "#!/bin/bash\nset -e\nnpm publish\n")).toEqual([["script", "release", 1, 3]]);
    expect(await operational("tsconfig.json", '{\n  "strict": true\n}\n')).toEqual([["config", "tsconfig.json", 1, 3]]);
    expect(await operational("setup.py", "from setuptools import setup\nsetup(name='x')\n")).toEqual([["build_target", "setup.py", 1, 2]]);
  });
});

describe("O2 rules that must not fire", () => {
  it.each([
    ["copy.c", "void f(char *d, const char *s) { memcpy(d, s, sizeof(struct hdr)); memcpy(d, s, 4 * HDR_LEN); }"],
    ["load.py", "import yaml\nyaml.load(stream, Loader=yaml.SafeLoader)\nyaml.safe_load(stream)\n"],
    ["run.py", "import subprocess\nsubprocess.run(['ls', path], check=True)\n"],
    ["run.ts", 'import { exec } from "node:child_process";\nexec("git status");\nfoo.eval(code);\n'],
    ["shadow.py", "from sandbox import eval\neval(expression)\n"],
  ])("%s has no finding", async (path, content) => {
    const { parsed } = await extractFile({ path, content });
    expect(parsed.risks).toEqual([]);
  });

  it("flags HTML sinks and new Function in TSX", async () => {
    const content = [
      "export function View({ html }: { html: string }) {",
      "  element.innerHTML = html;",
      "  const run = new Function(html);",
      "  return <div dangerouslySetInnerHTML={{ __html: html }} />;",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "view.tsx", content });
    expect(parsed.risks.map((risk) => [risk.api, risk.line_start, risk.caller])).toEqual([
      ["innerHTML", 2, "View"],
      ["Function", 3, "View"],
      ["dangerouslySetInnerHTML", 4, "View"],
    ]);
  });
});

describe("text chunks", () => {
  it("cuts at headings once a chunk has some body, and at paragraph breaks near forty lines", () => {
    const paragraph = (count: number): string[] => Array.from({ length: count }, (_, index) => `line ${index}`);
    const text = ["# Title", ...paragraph(10), "", "## Short", "one", "## Next", ...paragraph(38), "", ...paragraph(5)].join("\n");
    expect(chunkText(text)).toEqual([
      { line_start: 1, line_end: 11, heading: "Title" },
      { line_start: 13, line_end: 53, heading: "Short" },
      { line_start: 55, line_end: 59, heading: "Next" },
    ]);
  });
});
