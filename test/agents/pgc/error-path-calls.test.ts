// Calls on an error path (PGC.md rule 10): the extraction marks a call that is part of a Python `raise`
// or a TS/JS `throw` statement, or runs in an `except` clause or `catch` block of its function; the call
// graph keeps the mark unless the caller also calls the callee elsewhere; the worker's path search follows
// such a call only for a question about errors. Over code written here for the shapes, and over Python
// 3.11's smtplib for the extraction.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { asksAboutErrors } from "../../../agents/search/error-priors.js";
import { withScopes } from "../../helpers/scopes.js";

const PYTHON = [
  "def check(value):",
  "    if value is None:",
  "        raise ValueError(describe(value))",
  "    if value < 0:",
  "        raise RangeError(",
  "            limit_text(value))",
  "    raise Wrapped(lambda: cleanup(value))",
  "",
  "def load(path):",
  "    try:",
  "        return read_file(path)",
  "    except OSError as error:",
  "        if error.errno:",
  "            log_failure(path)",
  "        return default_for(path)",
  "    finally:",
  "        close_all()",
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
  "export async function load(path: string) {",
  "  try {",
  "    return await readFile(path);",
  "  } catch (error) {",
  "    if (error) reportFailure(path);",
  "    return defaultFor(path);",
  "  } finally {",
  "    closeAll();",
  "  }",
  "}",
  "",
].join("\n");

const onErrorPath = (calls: readonly { callee: string; error_path?: true }[]) => calls.filter((c) => c.error_path).map((c) => c.callee).sort();

describe("calls on an error path", () => {
  it("are marked in Python raise statements, over several lines too, and in except clauses, but not in a function defined inside one", async () => {
    const parsed = await parseFile({ path: "check.py", content: PYTHON, language: "python" });
    expect(onErrorPath(parsed.calls)).toEqual(["RangeError", "ValueError", "Wrapped", "default_for", "describe", "limit_text", "log_failure"]);
    expect(parsed.calls.find((c) => c.callee === "cleanup")?.error_path).toBeUndefined();
    expect(parsed.calls.find((c) => c.callee === "repr")?.error_path).toBeUndefined();
    // The try body and the finally clause are the normal path.
    expect(parsed.calls.filter((c) => c.callee === "read_file" || c.callee === "close_all").map((c) => c.error_path)).toEqual([undefined, undefined]);
  });

  it("are marked in TS throw statements and catch blocks, but not in an arrow or function expression inside or around one", async () => {
    const parsed = await parseFile({ path: "route.ts", content: TYPESCRIPT, language: "typescript" });
    expect(onErrorPath(parsed.calls)).toEqual(["PathError", "defaultFor", "formatPath", "makeError", "reportFailure", "wrap"]);
    expect(parsed.calls.filter((c) => c.callee === "readFile" || c.callee === "closeAll").map((c) => c.error_path)).toEqual([undefined, undefined]);
    // `makeError()` is thrown by the arrow function, the caller of its own; `notify` runs in `inner`.
    expect(parsed.calls.find((c) => c.callee === "makeError")?.caller).toBe("handler");
    expect(parsed.calls.find((c) => c.callee === "notify")?.error_path).toBeUndefined();
    expect(parsed.calls.filter((c) => c.callee === "formatPath").map((c) => c.error_path ?? false)).toEqual([true, false]);
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

describe.skipIf(!existsSync(STDLIB_SMTP))("error paths of Python 3.11's smtplib", () => {
  it("marks the call of every `raise X(…)` line, and no call outside a raise statement or an except clause", async () => {
    const content = readFileSync(STDLIB_SMTP, "utf8");
    const lines = content.split("\n");
    const parsed = await parseFile({ path: "smtplib.py", content, language: "python" });
    const marked = parsed.calls.filter((c) => c.error_path);
    const raiseLines = lines.flatMap((text, i) => (/^\s*raise [A-Za-z_.]+\(/.test(text) ? [i + 1] : []));
    expect(raiseLines.length).toBeGreaterThan(20);
    const markedLines = new Set(marked.map((c) => c.line));
    expect(raiseLines.filter((line) => !markedLines.has(line))).toEqual([]);
    // Each marked call is on a raise line or a continuation of one, or under an `except` less indented than it.
    const indent = (line: string) => /^\s*/.exec(line)?.[0].length ?? 0;
    for (const call of marked) {
      const text = lines[call.line - 1] ?? "";
      let at = call.line;
      while (at > 1 && !/^\s*(raise|except)\b/.test(lines[at - 1] ?? "")) at--;
      const opener = lines[at - 1] ?? "";
      const inExcept = /^\s*except\b/.test(opener) && indent(opener) < indent(text);
      expect({ call: call.callee, line: call.line, on: inExcept ? "except" : opener.trim().slice(0, 5) }).toEqual({ call: call.callee, line: call.line, on: inExcept ? "except" : "raise" });
    }
    expect(marked.some((c) => !/^\s*raise\b/.test(lines[c.line - 1] ?? ""))).toBe(true);
    // A call on a raise line is marked.
    expect(parsed.calls.filter((c) => !c.error_path && /^\s*raise\b/.test(lines[c.line - 1] ?? ""))).toEqual([]);
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
    "export function safeRoute(path: string, input: unknown) {",
    "  try {",
    "    return runRoute(path, input);",
    "  } catch {",
    "    return buildRouteError(path);",
    "  }",
    "}",
    "",
    "export function retryRoute(path: string) {",
    "  if (!path) throw describeRoute(path);",
    "  return describeRoute(path);",
    "}",
    "",
  ].join("\n"),
};

describe("the path search and calls on an error path", () => {
  const scopes = withScopes("mesh-error-path-", { router: SCOPE });
  const pgc = (): Pgc => scopes().get("router") as Pgc;

  const reached = async (text: string, from = "runRoute") => {
    const result = await pgc().search().expand({ question: parseQuestion(text), mode: "forward", from: { symbol: from }, covered: {} });
    return {
      steps: new Set(result.leads.flatMap((l) => l.path.map((i) => result.steps[i]?.qualified))),
      exits: result.leads.flatMap((l) => (l.exit ? [l.exit.target] : [])),
    };
  };

  it("does not follow a thrown call or exit, or a call in a catch block, for a question that is not about errors", async () => {
    const { steps, exits } = await reached("How does a route run its middleware procedure?");
    expect(steps.has("runMiddleware")).toBe(true);
    expect([...steps].filter((s) => s === "buildRouteError" || s === "describeRoute")).toEqual([]);
    expect(exits).not.toContain("RouteError");
    const safe = await reached("How does a route run its middleware procedure?", "safeRoute");
    expect(safe.steps.has("runMiddleware")).toBe(true);
    expect(safe.steps.has("buildRouteError")).toBe(false);
  });

  it("keeps a callee the caller also calls outside a throw, cited at that call", async () => {
    const result = await pgc().search().expand({ question: parseQuestion("How does a route describe its middleware procedure?"), mode: "forward", from: { symbol: "retryRoute" }, covered: {} });
    const lead = result.leads.find((l) => l.path.some((i) => result.steps[i]?.qualified === "describeRoute"));
    expect(lead?.call_sites[0]?.text).toBe("  return describeRoute(path);");
  });

  it("lists a caller on an error path to a climb only for a question about errors, and always to a who-calls question", async () => {
    const callers = async (text: string) => {
      const result = await pgc().search().expand({ question: parseQuestion(text), mode: "callers", from: { symbol: "buildRouteError" }, covered: {}, max_depth: 0 });
      return result.steps.map((s) => s.qualified);
    };
    // A climb asks with the question itself: `runRoute` reaches buildRouteError only by `throw buildRouteError(path)`.
    expect(await callers("How does a route build its middleware description?")).toEqual([]);
    // Its callers on the error path (`throw`, and a `catch` block in safeRoute) are listed when errors are asked about.
    expect(await callers("What error does a route build when its middleware is missing?")).toEqual(["runRoute", "safeRoute"]);
    expect(await callers("Who calls buildRouteError?")).toEqual(["runRoute", "safeRoute"]);
  });

  it("follows them when the question asks about the error", async () => {
    const { steps, exits } = await reached("What error is thrown when a route has no middleware procedure?");
    expect(steps.has("buildRouteError")).toBe(true);
    expect(steps.has("describeRoute")).toBe(true);
    expect(exits).toContain("RouteError");
    expect((await reached("What error is thrown when a route has no middleware procedure?", "safeRoute")).steps.has("buildRouteError")).toBe(true);
  });
});
