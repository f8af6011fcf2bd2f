// Python's dispatch by a built name (`getattr(self, "do_" + command)()`, PGC.md rule 9): the extraction
// records the literal prefix and its line; the call graph links the call to the methods of the caller's
// class family named by it, through the pseudo-field `do_*`, cited at the prefix's line and each method's
// `def`; the search follows one only when the question names it; the manager's check takes such an edge
// only with those two lines. Over synthetic code for the shapes, and over Python 3.11's http.server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { citationHash, dispatchPrefix } from "../../../agents/protocol/index.js";
import { checkChain, type CheckableStep } from "../../../agents/manager/validation/index.js";

const SHAPES = [
  "class Handler(Base):",
  "    def at_once(self, command):",
  "        return getattr(self, 'do_' + command)()",
  "    def two_steps(self, node):",
  "        visitor = getattr(self, f'visit_{type(node).__name__}', None)",
  "        return visitor(node)",
  "    def three_steps(self):",
  "        mname = 'cmd_%s' % self.command",
  "        method = getattr(self, mname)",
  "        method()",
  "    def not_self(self, other, name):",
  "        return getattr(other, 'do_' + name)()",
  "    def open_ended(self, event):",
  "        return getattr(self, 'on' + event)()",
  "    def reassigned(self, name):",
  "        meth = getattr(self, '_handle_' + name, None)",
  "        meth = self.fallback",
  "        meth()",
  "    def nested(self, name):",
  "        def inner():",
  "            fn = getattr(self, 'do_' + name)",
  "        fn = self.other",
  "        fn()",
  "",
].join("\n");

describe("Python's dispatch by a built name", () => {
  it("records the prefix and its literal's line for getattr on self, at once or through names assigned it", async () => {
    const parsed = await parseFile({ path: "handler.py", content: SHAPES, language: "python" });
    const dispatched = parsed.calls.filter((c) => c.dispatch).map((c) => ({ caller: c.caller, call: c.line, prefix: c.dispatch?.prefix, literal: c.dispatch?.line }));
    expect(dispatched).toEqual([
      { caller: "at_once", call: 3, prefix: "do_", literal: 3 },
      { caller: "two_steps", call: 6, prefix: "visit_", literal: 5 },
      { caller: "three_steps", call: 10, prefix: "cmd_", literal: 8 },
    ]);
    // Another object's attribute, a prefix without its underscore, a name reassigned before the call and an
    // assignment in a nested function are not dispatches.
    expect(parsed.calls.filter((c) => c.dispatch && ["not_self", "open_ended", "reassigned", "nested"].includes(c.caller ?? ""))).toEqual([]);
    expect(dispatchPrefix("do_*")).toBe("do_");
    expect(dispatchPrefix("ndo_start_xmit")).toBeNull();
  });
});

const STDLIB = "/usr/lib/python3.11";
const available = existsSync(join(STDLIB, "http", "server.py"));

describe.skipIf(!available)("dispatch over Python 3.11's http.server", () => {
  let root: string;
  let cache: string;
  let pgc: Pgc;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "mesh-dispatch-"));
    cache = mkdtempSync(join(tmpdir(), "mesh-dispatch-cache-"));
    cpSync(join(STDLIB, "http"), join(root, "http"), { recursive: true });
    const opened = await openPgc({ scope: "http", root, scopePaths: ["http/"], cacheRoot: cache, logger: pino({ level: "silent" }), threads: 1 });
    pgc = new Pgc("http", ["http/"], opened);
  }, 120_000);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it("follows handle_one_request's do_ dispatch to the method the question names, citing the prefix's line and its def", async () => {
    const question = parseQuestion("How does http.server answer a HEAD request with the file's headers?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "BaseHTTPRequestHandler.handle_one_request" }, covered: {} });
    const best = result.leads[0];
    expect(best).toBeDefined();
    const path = (best?.path ?? []).map((i) => result.steps[i]?.qualified);
    expect(path.slice(0, 3)).toEqual(["BaseHTTPRequestHandler.handle_one_request", "SimpleHTTPRequestHandler.do_HEAD", "SimpleHTTPRequestHandler.send_head"]);
    const site = best?.call_sites[0];
    expect(site?.text).toMatch(/mname = 'do_' \+ self\.command/);
    expect(site?.bound_at).toMatchObject({ field: "do_*", text: "    def do_HEAD(self):" });
    // The edge checks as the manager checks it, from the files as they are.
    const read = (path: string) => readFileSync(join(root, path), "utf8");
    const stepOf = (i: number, role: CheckableStep["role"], callSite: CheckableStep["call_site"]): CheckableStep => {
      const step = result.steps[best?.path[i] ?? -1];
      return { symbol: step?.qualified ?? "", role, file_path: step?.file_path ?? "", line_start: step?.cite.line_start ?? 0, line_end: step?.cite.line_end ?? 0, sha256: step?.cite.sha256 ?? "", call_site: callSite };
    };
    const sources = { readFile: async (path: string) => read(path) };
    const chain = [stepOf(0, "entry", null), stepOf(1, "callee", site ?? null)];
    expect(await checkChain(chain, sources)).toMatchObject({ kept: 2, cut: null });
    // The same edge cited at the call line (`method()`), which writes no prefix, or bound at another line, is cut.
    const text = read("http/server.py");
    const lineAt = (n: number) => text.split("\n")[n - 1] ?? "";
    const callLine = text.split("\n").findIndex((l) => l.trim() === "method()") + 1;
    const elsewhere = { ...(site as NonNullable<typeof site>), line: callLine, text: lineAt(callLine), sha256: citationHash(lineAt(callLine)) };
    expect((await checkChain([chain[0] as CheckableStep, stepOf(1, "callee", elsewhere)], sources)).cut?.reason).toContain('does not build a name from "do_"');
    const boundElsewhere = { ...(site as NonNullable<typeof site>), bound_at: { ...(site?.bound_at as NonNullable<NonNullable<typeof site>["bound_at"]>), line: callLine, text: lineAt(callLine), sha256: citationHash(lineAt(callLine)) } };
    expect((await checkChain([chain[0] as CheckableStep, stepOf(1, "callee", boundElsewhere)], sources)).cut?.reason).toContain("does not define do_HEAD");
  });

  it("does not pick one of the methods when the question names none, and leaves the dispatch as an exit", async () => {
    const question = parseQuestion("How does http.server's BaseHTTPRequestHandler handle one request?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "BaseHTTPRequestHandler.handle_one_request" }, covered: {} });
    const reached = new Set(result.leads.flatMap((l) => l.path.map((i) => result.steps[i]?.qualified)));
    expect([...reached].filter((s) => /\.do_[A-Z]+$/.test(s ?? ""))).toEqual([]);
    expect(result.leads.some((l) => l.exit?.via === "field" && l.exit.target === "do_*")).toBe(true);
    expect(pgc.facts().field_calls?.["do_*"]).toBe(1);
  });

  it("another scope reaches the dispatched method through the pseudo-field: the one its question names, bound at its def", async () => {
    const question = parseQuestion("How does the server answer a HEAD request?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "do_*", field: true, called: true }, covered: {} });
    expect(result.resolved).toBe(true);
    expect(result.steps[0]?.qualified).toBe("SimpleHTTPRequestHandler.do_HEAD");
    expect(result.bound_at).toMatchObject({ field: "do_*", text: "    def do_HEAD(self):" });
  });

  it("names the dispatches that may reach a method, and lists their callers when asked through the pseudo-field", async () => {
    const question = parseQuestion("Who sends the headers of a HEAD request?");
    const forward = await pgc.search().expand({ question, mode: "forward", from: { symbol: "SimpleHTTPRequestHandler.do_HEAD" }, covered: {}, max_depth: 0 });
    expect(forward.entry_fields).toEqual([expect.objectContaining({ field: "do_*", text: "    def do_HEAD(self):" })]);
    const callers = await pgc.search().expand({ question, mode: "callers", from: { symbol: "do_*", field: true }, covered: {} });
    expect(callers.steps.map((s) => s.qualified)).toEqual(["BaseHTTPRequestHandler.handle_one_request"]);
    expect(callers.leads[0]?.exit?.call_site.text).toMatch(/mname = 'do_' \+ self\.command/);
  });
});
