// A deliberately simple Python extractor that turns real source (e.g. /usr/lib/python3.11) into IndexDocs,
// so retrieval can be tested and measured on real text without depending on the real parser (agents/pgc/parse).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { IndexDoc } from "../../agents/pgc/types.js";

export const PYTHON_STDLIB_ROOT = "/usr/lib/python3.11";
/** Directories that hold vendored or generated code rather than the library itself. */
const SKIPPED_DIRS = new Set(["__pycache__", "site-packages", "dist-packages"]);
/** A def whose parameter list runs longer than this many lines is not worth following. */
const MAX_SIGNATURE_LINES = 15;
const MAX_SIGNATURE_CHARS = 300;

const DEF_PATTERN = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/;
const DOC_OPEN = /^\s*[rRuU]?("""|''')/;

export interface PythonCorpusOptions {
  /** Directories below the root to include (e.g. ["json", "email"]); the whole root when absent. */
  only?: readonly string[];
  /** Stop after this many files (in sorted order). */
  maxFiles?: number;
  /** Prefix added to every path and id, to index one tree twice as two scopes' worth of text. */
  pathPrefix?: string;
}

/** All .py files below `dir`, sorted so the corpus (and everything fitted on it) is the same every run. */
export function listPythonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory() === true) out.push(...listPythonFiles(path));
    else if (stat?.isFile() === true && name.endsWith(".py")) out.push(path);
  }
  return out;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function signatureEnd(lines: readonly string[], start: number): number {
  for (let i = start; i < Math.min(lines.length, start + MAX_SIGNATURE_LINES); i++) {
    if ((lines[i] ?? "").replace(/#.*$/, "").trimEnd().endsWith(":")) return i;
  }
  return start;
}

/** The docstring opening at line `at`, if any: its text and the line where it closes. */
export function readDocstring(lines: readonly string[], at: number): { doc: string; end: number } | undefined {
  const first = lines[at] ?? "";
  const open = DOC_OPEN.exec(first);
  if (open === null) return undefined;
  const quote = open[1] as string;
  const afterOpen = first.slice(first.indexOf(quote) + 3);
  const closeAt = afterOpen.indexOf(quote);
  if (closeAt >= 0) return { doc: afterOpen.slice(0, closeAt).trim(), end: at };
  const parts = [afterOpen];
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const close = line.indexOf(quote);
    if (close >= 0) return { doc: [...parts, line.slice(0, close)].join("\n").trim(), end: i };
    parts.push(line);
  }
  return undefined;
}

function blockEnd(lines: readonly string[], from: number, indent: number): number {
  let end = from;
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim().length === 0) continue;
    if (indentOf(line) <= indent) break;
    end = i;
  }
  return end;
}

function nextCodeLine(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && (lines[i] ?? "").trim().length === 0) i++;
  return i;
}

function definitionDoc(lines: readonly string[], at: number, match: RegExpExecArray, path: string): IndexDoc {
  const indent = (match[1] as string).length;
  const kind = match[2] as string;
  const name = match[3] as string;
  const sigEnd = signatureEnd(lines, at);
  const end = Math.max(sigEnd, blockEnd(lines, sigEnd, indent));
  const signature = lines.slice(at, sigEnd + 1).join(" ").replace(/\s+/g, " ").trim().slice(0, MAX_SIGNATURE_CHARS);
  const docstring = readDocstring(lines, nextCodeLine(lines, sigEnd + 1));
  const bodyStart = docstring === undefined ? sigEnd + 1 : docstring.end + 1;
  const section = kind === "class" ? "class" : indent > 0 ? "method" : "function";
  const range = `${at + 1}-${end + 1}`;
  return {
    id: `O1:${path}:${range}:${name}`,
    overlay: "O1",
    section,
    file_path: path,
    line_start: at + 1,
    line_end: end + 1,
    symbol: name,
    fields: { name, signature, doc: docstring?.doc ?? "", body: lines.slice(bodyStart, end + 1).join("\n"), path },
    text: `${section} ${name} (${path}:${range})`,
  };
}

function moduleDoc(lines: readonly string[], path: string): IndexDoc | undefined {
  const docstring = readDocstring(lines, nextCodeLine(lines, 0));
  if (docstring === undefined || docstring.doc.length === 0) return undefined;
  const range = `1-${docstring.end + 1}`;
  return {
    id: `O4:${path}:${range}`,
    overlay: "O4",
    section: "module_doc",
    file_path: path,
    line_start: 1,
    line_end: docstring.end + 1,
    fields: { doc: docstring.doc, path },
    text: `module docstring of ${path}`,
  };
}

/** IndexDocs of one Python source: an O4 doc for the module docstring, an O1 doc per def and class. */
export function extractPythonFile(source: string, path: string): IndexDoc[] {
  const lines = source.split("\n");
  const docs: IndexDoc[] = [];
  const module = moduleDoc(lines, path);
  if (module !== undefined) docs.push(module);
  lines.forEach((line, at) => {
    const match = DEF_PATTERN.exec(line);
    if (match !== null) docs.push(definitionDoc(lines, at, match, path));
  });
  return docs;
}

/** IndexDocs for a Python tree; paths are POSIX, relative to `root`, optionally prefixed. */
export function extractPythonCorpus(root: string, options: PythonCorpusOptions = {}): IndexDoc[] {
  const dirs = options.only?.map((dir) => join(root, dir)) ?? [root];
  const files = dirs.flatMap((dir) => (statSync(dir).isDirectory() ? listPythonFiles(dir) : [dir]));
  const chosen = files.slice(0, options.maxFiles ?? files.length);
  return chosen.flatMap((file) => {
    const path = (options.pathPrefix ?? "") + relative(root, file).split(sep).join("/");
    return extractPythonFile(readFileSync(file, "utf8"), path);
  });
}
