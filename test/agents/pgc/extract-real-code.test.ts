// Extraction on real code: the Python standard library's json package and zod's TypeScript sources.
// Expected definitions and lines are read from the files themselves with line-anchored patterns.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractFile, extractScope } from "../../../agents/pgc/overlays/index.js";
import type { CodeSymbol } from "../../../agents/pgc/types.js";

const PYTHON_JSON_DIR = "/usr/lib/python3.11/json";
const ZOD_CORE_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve("zod/package.json")), "src/v4/core");

/** [name, 1-based line] of every line matching `pattern` (its first group is the name). */
function definitionsIn(content: string, pattern: RegExp): [string, number][] {
  const found: [string, number][] = [];
  content.split("\n").forEach((line, index) => {
    const name = pattern.exec(line)?.[1];
    if (name) found.push([name, index + 1]);
  });
  return found;
}

function expectFound(symbols: readonly CodeSymbol[], expected: [string, number][], kinds: readonly string[]): void {
  for (const [name, line] of expected) {
    const candidates = expected.filter(([other]) => other === name).map(([, at]) => at);
    const match = symbols.find((symbol) => symbol.name === name && kinds.includes(symbol.kind) && candidates.includes(symbol.line_start));
    expect(match, `${name} at line ${line}`).toBeDefined();
  }
}

describe.skipIf(!existsSync(PYTHON_JSON_DIR))("Python standard library: json/", () => {
  it("finds every top-level function and class, and every method or nested function, at its line", async () => {
    const result = await extractScope({ root: PYTHON_JSON_DIR, gitHistory: false });
    expect(result.stats.files_with_syntax_errors).toBe(0);
    for (const file of ["__init__.py", "decoder.py", "encoder.py", "scanner.py"]) {
      const content = readFileSync(path.join(PYTHON_JSON_DIR, file), "utf8");
      const symbols = result.symbols.filter((symbol) => symbol.file_path === file);
      expectFound(symbols, definitionsIn(content, /^def (\w+)/), ["function"]);
      expectFound(symbols, definitionsIn(content, /^class (\w+)/), ["class"]);
      // Four-space `def`s are methods in a class body and nested functions in a function body.
      expectFound(symbols, definitionsIn(content, /^ {4}def (\w+)/), ["method", "function"]);
    }
  });

  it("reads docstrings and containers of well-known definitions", async () => {
    const content = readFileSync(path.join(PYTHON_JSON_DIR, "decoder.py"), "utf8");
    const { parsed } = await extractFile({ path: "decoder.py", content });
    const decode = parsed.symbols.find((symbol) => symbol.name === "decode");
    expect(decode).toMatchObject({ kind: "method", container: "JSONDecoder" });
    expect(decode?.doc).toMatch(/^Return the Python representation of ``s``/);
    expect(parsed.symbols.find((symbol) => symbol.name === "JSONDecoder")?.doc).toMatch(/^Simple JSON <https:\/\/json.org> decoder/);
    expect(parsed.module_doc?.text).toBe("Implementation of JSONDecoder");
    expect(parsed.imports.map((edge) => edge.target)).toContain("json");
  });

  it("treats the C accelerator module _json as standard library, not as a reference out of scope", async () => {
    const result = await extractScope({ root: PYTHON_JSON_DIR, gitHistory: false });
    expect(result.crossScopeReferences.filter((reference) => reference.kind === "import")).toEqual([]);
  });
});

describe.skipIf(!existsSync(ZOD_CORE_DIR))("TypeScript: zod's src/v4/core", () => {
  it("finds every exported function, class, interface and type alias of util.ts at its line", async () => {
    const content = readFileSync(path.join(ZOD_CORE_DIR, "util.ts"), "utf8");
    const { parsed } = await extractFile({ path: "util.ts", content });
    const functions = definitionsIn(content, /^export function (\w+)/);
    expect(functions.length).toBeGreaterThan(40);
    expectFound(parsed.symbols, functions, ["function"]);
    expectFound(parsed.symbols, definitionsIn(content, /^export (?:abstract )?class (\w+)/), ["class"]);
    expectFound(parsed.symbols, definitionsIn(content, /^export interface (\w+)/), ["interface"]);
    expectFound(parsed.symbols, definitionsIn(content, /^export type (\w+)/), ["type"]);
  });

  it("parses a whole directory of real TypeScript with imports resolved inside it", async () => {
    const result = await extractScope({ root: ZOD_CORE_DIR, gitHistory: false });
    expect(result.stats.symbols).toBeGreaterThan(500);
    const errors = definitionsIn(readFileSync(path.join(ZOD_CORE_DIR, "errors.ts"), "utf8"), /^export interface (\w+)/);
    expectFound(result.symbols.filter((symbol) => symbol.file_path === "errors.ts"), errors, ["interface"]);
    const fromUtil = result.imports.filter((edge) => edge.target === "./util.js");
    expect(fromUtil.length).toBeGreaterThan(3);
    expect(fromUtil.every((edge) => edge.resolved_path === "util.ts")).toBe(true);
  });
});
