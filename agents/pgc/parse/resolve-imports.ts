// Where an include or import lands: candidate files in priority order, and whether it is a standard library.
import { builtinModules } from "node:module";
import path from "node:path";
import type { Language } from "../types.js";
import type { ParsedImport } from "./parsed-file.js";
import { PYTHON_STDLIB_MODULES } from "./stoplists/python-stdlib.js";
import { STANDARD_HEADERS } from "./stoplists/standard-headers.js";

/** Root-relative directories searched for `#include <…>` and `#include "…"`, as `-I` would. */
export const DEFAULT_INCLUDE_DIRS: readonly string[] = ["include"];
/** Root-relative directories searched for absolute Python imports, as entries of sys.path. */
const PYTHON_SOURCE_ROOTS: readonly string[] = ["", "src"];
const TS_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"];
const JS_TO_TS: ReadonlyMap<string, readonly string[]> = new Map([
  [".js", [".ts", ".tsx"]],
  [".jsx", [".tsx"]],
  [".mjs", [".mts"]],
  [".cjs", [".cts"]],
]);
const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules);

const join = (...parts: string[]): string => path.posix.normalize(path.posix.join(...parts));
const insideRoot = (candidate: string): boolean => candidate !== ".." && !candidate.startsWith("../");

/** Candidate root-relative files for an edge, most likely first; empty for a package/external module. */
export function importCandidates(edge: ParsedImport, language: Language, includeDirs = DEFAULT_INCLUDE_DIRS): string[] {
  const candidates = candidatesFor(edge, language, includeDirs);
  return [...new Set(candidates)].filter(insideRoot);
}

function candidatesFor(edge: ParsedImport, language: Language, includeDirs: readonly string[]): string[] {
  if (edge.kind === "include") return includeCandidates(edge, includeDirs);
  if (language === "python") return pythonCandidates(edge);
  return isRelativeSpec(edge.target) ? scriptCandidates(join(path.posix.dirname(edge.file_path), edge.target)) : [];
}

function includeCandidates(edge: ParsedImport, includeDirs: readonly string[]): string[] {
  const fromDir = edge.system ? [] : [join(path.posix.dirname(edge.file_path), edge.target)];
  return [...fromDir, ...includeDirs.map((dir) => join(dir, edge.target)), join(edge.target)];
}

export function isRelativeSpec(spec: string): boolean {
  return spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../");
}

function scriptCandidates(base: string): string[] {
  const extension = path.posix.extname(base);
  const stem = base.slice(0, base.length - extension.length);
  const swapped = (JS_TO_TS.get(extension) ?? []).map((ext) => stem + ext);
  const withExtension = TS_EXTENSIONS.map((ext) => base + ext);
  const asIndex = TS_EXTENSIONS.map((ext) => join(base, `index${ext}`));
  return [base, ...swapped, ...withExtension, ...asIndex];
}

/** The directory a relative Python import starts from, and the dotted rest of it. */
function pythonRelativeBase(edge: ParsedImport): { dir: string; rest: string } {
  const dots = /^\.*/.exec(edge.target)?.[0].length ?? 0;
  let dir = path.posix.dirname(edge.file_path);
  for (let level = 1; level < dots; level++) dir = path.posix.dirname(dir);
  return { dir, rest: edge.target.slice(dots) };
}

function pythonModuleFiles(base: string): string[] {
  return [`${base}.py`, `${base}.pyi`, join(base, "__init__.py")];
}

function pythonCandidates(edge: ParsedImport): string[] {
  const names = edge.names ?? [];
  if (edge.target.startsWith(".")) {
    const { dir, rest } = pythonRelativeBase(edge);
    const base = rest === "" ? dir : join(dir, rest.replaceAll(".", "/"));
    return [...(rest === "" ? names.flatMap((name) => pythonModuleFiles(join(base, name))) : []), ...pythonModuleFiles(base)];
  }
  const modulePath = edge.target.replaceAll(".", "/");
  return PYTHON_SOURCE_ROOTS.flatMap((sourceRoot) => pythonModuleFiles(join(sourceRoot || ".", modulePath)));
}

/** True for an include/import of a language's standard library or runtime, which no scope provides. */
export function isStandardLibrary(edge: ParsedImport, language: Language): boolean {
  if (edge.kind === "include") return STANDARD_HEADERS.has(edge.target);
  if (language === "python") {
    return !edge.target.startsWith(".") && PYTHON_STDLIB_MODULES.has(edge.target.split(".")[0] ?? "");
  }
  return edge.target.startsWith("node:") || NODE_BUILTINS.has(edge.target) || NODE_BUILTINS.has(edge.target.split("/")[0] ?? "");
}

/** The name a reference to an unresolved edge carries: relative specs become root-relative paths. */
export function referenceTarget(edge: ParsedImport, language: Language): string {
  if (edge.kind === "include") return edge.target;
  if (language === "python") {
    if (!edge.target.startsWith(".")) return edge.target;
    const { dir, rest } = pythonRelativeBase(edge);
    return rest === "" ? dir : join(dir, rest.replaceAll(".", "/"));
  }
  return isRelativeSpec(edge.target) ? join(path.posix.dirname(edge.file_path), edge.target) : edge.target;
}
