// TypeScript and Python extraction on the small fixtures: symbols, docs, imports and references out of scope.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { extractFile, extractScope, type ScopeExtractionResult } from "../../../agents/pgc/overlays/index.js";
import { PY_SMALL_DIR, TS_SMALL_DIR } from "../../fixtures/fixture-paths.js";
import { fieldTermsOf } from "../../../agents/pgc/callgraph/node-terms.js";
import type { CodeSymbol } from "../../../agents/pgc/types.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { matchTerms } from "../../../agents/search/relevance.js";

let ts: ScopeExtractionResult;
let py: ScopeExtractionResult;

beforeAll(async () => {
  [ts, py] = await Promise.all([
    extractScope({ root: TS_SMALL_DIR, gitHistory: false }),
    extractScope({ root: PY_SMALL_DIR, gitHistory: false }),
  ]);
});

const summary = (result: ScopeExtractionResult) =>
  result.symbols.map((symbol) => [symbol.file_path, symbol.kind, symbol.name, symbol.line_start, symbol.line_end]);

describe("TypeScript", () => {
  it("finds functions, exported arrow functions, classes, methods, interfaces, type aliases and module-level values", () => {
    expect(summary(ts)).toEqual([
      ["src/format.ts", "function", "formatEntry", 5, 5],
      ["src/format.ts", "function", "describeStore", 8, 10],
      ["src/format.ts", "function", "evaluateTemplate", 13, 15],
      ["src/index.ts", "interface", "PutRequest", 8, 11],
      ["src/index.ts", "variable", "PutRequestSchema", 13, 13],
      ["src/index.ts", "function", "handlePut", 18, 22],
      ["src/index.ts", "function", "reportStatus", 25, 28],
      ["src/store.ts", "variable", "MAX_ENTRIES", 4, 4],
      ["src/store.ts", "interface", "StoreOptions", 7, 10],
      ["src/store.ts", "type", "Key", 12, 12],
      ["src/store.ts", "class", "KeyValueStore", 18, 39],
      ["src/store.ts", "method", "constructor", 21, 21],
      ["src/store.ts", "method", "get", 24, 26],
      ["src/store.ts", "method", "set", 29, 34],
      ["src/store.ts", "method", "size", 36, 38],
    ]);
  });

  it("attaches JSDoc to exported declarations and methods", () => {
    const byName = new Map(ts.symbols.map((symbol) => [symbol.name, symbol]));
    expect(byName.get("handlePut")?.doc).toBe("Handles one put request: validates it, stores the value and returns the formatted entry.");
    expect(byName.get("KeyValueStore")).toMatchObject({ doc_line_start: 14, doc_line_end: 17 });
    expect(byName.get("KeyValueStore")?.doc).toBe("A bounded in-memory key-value store.\nInvariant: the store holds at most MAX_ENTRIES entries.");
    expect(byName.get("set")).toMatchObject({ container: "KeyValueStore", params: 2, returns: "boolean" });
    expect(byName.get("formatEntry")).toMatchObject({ params: 2, returns: "string", signature: "export const formatEntry = (key: string, value: string): string" });
  });

  it("resolves relative imports to .ts sources and reports the external package", () => {
    expect(ts.imports.map((edge) => [edge.file_path, edge.target, edge.resolved_path])).toEqual([
      ["src/format.ts", "./store.js", "src/store.ts"],
      ["src/index.ts", "node:child_process", undefined],
      ["src/index.ts", "zod", undefined],
      ["src/index.ts", "./format.js", "src/format.ts"],
      ["src/index.ts", "./store.js", "src/store.ts"],
    ]);
    expect(ts.crossScopeReferences.filter((r) => r.kind === "import")).toEqual([{ kind: "import", target: "zod", spec: "zod", from_file: "src/index.ts", line: 3 }]);
    // `z.object(…)` after `import { z } from "zod"`: zod is a dependency in the fixture's package.json, a
    // foreign package (PGC.md, "foreign modules"), so its members' calls are no references of the code base.
    expect(ts.crossScopeReferences.filter((r) => r.kind === "call")).toEqual([]);
  });

  it("makes a module-level value a symbol that owns the calls in its initializer; locals and module loads are not", async () => {
    const content = [
      'const cp = require("child_process");',
      "export const MAX = 1000, MIN = 1;",
      "/** The string schema. */",
      'export const ZodString = core.$constructor("ZodString", (inst, def) => {',
      "  core.$ZodString.init(inst, def);",
      "});",
      "const { a, b } = obj;",
      "function g() { const inner = make(); return inner; }",
      'const mod = await import("./m.js");',
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/schemas.ts", content });
    expect(parsed.symbols.map((s) => [s.kind, s.name, s.line_start, s.line_end])).toEqual([
      ["variable", "MAX", 2, 2],
      ["variable", "MIN", 2, 2],
      ["variable", "ZodString", 4, 6],
      ["function", "g", 8, 8],
    ]);
    const zodString = parsed.symbols.find((s) => s.name === "ZodString");
    expect(zodString).toMatchObject({ doc: "The string schema.", signature: 'export const ZodString = core.$constructor("ZodString", (inst, def) => {' });
    expect(parsed.symbols.find((s) => s.name === "MIN")?.signature).toBe("export const MIN = 1");
    expect(parsed.calls.filter((c) => c.caller !== null).map((c) => [c.callee, c.caller])).toEqual([
      ["core.$constructor", "ZodString"],
      ["core.$ZodString.init", "ZodString"],
      ["make", "g"],
    ]);
  });

  it("names the class of the object a method call goes through when the calling function says it", async () => {
    const content = [
      'import { Doc } from "./doc";',
      "export function build(shape: Shape, sink: Subscriber<number>, n: number) {",
      "  const doc = new Doc([]);",
      "  doc.compile();",
      "  sink.next(1);",
      "  new Parser().parse(shape);",
      "  let other = makeThing();",
      "  other.go();",
      "  let both = new Left();",
      "  both = new Right();",
      "  both.run();",
      "  n.toFixed(2);",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/build.ts", content });
    const classes = Object.fromEntries(parsed.calls.filter((c) => c.callee.includes(".")).map((c) => [c.callee, c.receiver_class ?? null]));
    expect(classes).toEqual({ "doc.compile": "Doc", "sink.next": "Subscriber", "new Parser().parse": "Parser", "other.go": null, "both.run": null, "n.toFixed": null });
  });

  it("names the class of a field of the caller's own object: private fields, parameter properties, fields set from typed parameters", async () => {
    const content = [
      "export class QueryObserver {",
      "  #client: QueryClient;",
      "  #cache = new QueryCache();",
      "  constructor(private readonly store: Store, client: QueryClient, other) {",
      "    this.#client = client;",
      "    this.other = other;",
      "  }",
      "  run() {",
      "    this.#client.fetch();",
      "    this.#cache.build();",
      "    this.store.dispatch();",
      "    this.other.go();",
      "  }",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/observer.ts", content });
    const classes = Object.fromEntries(parsed.calls.filter((c) => c.caller === "run").map((c) => [c.callee, c.receiver_class ?? null]));
    expect(classes).toEqual({ "this.#client.fetch": "QueryClient", "this.#cache.build": "QueryCache", "this.store.dispatch": "Store", "this.other.go": null });
    const py = [
      "class Session:",
      "    adapter: HTTPAdapter",
      "    def __init__(self, policy: Policy, pool, hooks):",
      "        self.policy = policy",
      "        self.pool: PoolManager = pool",
      "        self.hooks = hooks",
      "    def send(self):",
      "        self.adapter.send()",
      "        self.policy.check()",
      "        self.pool.urlopen()",
      "        self.hooks.run()",
    ].join("\n");
    const fromPython = await extractFile({ path: "pkg/sessions.py", content: py });
    expect(Object.fromEntries(fromPython.parsed.calls.map((c) => [c.callee, c.receiver_class ?? null]))).toEqual({
      "self.adapter.send": "HTTPAdapter",
      "self.policy.check": "Policy",
      "self.pool.urlopen": "PoolManager",
      "self.hooks.run": null,
    });
  });

  it("makes a function defined inside another a symbol of its own, reached from the function defining it", async () => {
    const content = [
      "export function createListenerMiddleware(options) {",
      "  const startListening = ((entry) => {",
      "    return insertEntry(entry);",
      "  }) as AddListener;",
      "  function stopAll() { clear(); }",
      "  const count = 0;",
      "  return { startListening, stopAll, count };",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/listener.ts", content });
    expect(parsed.symbols.map((s) => [s.kind, s.name, s.line_start, s.line_end])).toEqual([
      ["function", "createListenerMiddleware", 1, 8],
      ["function", "startListening", 2, 4],
      ["function", "stopAll", 5, 5],
    ]);
    // The calls in a closure are its own; its definition line is where the enclosing function reaches it.
    expect(parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["startListening", "createListenerMiddleware", 2],
      ["insertEntry", "startListening", 3],
      ["stopAll", "createListenerMiddleware", 5],
      ["clear", "stopAll", 5],
    ]);
    const py = ["def retry(f):", "    def wrapper(*args):", "        return f(*args)", "    return wrapper"].join("\n");
    const nested = await extractFile({ path: "pkg/retry.py", content: py });
    expect(nested.parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["wrapper", "retry", 2],
      ["f", "wrapper", 3],
    ]);
  });

  it("makes a class field holding a function a method of the class, the caller of the calls in its body", async () => {
    const content = [
      "export class Collection {",
      "  private size = 0;",
      "  /** Inserts rows. */",
      "  public insert = (rows: Row[]) => {",
      "    return this.mutations.insert(rows);",
      "  };",
      "  remove = async function (key: string) { return drop(key); };",
      "  label = format(\"collection\");",
      "  update(key: string) { return this.insert([key]); }",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/collection.ts", content });
    expect(parsed.symbols.map((s) => [s.kind, s.name, s.container ?? null, s.line_start, s.line_end])).toEqual([
      ["class", "Collection", null, 1, 10],
      ["method", "insert", "Collection", 4, 6],
      ["method", "remove", "Collection", 7, 7],
      ["method", "update", "Collection", 9, 9],
    ]);
    expect(parsed.symbols[1]?.doc).toContain("Inserts rows.");
    expect(parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["this.mutations.insert", "insert", 5],
      ["drop", "remove", 7],
      ["format", null, 8],
      ["this.insert", "update", 9],
    ]);
    const js = await extractFile({ path: "src/widget.js", content: "class Widget {\n  onClick = () => render();\n}\n" });
    expect(js.parsed.symbols.map((s) => [s.kind, s.name, s.container ?? null])).toEqual([
      ["class", "Widget", null],
      ["method", "onClick", "Widget"],
    ]);
  });

  it("keeps a named function expression's own name beside the variable's, and matches a question by either", async () => {
    const content = [
      "export function createInputMiddleware(parse) {",
      "  const inputMiddleware: AnyMiddlewareFunction =",
      "    async function inputValidatorMiddleware(opts) {",
      "      return opts.next({ input: await parse(opts.input) });",
      "    };",
      "  return inputMiddleware;",
      "}",
      "export const handler = function handler(req) { return req; };",
      "export const plain = () => 1;",
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/middleware.ts", content });
    expect(parsed.symbols.map((s) => [s.name, s.also_named, s.line_start])).toEqual([
      ["createInputMiddleware", undefined, 1],
      ["inputMiddleware", "inputValidatorMiddleware", 2],
      ["handler", undefined, 8],
      ["plain", undefined, 9],
    ]);
    const terms = fieldTermsOf(parsed.symbols[1] as CodeSymbol);
    expect([...terms.symbol]).toEqual(["inputmiddleware", "inputvalidatormiddleware"]);
    const question = parseQuestion("Where is the input validated?");
    expect(matchTerms(question, terms).map((m) => [m.term, m.field])).toEqual(expect.arrayContaining([["valid", "name"]]));
  });

  it("takes reading a property of the object's own class as calling its getter", async () => {
    const py = [
      "class Response:",
      "    @property",
      "    def text(self):",
      "        encoding = self.apparent_encoding",
      "        self.encoding = encoding",
      "        return self.content.decode(encoding)",
      "    @property",
      "    def apparent_encoding(self):",
      "        return detect(self.raw)",
      "    @functools.cached_property",
      "    def content(self):",
      "        return self.raw.read()",
    ].join("\n");
    const { parsed } = await extractFile({ path: "pkg/models.py", content: py });
    // `self.encoding` is assigned, `self.raw` is no property: neither is a call.
    expect(parsed.calls.filter((c) => c.callee.startsWith("self.") && !c.callee.endsWith(")")).map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["self.apparent_encoding", "text", 4],
      ["self.content.decode", "text", 6],
      ["self.content", "text", 6],
      ["self.raw.read", "content", 12],
    ]);
    const ts = ["class Store {", "  get size() { return this.items.length; }", "  count() { return this.size + this.other; }", "}"].join("\n");
    const fromTs = await extractFile({ path: "src/store.ts", content: ts });
    expect(fromTs.parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([["this.size", "count", 3]]);
  });

  it("follows require(), re-exports and imports bound to calls", async () => {
    const content = [
      'const cp = require("child_process");',
      'const { readFileSync } = require("node:fs");',
      'export { helper } from "../lib/helper.js";',
      'import { render } from "ui-kit";',
      "export function run(cmd) { cp.exec(cmd + ' now'); render(readFileSync(cmd)); }",
    ].join("\n");
    const { parsed } = await extractFile({ path: "src/run.js", content });
    expect(parsed.imports.map((edge) => edge.target)).toEqual(["child_process", "node:fs", "../lib/helper.js", "ui-kit"]);
    expect(parsed.calls.filter((call) => call.imported_from).map((call) => [call.callee, call.imported_from])).toEqual([
      ["render", "ui-kit"],
      ["readFileSync", "node:fs"],
    ]);
    expect(parsed.risks.map((risk) => risk.api)).toEqual(["cp.exec"]);
  });
});

describe("Python", () => {
  it("finds classes, methods and functions with docstrings", () => {
    expect(summary(py)).toEqual([
      ["inventory/pricing.py", "function", "total_price", 8, 10],
      ["inventory/pricing.py", "function", "fetch_rates", 13, 15],
      ["inventory/pricing.py", "function", "print_report", 18, 20],
      ["inventory/stock.py", "class", "Inventory", 9, 26],
      ["inventory/stock.py", "method", "__init__", 15, 17],
      ["inventory/stock.py", "method", "add", 19, 22],
      ["inventory/stock.py", "method", "value", 24, 26],
      ["inventory/stock.py", "function", "load_inventory", 29, 36],
    ]);
    const inventory = py.symbols.find((symbol) => symbol.name === "Inventory");
    expect(inventory).toMatchObject({ doc_line_start: 10, doc_line_end: 13, members: 3 });
    expect(inventory?.doc).toBe("A bounded collection of items.\n\nInvariant: the inventory holds at most MAX_ITEMS items.");
    expect(py.symbols.find((symbol) => symbol.name === "add")).toMatchObject({ params: 2, container: "Inventory", doc: "Add one item with its price." });
  });

  it("resolves relative imports and keeps the standard library in scope", () => {
    expect(py.imports.map((edge) => [edge.file_path, edge.target, edge.resolved_path])).toEqual([
      ["inventory/__init__.py", ".stock", "inventory/stock.py"],
      ["inventory/pricing.py", "subprocess", undefined],
      ["inventory/pricing.py", "decimal", undefined],
      ["inventory/pricing.py", "requests", undefined],
      ["inventory/stock.py", "yaml", undefined],
      ["inventory/stock.py", ".pricing", "inventory/pricing.py"],
    ]);
    expect(py.crossScopeReferences).toEqual([
      // requests and yaml are nowhere in the root: foreign packages (PGC.md, "foreign modules"), imported,
      // but `http_get(url)` (`from requests import get as http_get`) and `yaml.load(…)` are no calls of the code base.
      { kind: "import", target: "requests", spec: "requests", from_file: "inventory/pricing.py", line: 5 },
      { kind: "import", target: "yaml", spec: "yaml", from_file: "inventory/stock.py", line: 2 },
    ]);
  });

  it("reads the module docstring", () => {
    const [init] = py.extractions.filter((extraction) => extraction.file.path === "inventory/__init__.py");
    expect(init?.parsed.module_doc).toEqual({
      text: "Inventory: track items and what they cost.\n\nThe package keeps items in memory; prices come from the pricing module.",
      line_start: 1,
      line_end: 4,
    });
  });
});

/** Each method call of a file (but those through the module `skip` names) → the class its receiver is known to be, or null. */
async function receiverClasses(path: string, content: string, skip: string): Promise<Record<string, string | null>> {
  const { parsed } = await extractFile({ path, content });
  return Object.fromEntries(parsed.calls.filter((c) => c.callee.includes(".") && !c.callee.startsWith(skip)).map((c) => [c.callee, c.receiver_class ?? null]));
}

describe("calls through another scope's module namespace", () => {
  it("names the class of the object a method call goes through: a local built from a class, a typed parameter, a constructor's result", async () => {
    const content = [
      "from email import generator",
      "class Sender:",
      '    def send(self, msg: "Message", out, count: int):',
      "        g = generator.BytesGenerator(out)",
      "        g.flatten(msg)",
      "        Parser(policy=1).parsestr('x')",
      "        msg.as_string()",
      "        out.write(b'')",
      "        count.bit_length()",
    ].join("\n");
    expect(await receiverClasses("mail/send.py", content, "generator.")).toEqual({ "g.flatten": "BytesGenerator", "Parser(policy=1).parsestr": "Parser", "msg.as_string": "Message", "out.write": null, "count.bit_length": null });
  });

  it("names the class of a variable first set to None (`conn = None`, then `conn = Connection(…)`), and none of one given two classes", async () => {
    const content = [
      "def create_connection(address):",
      "    sock = None",
      "    for res in getaddrinfo(address):",
      "        sock = Connection(res)",
      "        sock.connect(res)",
      "    err = None",
      "    err = Error() if sock else Warning()",
      "    err.note()",
      "    other = Parser()",
      "    other = None",
      "    other.feed()",
    ].join("\n");
    expect(await receiverClasses("socket.py", content, "-")).toEqual({ "sock.connect": "Connection", "err.note": null, "other.feed": "Parser" });
  });

  it("names the class of an object a `with` statement binds from a constructor (`with sessions.Session() as session:`), and none for a call of a function", async () => {
    const content = [
      "from . import sessions",
      "def request(method, url):",
      "    with sessions.Session() as session:",
      "        return session.request(method=method, url=url)",
      "def read(path):",
      "    with open(path) as f:",
      "        return f.read()",
    ].join("\n");
    expect(await receiverClasses("requests/api.py", content, "sessions.")).toEqual({ "session.request": "Session", "f.read": null });
  });

  it("names the one class the branches of a choice construct: a default built when none is given (`s = session or Session()`)", async () => {
    const content = [
      "def print(file=None, session=None, parser=None):",
      "    write_console = get_console() if file is None else Console(file=file)",
      "    write_console.print('x')",
      "    s = session or Session()",
      "    s.request('GET')",
      "    parser = Parser() if file else Lexer()",
      "    parser.feed('x')",
    ].join("\n");
    expect(await receiverClasses("rich/__init__.py", content, "-")).toEqual({ "write_console.print": "Console", "s.request": "Session", "parser.feed": null });
    const ts = "export function make(opts: Options) {\n  const client = opts.client ?? new Client();\n  client.fetch();\n  const doc = opts.doc ? new Doc() : undefined;\n  doc.compile();\n}";
    const { parsed } = await extractFile({ path: "src/make.ts", content: ts });
    expect(Object.fromEntries(parsed.calls.filter((c) => /^(client|doc)\./.test(c.callee)).map((c) => [c.callee, c.receiver_class ?? null]))).toEqual({ "client.fetch": "Client", "doc.compile": "Doc" });
  });

  it("looks through optionality and unions in a parameter's annotation; `Optional` itself is no class", async () => {
    // Tried as a new user would on pip: `hash: Optional[str] = None` made `hash.split(…)` a call of a class `Optional`.
    const python = [
      "class ArchiveInfo:",
      "    def __init__(self, hash: Optional[str] = None, link: Optional[Link] = None, req: Union[Requirement, None] = None, cache: t.Optional['WheelCache'] = None, fmt: Dict[str, str] = {}):",
      '        hash.split("=")',
      "        link.is_wheel()",
      "        req.specifier()",
      "        cache.get(link)",
      "        fmt.items()",
    ].join("\n");
    const fromPython = await extractFile({ path: "models/direct_url.py", content: python });
    expect(Object.fromEntries(fromPython.parsed.calls.map((c) => [c.callee, c.receiver_class ?? null]))).toEqual({ "hash.split": null, "link.is_wheel": "Link", "req.specifier": "Requirement", "cache.get": "WheelCache", "fmt.items": "Dict" });
    const script = ["export function open(link: Link | undefined, opts?: Options | null) {", "  link.open();", "  opts.apply();", "}"].join("\n");
    const fromScript = await extractFile({ path: "src/open.ts", content: script });
    expect(Object.fromEntries(fromScript.parsed.calls.map((c) => [c.callee, c.receiver_class ?? null]))).toEqual({ "link.open": "Link", "opts.apply": "Options" });
  });

  it("keeps a declared class when the name is later assigned another (a subclass): the declaration is the contract", async () => {
    // aiohttp's ClientSession: `connector: Optional[BaseConnector] = None`, then `connector = TCPConnector(…)`
    // when none is given, then `self._connector = connector`; `self._connector.connect(…)` calls BaseConnector's.
    const python = [
      "class Session:",
      "    def __init__(self, connector: Optional[BaseConnector] = None, other=None):",
      "        if connector is None:",
      "            connector = TCPConnector()",
      "        connector.prepare()",
      "        other = Pool()",
      "        other = Queue()",
      "        other.put(1)",
      "        self._connector = connector",
      "    def request(self):",
      "        self._connector.connect()",
    ].join("\n");
    const fromPython = await extractFile({ path: "client.py", content: python });
    expect(Object.fromEntries(fromPython.parsed.calls.filter((c) => c.callee.includes(".")).map((c) => [c.callee, c.receiver_class ?? null]))).toEqual({
      "connector.prepare": "BaseConnector",
      "other.put": null,
      "self._connector.connect": "BaseConnector",
    });
    const script = ["export function open(link: Link, raw) {", "  link = new WebLink();", "  let pool: Pool = new LifoPool();", "  pool = makePool();", "  link.open();", "  pool.take();", "}"].join("\n");
    const fromScript = await extractFile({ path: "src/open.ts", content: script });
    expect(Object.fromEntries(fromScript.parsed.calls.filter((c) => c.callee.includes(".")).map((c) => [c.callee, c.receiver_class ?? null]))).toEqual({ "link.open": "Link", "pool.take": "LifoPool" });
  });

  it("counts `core.make()` after `import * as core` (and require) as a call of make from that module, and a lower-case default import's members too", async () => {
    const root = mkdtempSync(join(tmpdir(), "mesh-ns-calls-"));
    try {
      mkdirSync(join(root, "core"));
      mkdirSync(join(root, "classic"));
      writeFileSync(join(root, "core/index.ts"), "export function make(): number { return 1; }\n");
      writeFileSync(join(root, "core/util.ts"), "export default { helper(): number { return 2; } };\n");
      writeFileSync(
        join(root, "classic/a.ts"),
        [
          'import * as core from "../core/index.js";',
          'import util from "../core/util.js";',
          'const fs = require("../core/index.js");',
          "export function build(): number {",
          "  return core.make() + util.helper() + fs.make() + core.nested.deep();",
          "}",
          "",
        ].join("\n"),
      );
      const classic = await extractScope({ root, scopePaths: ["classic/"], gitHistory: false });
      const calls = classic.crossScopeReferences.filter((r) => r.kind === "call").map((r) => `${r.target}@${r.module ?? ""}`);
      expect(calls).toEqual(["helper@../core/util.js", "make@../core/index.js", "make@../core/index.js"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("takes a submodule `from . import helpers` names as its own import: a call through it leaves the scope where that module is another scope's", async () => {
    // aiohttp: client_reqrep.py's `from . import hdrs, helpers` with the package's __init__.py in its scope
    // and helpers.py in another; `helpers.parse_mimetype(…)` had counted as inside, and "Who calls
    // parse_mimetype?" did not ask client_reqrep's scope.
    const root = mkdtempSync(join(tmpdir(), "mesh-submodule-"));
    try {
      mkdirSync(join(root, "pkg"));
      writeFileSync(join(root, "pkg/__init__.py"), "from .hdrs import ACCEPT\n");
      writeFileSync(join(root, "pkg/hdrs.py"), "ACCEPT = 'Accept'\n");
      writeFileSync(join(root, "pkg/helpers.py"), "def parse_mimetype(value):\n    return value\n");
      writeFileSync(join(root, "pkg/client.py"), ["from . import hdrs, helpers", "", "def get_encoding(ctype):", "    return helpers.parse_mimetype(ctype) or hdrs.ACCEPT", ""].join("\n"));
      const client = await extractScope({ root, scopePaths: ["pkg/__init__.py", "pkg/hdrs.py", "pkg/client.py"], gitHistory: false });
      expect(client.crossScopeReferences.filter((r) => r.kind === "call").map((r) => `${r.target}@${r.module ?? ""}`)).toEqual(["parse_mimetype@.helpers"]);
      expect(client.crossScopeReferences.filter((r) => r.kind === "import").map((r) => r.resolved_outside)).toEqual(["pkg/helpers.py"]);
      // In one scope with the module, the call stays inside.
      const whole = await extractScope({ root, scopePaths: ["pkg/"], gitHistory: false });
      expect(whole.crossScopeReferences).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("counts a member call on a named import (`util.extend()` after `import { util }`) as a call through that module", async () => {
    const root = mkdtempSync(join(tmpdir(), "mesh-named-calls-"));
    try {
      mkdirSync(join(root, "core"));
      mkdirSync(join(root, "classic"));
      writeFileSync(join(root, "core/index.ts"), 'export * as util from "./util.js";\n');
      writeFileSync(join(root, "core/util.ts"), "export function extend(a: object): object { return a; }\n");
      writeFileSync(join(root, "classic/a.ts"), ['import { util } from "../core/index.js";', "export function grow(x: object): object {", "  return util.extend(x) && util.deep.more(x);", "}", ""].join("\n"));
      const classic = await extractScope({ root, scopePaths: ["classic/"], gitHistory: false });
      expect(classic.crossScopeReferences.filter((r) => r.kind === "call").map((r) => `${r.target}@${r.module ?? ""}`)).toEqual(["extend@../core/index.js"]);
      const core = await extractScope({ root, scopePaths: ["core/"], gitHistory: false });
      expect(core.imports.map((e) => [e.file_path, e.target, e.reexport ?? false])).toEqual([["core/index.ts", "./util.js", true]]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("marks `export … from` edges as re-exports, and plain imports as not", async () => {
    const content = ['import { a } from "./a.js";', 'export * from "./b.js";', 'export { c as d } from "./c.js";', 'export * as e from "./e.js";', "export const f = a;", ""].join("\n");
    const { parsed } = await extractFile({ path: "src/index.ts", content });
    expect(parsed.imports.map((e) => [e.target, e.reexport ?? false])).toEqual([
      ["./a.js", false],
      ["./b.js", true],
      ["./c.js", true],
      ["./e.js", true],
    ]);
  });
});
