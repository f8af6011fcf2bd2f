// Calls that build what is thrown (PGC.md rule 10): the extraction marks a call that is part of a Python
// `raise` or a TS/JS `throw` statement; the call graph keeps the mark unless the caller also calls the
// callee elsewhere; the worker's path search follows such a call only for a question about errors. Over
// code written here for the shapes, and over Python 3.11's smtplib for the extraction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pino from "pino";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { asksAboutErrors } from "../../../agents/search/relevance.js";

const PYTHON = [
  "def check(value):",
  "    if value is None:",
  "        raise ValueError(describe(value))",
  "    if value < 0:",
  "        raise RangeError(",
  "            limit_text(value))",
  "    raise Wrapped(lambda: cleanup(value))",
  "",
  "def describe(value):",
  "    return repr(value)",
  "",
].join("\n");

const TYPESCRIPT = [
  "export function route(path: string) {",
  "  if (!path) throw new PathError(formatPath(path));",
  "  const handler = () => { throw makeError(); };",
  "  throw wrap(function inner() { return notify(path); });",
  "  return formatPath(path);",
  "}",
  "",
].join("\n");

const raising = (calls: readonly { callee: string; raises?: true }[]) => calls.filter((c) => c.raises).map((c) => c.callee).sort();

describe("calls that build what is thrown", () => {
  it("are marked in Python raise statements, over several lines too, but not in a function defined inside one", async () => {
    const parsed = await parseFile({ path: "check.py", content: PYTHON, language: "python" });
    expect(raising(parsed.calls)).toEqual(["RangeError", "ValueError", "Wrapped", "describe", "limit_text"]);
    expect(parsed.calls.find((c) => c.callee === "cleanup")?.raises).toBeUndefined();
    expect(parsed.calls.find((c) => c.callee === "repr")?.raises).toBeUndefined();
  });

  it("are marked in TS throw statements, but not in an arrow or function expression inside or around one", async () => {
    const parsed = await parseFile({ path: "route.ts", content: TYPESCRIPT, language: "typescript" });
    expect(raising(parsed.calls)).toEqual(["PathError", "formatPath", "makeError", "wrap"]);
    // `makeError()` is thrown by the arrow function, the caller of its own; `notify` runs in `inner`.
    expect(parsed.calls.find((c) => c.callee === "makeError")?.caller).toBe("handler");
    expect(parsed.calls.find((c) => c.callee === "notify")?.raises).toBeUndefined();
    expect(parsed.calls.filter((c) => c.callee === "formatPath").map((c) => c.raises ?? false)).toEqual([true, false]);
  });

  it("recognises a question about errors by its words, in any form or inside a name", () => {
    expect(asksAboutErrors(parseQuestion("What error is raised when the path is empty?"))).toBe(true);
    expect(asksAboutErrors(parseQuestion("Where does the exception thrown by a handler end up?"))).toBe(true);
    expect(asksAboutErrors(parseQuestion("If the input fails the schema, what happens?"))).toBe(true);
    expect(asksAboutErrors(parseQuestion("Who builds a TRPCError from an unknown cause?"))).toBe(true);
    expect(asksAboutErrors(parseQuestion("How does the router run the procedure's middleware?"))).toBe(false);
  });
});

const STDLIB_SMTP = "/usr/lib/python3.11/smtplib.py";

describe.skipIf(!existsSync(STDLIB_SMTP))("raise statements of Python 3.11's smtplib", () => {
  it("marks the call of every `raise X(…)` line and no call outside a raise statement", async () => {
    const content = readFileSync(STDLIB_SMTP, "utf8");
    const lines = content.split("\n");
    const parsed = await parseFile({ path: "smtplib.py", content, language: "python" });
    const marked = parsed.calls.filter((c) => c.raises);
    const raiseLines = lines.flatMap((text, i) => (/^\s*raise [A-Za-z_.]+\(/.test(text) ? [i + 1] : []));
    expect(raiseLines.length).toBeGreaterThan(20);
    const markedLines = new Set(marked.map((c) => c.line));
    expect(raiseLines.filter((line) => !markedLines.has(line))).toEqual([]);
    // Each marked call is on a raise line or a continuation of one (the statement's first line above it says raise).
    for (const call of marked) {
      let at = call.line;
      while (at > 1 && !/^\s*raise\b/.test(lines[at - 1] ?? "")) at--;
      expect({ call: call.callee, line: call.line, statement: (lines[at - 1] ?? "").trim().slice(0, 5) }).toEqual({ call: call.callee, line: call.line, statement: "raise" });
      expect(call.line - at).toBeLessThan(6);
    }
    // A plain call outside any raise is not marked.
    expect(parsed.calls.filter((c) => !c.raises && /^\s*raise\b/.test(lines[c.line - 1] ?? ""))).toEqual([]);
  });
});

const SCOPE: Record<string, string> = {
  "router/route.ts": [
    'import { RouteError } from "../errors/route-error.js";',
    "",
    "export function runRoute(path: string, input: unknown) {",
    "  const procedure = findProcedure(path);",
    "  if (!procedure) throw buildRouteError(path);",
    '  if (input === undefined) throw new RouteError("input missing for route");',
    "  return runMiddleware(procedure, input);",
    "}",
    "",
    "export function buildRouteError(path: string) {",
    "  return { route: path, middleware: describeRoute(path) };",
    "}",
    "",
    "function describeRoute(path: string) {",
    "  return `route ${path} has no middleware procedure`;",
    "}",
    "",
    "function findProcedure(path: string) {",
    "  return path.length > 0 ? { path } : null;",
    "}",
    "",
    "function runMiddleware(procedure: { path: string }, input: unknown) {",
    "  return { procedure, input };",
    "}",
    "",
    "export function retryRoute(path: string) {",
    "  if (!path) throw describeRoute(path);",
    "  return describeRoute(path);",
    "}",
    "",
  ].join("\n"),
};

describe("the path search and raising calls", () => {
  let root: string;
  let cache: string;
  let pgc: Pgc;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "mesh-raise-"));
    cache = mkdtempSync(join(tmpdir(), "mesh-raise-cache-"));
    for (const [path, text] of Object.entries(SCOPE)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const opened = await openPgc({ scope: "router", root, scopePaths: ["router/"], cacheRoot: cache, logger: pino({ level: "silent" }), threads: 1 });
    pgc = new Pgc("router", ["router/"], opened);
  }, 60_000);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  const reached = async (text: string) => {
    const result = await pgc.search().expand({ question: parseQuestion(text), mode: "forward", from: { symbol: "runRoute" }, covered: {} });
    return {
      steps: new Set(result.leads.flatMap((l) => l.path.map((i) => result.steps[i]?.qualified))),
      exits: result.leads.flatMap((l) => (l.exit ? [l.exit.target] : [])),
    };
  };

  it("does not follow a thrown call or exit for a question that is not about errors", async () => {
    const { steps, exits } = await reached("How does a route run its middleware procedure?");
    expect(steps.has("runMiddleware")).toBe(true);
    expect([...steps].filter((s) => s === "buildRouteError" || s === "describeRoute")).toEqual([]);
    expect(exits).not.toContain("RouteError");
  });

  it("keeps a callee the caller also calls outside a throw, cited at that call", async () => {
    const result = await pgc.search().expand({ question: parseQuestion("How does a route describe its middleware procedure?"), mode: "forward", from: { symbol: "retryRoute" }, covered: {} });
    const lead = result.leads.find((l) => l.path.some((i) => result.steps[i]?.qualified === "describeRoute"));
    expect(lead?.call_sites[0]?.text).toBe("  return describeRoute(path);");
  });

  it("follows them when the question asks about the error", async () => {
    const { steps, exits } = await reached("What error is thrown when a route has no middleware procedure?");
    expect(steps.has("buildRouteError")).toBe(true);
    expect(steps.has("describeRoute")).toBe(true);
    expect(exits).toContain("RouteError");
  });
});
