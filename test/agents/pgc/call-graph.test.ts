// The scope call graph and the worker's local search, over code parsed for real: the demo kernel's C
// (calls, exits to other scopes, header inlines) and a small Python and TypeScript corpus written here
// (self/this methods, member calls, module attributes, constructors).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { basesOf, CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { nodeMatcher } from "../../../agents/pgc/callgraph/local-search.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { CODE_USE_STRENGTH, FIELD_STRENGTH, matchTerms, relevance, writtenIdentifiers } from "../../../agents/search/relevance.js";
import { ERROR_CLASS_PRIOR } from "../../../agents/search/error-priors.js";
import { tokenize } from "../../../agents/pgc/retrieval/index.js";
import { citationHash } from "../../../agents/protocol/index.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";
import { readFileSync } from "node:fs";

const logger = pino({ level: "silent" });
let cache: string;
let corpus: string;

async function open(root: string, scope: string, paths: string[]): Promise<Pgc> {
  const opened = await openPgc({ scope, root, scopePaths: paths, cacheRoot: cache, logger });
  return new Pgc(scope, paths, opened);
}

const SOURCES: Record<string, string> = {
  "shop/cart.py": [
    "from shop import pricing",
    "import json",
    "",
    "class Cart:",
    "    def __init__(self, owner):",
    "        self.owner = owner",
    "        self.items = []",
    "",
    "    def checkout(self):",
    "        total = self.total()",
    "        return json.dumps({'total': total})",
    "",
    "    def total(self):",
    "        return pricing.sum_prices(self.items)",
    "",
    "def new_cart(owner):",
    "    cart = Cart(owner)",
    "    return cart.checkout()",
    "",
  ].join("\n"),
  "shop/pricing.py": ["def sum_prices(items):", "    return sum(p for _, p in items)", ""].join("\n"),
  "desk/report.py": [
    "from shop import pricing",
    "from shop.cart import Cart",
    "import html",
    "from shop.cart import new_cart as open_cart",
    "from textwrap import dedent",
    "",
    "def escape(text):",
    "    return text",
    "",
    "def report(items):",
    "    Cart.describe(items)",
    "    html.escape(items)",
    "    open_cart(items)",
    "    dedent(items)",
    "    return pricing.sum_prices(items)",
    "",
  ].join("\n"),
  "desk/text.py": ["def dedent(text):", "    return text", ""].join("\n"),
  "web/server.ts": [
    'import { Router } from "../router/router";',
    "export class Server {",
    "  private router = new Router();",
    "  handle(path: string): string {",
    "    return this.dispatch(path);",
    "  }",
    "  private dispatch(path: string): string {",
    "    return this.router.route(path);",
    "  }",
    "}",
    "",
  ].join("\n"),
  "web/timers.ts": [
    "export const timerProvider = {",
    "  setTimer(handler: () => void, ms: number) {",
    "    return setTimeout(handler, ms);",
    "  },",
    "};",
    "export function schedule(handler: () => void): unknown {",
    "  return timerProvider.setTimer(handler, 10);",
    "}",
    'import * as parsing from "./parse.js";',
    "export const Timer = make(\"Timer\", (inst: { start(): unknown; parse(text: string): number }) => {",
    "  inst.start = () => schedule(() => undefined);",
    "  inst.parse = (text) => parsing.parse(text);",
    "  timerProvider.setTimer(() => undefined, 0);",
    "});",
    "declare function make<T>(name: string, init: (inst: T) => void): T;",
    "export function Clock(this: { tick(): void }) {",
    "  this.tick = function () { schedule(() => undefined); };",
    "}",
    "Clock.prototype.reset = function () { return timerProvider.setTimer(() => undefined, 0); };",
    "export class Watch {",
    "  constructor() {",
    "    this.lap = () => schedule(() => undefined);",
    "  }",
    "  lap: () => unknown;",
    "  parse(text: string): number { return text.length; }",
    "}",
    "",
  ].join("\n"),
  // A serial driver: one function stored into an ops table in another file, one handed to request_irq, one
  // exported, and a helper only called.
  "serial/ops.c": ["static const struct tty_operations foo_ops = {", "\t.write = foo_write,", "};", ""].join("\n"),
  "serial/foo.c": [
    "static int foo_fill_fifo(struct foo_port *port, const char *buf, int count)",
    "{",
    "\treturn count;",
    "}",
    "",
    "int foo_write(struct tty_struct *tty, const char *buf, int count)",
    "{",
    "\treturn foo_fill_fifo(tty->driver_data, buf, count);",
    "}",
    "",
    "static irqreturn_t foo_interrupt(int irq, void *dev_id)",
    "{",
    "\treturn IRQ_HANDLED;",
    "}",
    "",
    "int foo_write_room(struct tty_struct *tty)",
    "{",
    "\treturn 16;",
    "}",
    "EXPORT_SYMBOL(foo_write_room);",
    "",
    "static int foo_probe(struct device *dev)",
    "{",
    "\treturn request_irq(4, foo_interrupt, 0, \"foo\", dev);",
    "}",
    "",
  ].join("\n"),
  "sched/prio.c": [
    "int lock_task(struct task *p);",
    "int unlock_task(struct task *p);",
    "int task_state(struct task *p);",
    "int set_level(struct task *p, int level) {",
    "  lock_task(p);",
    "  if (task_state(p))",
    "    apply_level(p, level);",
    "  unlock_task(p);",
    "  return 0;",
    "}",
    "int get_level(struct task *p) { int v; lock_task(p); v = task_state(p); unlock_task(p); return v; }",
    "int drop_level(struct task *p) { lock_task(p); task_state(p); unlock_task(p); return 0; }",
    "",
  ].join("\n"),
  "web/parse.ts": ["export function parse(text: string): number {", "  return Number(text);", "}", ""].join("\n"),
  "web/values.ts": [
    "export class Store {",
    "  static create(): Store { return new Store(); }",
    "  stringify(): string { return \"\"; }",
    "}",
    "export function fresh(text: string): unknown {",
    "  const bag = Object.create(null);",
    "  const data = JSON.stringify(text);",
    "  return [bag, data, Store.create()];",
    "}",
    "",
  ].join("\n"),
  "ext/special.ts": [
    'import { Router } from "../router/router";',
    "export class SpecialRouter extends Router {",
    "  route(path: string): string {",
    "    return super.route(path).trim();",
    "  }",
    "}",
    "",
  ].join("\n"),
  "loop/events.py": [
    "class AbstractLoop:",
    "    def sock_connect(self, sock):",
    "        raise NotImplementedError",
    "",
    "class BaseLoop(AbstractLoop):",
    "    def connect(self, sock):",
    "        return self.sock_connect(sock)",
    "",
    "    def run(self):",
    "        return self.step()",
    "",
    "    def step(self):",
    "        return 0",
    "",
    "class FastLoop(BaseLoop):",
    "    def step(self):",
    "        return 1",
    "",
    "class OtherLoop:",
    "    def sock_connect(self, sock):",
    "        return sock",
    "",
    "class LoopError(Exception):",
    "    pass",
    "",
    "class Handler:",
    "    def handle(self, request):",
    "        return self.respond(request)",
    "",
    "    def respond(self, request):",
    '        """Writes the response."""',
    '        raise NotImplementedError("subclasses respond")',
    "",
    "class Sink:",
    "    @abstractmethod",
    "    def drain(self):",
    '        """Drains what is buffered."""',
    "",
    "    def finish(self):",
    "        self.drain()",
    "",
  ].join("\n"),
  "mail/send.py": [
    "from mail.base import Generator",
    "class BytesGenerator(Generator):",
    "    def write(self, text):",
    "        return text",
    "",
    "def send(msg, out):",
    "    g = BytesGenerator(out)",
    "    g.flatten(msg)",
    "    p = FeedParser()",
    "    p.feed(msg)",
    "",
  ].join("\n"),
  "mail/base.py": ["class Generator:", "    def flatten(self, msg):", "        return self.write(msg)", ""].join("\n"),
  "net/urls.py": [
    "class OpenerDirector:",
    "    def open(self, url):",
    "        return url",
    "",
    "class URLopener:",
    "    def open(self, url):",
    "        return url",
    "",
    "class FileCache:",
    "    def open(self, url):",
    "        return url",
    "",
    "def urlopen(url, opener, p):",
    "    p.open(url)",
    "    return opener.open(url)",
    "",
  ].join("\n"),
  "made/sessions.py": [
    "class Signer:",
    "    def sign(self, value):",
    "        return value",
    "",
    "class TimedSigner:",
    "    def sign(self, value):",
    "        return value",
    "",
    "class NullSigner:",
    "    def sign(self, value):",
    "        return value",
    "",
    "class Serializer:",
    "    def dumps(self, obj):",
    "        return obj",
    "",
    "class JSONish:",
    "    def dumps(self, obj):",
    "        return obj",
    "",
    "class Pickleish:",
    "    def dumps(self, obj):",
    "        return obj",
    "",
    "def make_signer(key):",
    "    if key:",
    "        return Signer()",
    "    return Signer()",
    "",
    "def make_any(key):",
    "    if key:",
    "        return Signer()",
    "    return TimedSigner()",
    "",
    "class SessionInterface:",
    '    def get_serializer(self, app) -> "Optional[Serializer]":',
    "        return None",
    "",
    "    def save(self, app, session):",
    "        value = self.get_serializer(app).dumps(session)",
    "        signer = make_signer(app)",
    "        other = make_any(app)",
    "        other.sign(value)",
    "        return signer.sign(value)",
    "",
  ].join("\n"),
  "made/store.py": [
    "class Cache:",
    "    def get(self, key):",
    "        return key",
    "",
    "class Encoder:",
    "    def encode(self, value):",
    "        return value",
    "",
    "_default = Encoder()",
    "",
    "def lookup(options, key):",
    "    options.get(key)",
    "    return _default.encode(key)",
    "",
    "def shadowed(_default):",
    "    return _default.encode(1)",
    "",
    "class Settings:",
    "    def read(self, path):",
    "        return path",
    "",
    "def load_text(path):",
    "    f = open(path)",
    "    return f.read()",
    "",
  ].join("\n"),
  "made/queue.ts": [
    "export class Queue { push(item: string): void {} drain(): void {} }",
    "const shared = new Queue();",
    "export function enqueue(items: string[], item: string): void {",
    "  items.push(item);",
    "  shared.drain();",
    "}",
    "",
  ].join("\n"),
  "made/show.ts": [
    "export class Doc { render(): string { return \"\"; } }",
    "export class Page { render(): string { return \"\"; } }",
    "export class Card { render(): string { return \"\"; } }",
    "function makeDoc() { return new Doc(); }",
    "async function loadPage(): Promise<Page | undefined> { return undefined; }",
    "export async function show(): Promise<string> {",
    "  const doc = makeDoc();",
    "  const page = await loadPage();",
    "  return doc.render() + page.render();",
    "}",
    "",
  ].join("\n"),
  "feeds/reader.py": [
    "class FeedParser:",
    "    def feed(self, data):",
    "        return data",
    "",
    "class Pipe:",
    "    def feed(self, data):",
    "        return data",
    "",
    "class Reader:",
    "    def __init__(self):",
    "        self.source = FeedParser()",
    "",
    "    def read(self, data):",
    "        return self.source.feed(data)",
    "",
  ].join("\n"),
  "feeds/transport.py": [
    "import pools",
    "",
    "class Transport:",
    "    def __init__(self, proxy=None):",
    "        if proxy is None:",
    "            self._pool = pools.ConnectionPool()",
    "        else:",
    "            self._pool = pools.HTTPProxy(proxy)",
    "        self.parser = LocalParser()",
    "        if proxy:",
    "            self.parser = pools.StreamParser()",
    "",
    "    def handle(self, request):",
    "        return self._pool.handle(request)",
    "",
    "    def parse(self, data):",
    "        return self.parser.feed(data)",
    "",
    "class LocalParser:",
    "    def feed(self, data):",
    "        return data",
    "",
  ].join("\n"),
  "feeds/doc.ts": [
    "export class Doc {",
    "  compile(): string {",
    "    return \"\";",
    "  }",
    "}",
    "export class Sheet {",
    "  compile(): string {",
    "    return \"\";",
    "  }",
    "}",
    "export class Builder {",
    "  private target = new Doc();",
    "  build(): string {",
    "    return this.target.compile();",
    "  }",
    "}",
    "",
  ].join("\n"),
  "router/router.ts": ["export class Router {", "  route(path: string): string {", "    return path.toUpperCase();", "  }", "}", ""].join("\n"),
  "nest/paced.ts": [
    'import { $Registry } from "../meta/registry";',
    "export function createPaced(strategy: { run(f: () => void): void }): (item: string) => number {",
    "  let pending = 0;",
    "  function apply(item: string): number {",
    "    pending += item.length;",
    "    return pending;",
    "  }",
    "  const mutate = (item: string): number => {",
    "    strategy.run(() => undefined);",
    "    return apply(item);",
    "  };",
    "  return mutate;",
    "}",
    "export class Generator {",
    "  private seen = new Map<string, number>();",
    "  registry: $Registry;",
    "  constructor(registry: $Registry) {",
    "    this.registry = registry;",
    "  }",
    "  process(item: string): number {",
    "    const known = this.seen.get(item);",
    "    const step1 = item.length + 1;",
    "    const step2 = item.length + 2;",
    "    const step3 = item.length + 3;",
    "    const step4 = item.length + 4;",
    "    const step5 = item.length + 5;",
    "    const step6 = item.length + 6;",
    "    const step7 = item.length + 7;",
    "    const step8 = item.length + 8;",
    "    const step9 = item.length + 9;",
    "    const step10 = item.length + 10;",
    "    const step11 = item.length + 11;",
    "    const step12 = item.length + 12;",
    "    const step13 = item.length + 13;",
    "    const step14 = item.length + 14;",
    "    const step15 = item.length + 15;",
    "    const step16 = item.length + 16;",
    "    const step17 = item.length + 17;",
    "    const step18 = item.length + 18;",
    "    const step19 = item.length + 19;",
    "    const step20 = item.length + 20;",
    "    const step21 = item.length + 21;",
    "    const step22 = item.length + 22;",
    "    const step23 = item.length + 23;",
    "    const step24 = item.length + 24;",
    "    const step25 = item.length + 25;",
    "    const step26 = item.length + 26;",
    "    const step27 = item.length + 27;",
    "    const step28 = item.length + 28;",
    "    const step29 = item.length + 29;",
    "    const step30 = item.length + 30;",
    "    const extra = this.registry.get(item);",
    "    return (known ?? 0) + extra;",
    "  }",
    "}",
    "",
  ].join("\n"),
  "nest/tables.ts": [
    "export class Table {",
    "  open(): number {",
    "    return 1;",
    "  }",
    "}",
    "export class Door {",
    "  open(): number {",
    "    return 2;",
    "  }",
    "}",
    "export function figure(path: string): number {",
    "  return Image.open(path);",
    "}",
    "export function enter(door: Door): number {",
    "  return door.open();",
    "}",
    "export function show(thing: { open(): number }): number {",
    "  return thing.open();",
    "}",
    "",
  ].join("\n"),
  "codec/encoder.py": [
    "import log",
    "",
    "def dumps(obj):",
    "    return Encoder().encode(obj)",
    "",
    "class Encoder:",
    "    def encode(self, o):",
    "        log.debug('start')",
    "        chunks = self.iterencode(o)",
    "        self.reset()",
    "        return ''.join(chunks)",
    "",
    "    def reset(self):",
    "        self.depth = 0",
    "",
    "    def iterencode(self, o):",
    "        return _make_iterencode(self.depth)(o)",
    "",
    "def _make_iterencode(depth):",
    "    def _iterencode(o):",
    "        yield str(o)",
    "    return _iterencode",
    "",
  ].join("\n"),
  "web/seating.py": ["def seat(path):", "    return path", ""].join("\n"),
  "nest/booking.py": [
    "from web.seating import seat",
    "",
    "class Table:",
    "    def seat(self):",
    "        return 3",
    "",
    "def book(path):",
    "    return seat(path)",
    "",
  ].join("\n"),
  "nest/retry.py": [
    "import functools",
    "",
    "class _Backoff:",
    "    def wait(self):",
    "        return 1",
    "",
    "def retrying(func):",
    "    @functools.wraps(func)",
    "    def wrapper(*args):",
    "        delay: _Backoff = _Backoff()",
    "        delay.wait()",
    "        return func(*args)",
    "    return wrapper",
    "",
  ].join("\n"),
};

beforeAll(() => {
  cache = mkdtempSync(join(tmpdir(), "callgraph-cache-"));
  corpus = mkdtempSync(join(tmpdir(), "callgraph-corpus-"));
  for (const [path, text] of Object.entries(SOURCES)) {
    mkdirSync(dirname(join(corpus, path)), { recursive: true });
    writeFileSync(join(corpus, path), text);
  }
});
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(corpus, { recursive: true, force: true });
});

describe("the call graph of C code", () => {
  it("links a function to what it calls in the scope, and calls into other scopes become exits with their line", async () => {
    const pgc = await open(C_KERNEL_DIR, "drivers", ["drivers/", "include/linux/e1000.h"]);
    const graph = new CallGraph(pgc.data);
    const [setup] = graph.named("e1000_setup_tx_resources");
    expect(setup).toBeDefined();
    const callees = graph.callsOf(setup!.id).map((e) => graph.nodes[e.to]?.name);
    expect(callees).toContain("e1000_setup_ring");
    const [ring] = graph.named("e1000_setup_ring");
    const exits = graph.exitsOf(ring!.id);
    const coherent = exits.find((e) => e.target === "dma_alloc_coherent");
    expect(coherent?.via).toBe("reference");
    const line = readFileSync(join(C_KERNEL_DIR, ring!.file_path), "utf8").split("\n")[(coherent?.line ?? 0) - 1];
    expect(line).toContain("dma_alloc_coherent(");
  });

  it("searches best-first from an entry and returns its exits, each step cited by a hash of its lines", async () => {
    const pgc = await open(C_KERNEL_DIR, "drivers", ["drivers/", "include/linux/e1000.h"]);
    const question = parseQuestion("How does the e1000 driver allocate DMA buffers?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "e1000_setup_tx_resources" }, covered: {} });
    expect(result.resolved).toBe(true);
    const toCoherent = result.leads.find((l) => l.exit?.target === "dma_alloc_coherent");
    expect(toCoherent?.path.map((i) => result.steps[i]?.symbol)).toEqual(["e1000_setup_tx_resources", "e1000_setup_ring"]);
    expect(toCoherent?.call_sites[0]?.text).toContain("e1000_setup_ring(");
    const text = readFileSync(join(C_KERNEL_DIR, result.steps[0]!.file_path), "utf8").split("\n");
    const step = result.steps[0]!;
    expect(citationHash(text.slice(step.cite.line_start - 1, step.cite.line_end).join("\n"))).toBe(step.cite.sha256);
    // A lock or a free is no lead: exits are ranked by what they add to the question.
    const ranked = result.leads.filter((l) => l.exit).map((l) => l.exit!.target);
    expect(ranked.indexOf("dma_alloc_coherent")).toBeLessThan(Math.max(0, ranked.indexOf("dma_free_coherent")) + 1);
  });

  it("answers who calls a name from an index made once: every call a scan of the scope's calls finds, by file and line, each answer a copy of its own", async () => {
    const pgc = await open(C_KERNEL_DIR, "drivers", ["drivers/", "include/linux/e1000.h"]);
    const graph = new CallGraph(pgc.data);
    const key = (c: { node: { qualified: string; file_path: string }; line: number; callee: string; field?: string }) => `${c.node.file_path}:${c.line} ${c.node.qualified} ${c.callee} ${c.field ?? ""}`;
    // The reference: every call of every function, scanned for the name.
    const scan = (name: string) => {
      const found: string[] = [];
      for (const node of graph.nodes) {
        for (const e of graph.callsOf(node.id)) if (!e.defines && (/[A-Za-z_$][\w$]*$/.exec(e.callee)?.[0] === name || e.bound?.field === name)) found.push(key({ node, line: e.line, callee: e.callee, ...(e.bound ? { field: e.bound.field } : {}) }));
        for (const e of graph.exitsOf(node.id)) if (e.target === name) found.push(key({ node, line: e.line, callee: e.callee, ...(e.via === "field" ? { field: e.target } : {}) }));
      }
      return found.sort();
    };
    const names = new Set(graph.nodes.flatMap((n) => [...graph.callsOf(n.id).map((e) => /[A-Za-z_$][\w$]*$/.exec(e.callee)?.[0] ?? e.callee), ...graph.exitsOf(n.id).map((e) => e.target)]));
    expect(names.size).toBeGreaterThan(20);
    for (const name of [...names, "no_such_function"]) {
      const callers = graph.callersOf(name);
      expect(callers.map(key).sort(), name).toEqual(scan(name));
      const order = callers.map((c) => [c.node.file_path, c.line] as const);
      expect(order, name).toEqual([...order].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]));
    }
    // A caller that changes what it was given changes nothing for the next one asking.
    const [first] = graph.callersOf("e1000_setup_ring");
    expect(first).toBeDefined();
    first!.line = -1;
    expect(graph.callersOf("e1000_setup_ring")[0]?.line).toBeGreaterThan(0);
  });

  it("orders exits that score alike by how few of the scope's functions call their callee: a flow's next step before a helper called from everywhere", async () => {
    const pgc = await open(corpus, "sched", ["sched/"]);
    const graph = new CallGraph(pgc.data);
    const [setLevel] = graph.named("set_level");
    const exits = graph.exitsOf(setLevel!.id);
    expect(exits.map((e) => e.target)).toEqual(["lock_task", "task_state", "apply_level", "unlock_task"]);
    expect(exits.map((e) => graph.callersOfExit(e))).toEqual([3, 3, 1, 3]);
    // Nothing the question asks names any of them: the one call only set_level makes comes first.
    const question = parseQuestion("How is the new value stored?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "set_level" }, covered: {} });
    const ranked = result.leads.filter((l) => l.exit).map((l) => [l.exit!.target, l.score]);
    expect(ranked[0]).toEqual(["apply_level", 0]);
    expect(ranked.slice(1).map(([target]) => target)).toEqual(["lock_task", "task_state", "unlock_task"]);
  });

  it("ends a path where it stops naming the question, not at the first function covering it: dumps → encode → iterencode → _make_iterencode → _iterencode", async () => {
    const pgc = await open(corpus, "codec", ["codec/"]);
    const question = parseQuestion("How does dumps encode an object?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "dumps" }, covered: {} });
    const endings = result.leads.filter((l) => l.exit === null);
    // encode covers what the question names; the calls after it name it again, and are where the work is done.
    expect(endings[0]?.path.map((i) => result.steps[i]?.qualified)).toEqual(["dumps", "Encoder.encode", "Encoder.iterencode", "_make_iterencode", "_iterencode"]);
    expect(endings.every((l) => l.coverage === endings[0]?.coverage)).toBe(true);
  });

  it("finds by its inverted index the same entry points as scoring every function", async () => {
    const pgc = await open(C_KERNEL_DIR, "drivers", ["drivers/", "include/linux/e1000.h"]);
    const graph = new CallGraph(pgc.data);
    // The entry index holds no bodies; for an identifier the question writes, the lexical index says which bodies use it.
    const bodies = new Map(pgc.data.docs.filter((d) => d.overlay === "O1").map((d) => [`${d.file_path}:${d.line_start}`, new Set(tokenize(Object.values(d.fields).join("\n")))]));
    for (const text of ["How does the e1000 driver allocate DMA buffers?", "When a frame is received, how does it reach the stack?", "Who calls netdev_priv?"]) {
      const question = parseQuestion(text);
      const identifiers = writtenIdentifiers(question);
      const uses = (node: (typeof graph.nodes)[number]) => new Set([...identifiers].filter((id) => bodies.get(`${node.file_path}:${node.line_start}`)?.has(id)));
      const all = graph.nodes
        .map((node) => ({ node, score: relevance(question, matchTerms(question, { ...node.terms, body: uses(node) })) }))
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, 5);
      const found = pgc.search().entry(question, 5).candidates;
      expect(found.map((c) => relevance(question, c.matches))).toEqual(all.map((s) => s.score));
    }
  });

  it("finds the functions whose bodies use an identifier the question writes (a flag, an option), which a prose word does not", async () => {
    const pgc = await open(C_KERNEL_DIR, "drivers", ["drivers/", "include/linux/e1000.h"]);
    // `E1000_COPYBREAK` is a constant, not a function: the functions testing it are where it is handled.
    const question = parseQuestion("How is E1000_COPYBREAK used when a frame is received?");
    const found = pgc.search().entry(question, 8).candidates;
    const uses = found.filter((c) => c.matches.some((m) => m.term === "e1000_copybreak" && m.field === "body"));
    expect(uses.length).toBeGreaterThan(0);
    for (const c of uses) {
      const body = readFileSync(join(C_KERNEL_DIR, c.file_path), "utf8").split("\n").slice(c.line_start - 1, c.line_end).join("\n");
      expect(body).toContain("E1000_COPYBREAK");
      expect(c.matches.find((m) => m.term === "e1000_copybreak")?.strength).toBe(CODE_USE_STRENGTH);
    }
    // A word written as prose ("copybreak") is a word of a body like any other, at FIELD_STRENGTH.body.
    const body = new Set(["e1000_copybreak", "copybreak"]);
    expect(matchTerms(parseQuestion("How is the copybreak used?"), { body }).find((m) => m.term === "copybreak")?.strength).toBe(FIELD_STRENGTH.body);
    expect(matchTerms(question, { body }).find((m) => m.term === "e1000_copybreak")?.strength).toBe(CODE_USE_STRENGTH);
  });

  it("offers entry points scored on the question, with how many of its functions match each term", async () => {
    const pgc = await open(C_KERNEL_DIR, "mm", ["mm/", "include/linux/mm.h", "include/linux/gfp.h", "include/linux/slab.h"]);
    const entry = pgc.search().entry(parseQuestion("Who calls kmalloc?"), 3);
    expect(entry.candidates[0]?.symbol).toBe("kmalloc");
    expect(entry.df["kmalloc"]).toBeGreaterThanOrEqual(1);
    expect(entry.nodes).toBeGreaterThan(entry.candidates.length);
  });

  it("says which entry points the code uses as values (stored into a field in any file, passed as an argument, exported) and which it only calls", async () => {
    const pgc = await open(corpus, "serial", ["serial/"]);
    const entry = pgc.search().entry(parseQuestion("How does a foo serial port write, fill its fifo, take an interrupt and report its write room?"), 8);
    const taken = Object.fromEntries(entry.candidates.map((c) => [c.symbol, c.address_taken ?? false]));
    expect(taken).toEqual({ foo_write: true, foo_interrupt: true, foo_write_room: true, foo_fill_fifo: false, foo_probe: false });
  });

  it("knows a function stored into a struct field by the field's name too: \"a program calls write()\" finds the ops table's write", async () => {
    const pgc = await open(corpus, "serial", ["serial/"]);
    const entry = pgc.search().entry(parseQuestion("When a program calls write() on a foo port, how is the fifo filled?"), 3);
    // `.write = foo_write` in ops.c: foo_write is what `tty->ops->write(…)` calls, whole; foo_write_room only has the word.
    expect(entry.candidates[0]?.symbol).toBe("foo_write");
    expect(entry.candidates[0]?.matches.find((m) => m.term === "write")).toMatchObject({ field: "bound", matched: "write", strength: FIELD_STRENGTH.bound });
    const room = entry.candidates.find((c) => c.symbol === "foo_write_room");
    expect(room?.matches.find((m) => m.term === "write")).toMatchObject({ field: "name" });
    expect(room?.matches.find((m) => m.term === "write")?.strength).toBeLessThan(FIELD_STRENGTH.name);
  });

  it("counts for a name the question writes only the functions named so or using it, not every function sharing its first word", async () => {
    const pgc = await open(C_KERNEL_DIR, "drivers", ["drivers/", "include/linux/e1000.h"]);
    const graph = new CallGraph(pgc.data);
    const sharing = graph.nodes.filter((n) => n.name.startsWith("e1000_")).length;
    const entry = pgc.search().entry(parseQuestion("How does e1000_xmit_frame hand a frame to the ring?"), 3);
    expect(entry.candidates[0]?.symbol).toBe("e1000_xmit_frame");
    // `e1000` is a word of every `e1000_*` function and the start of the name: no match of it (relevance.ts).
    expect(sharing).toBeGreaterThan(10);
    expect(entry.df["e1000_xmit_frame"]).toBeGreaterThanOrEqual(1);
    expect(entry.df["e1000_xmit_frame"]).toBeLessThan(5);
  });
});

describe("method calls in Python and TypeScript", () => {
  it("resolves self.m() to the caller's class, Foo() to Foo.__init__, and a module attribute call to an exit", async () => {
    const pgc = await open(corpus, "shop", ["shop/cart.py"]);
    const graph = new CallGraph(pgc.data);
    const [checkout] = graph.named("checkout");
    const names = (id: number) => graph.callsOf(id).map((e) => graph.nodes[e.to]?.qualified);
    expect(names(checkout!.id)).toContain("Cart.total");
    const [newCart] = graph.named("new_cart");
    expect(names(newCart!.id)).toEqual(expect.arrayContaining(["Cart.__init__", "Cart.checkout"]));
    const [total] = graph.named("total");
    expect(graph.exitsOf(total!.id).map((e) => e.target)).toContain("sum_prices");
  });

  it("makes a call through a module imported by name from its package a call into that module, and one through a class a method call", async () => {
    // `from shop import pricing`, then `pricing.sum_prices(…)`: shop/pricing.py's function, not a method of some object.
    const pgc = await open(corpus, "desk", ["desk/"]);
    const graph = new CallGraph(pgc.data);
    const [report] = graph.named("report");
    const exits = graph.exitsOf(report!.id);
    expect(exits).toContainEqual(expect.objectContaining({ target: "sum_prices", via: "reference", module: "shop.pricing", line: 15 }));
    // `from shop.cart import Cart`, then `Cart.describe(…)`: a capitalised name is a class.
    expect(exits).toContainEqual(expect.objectContaining({ target: "describe", via: "member", receiver_class: "Cart" }));
    expect(exits.find((e) => e.target === "describe")?.module).toBeUndefined();
  });

  it("links no call through a standard-library module the root does not hold, neither to a same-named function here nor as an exit", async () => {
    // `html.escape(…)` after `import html`: the standard library's, not desk's own `escape`, nor another scope's.
    const pgc = await open(corpus, "desk", ["desk/"]);
    const graph = new CallGraph(pgc.data);
    const [report] = graph.named("report");
    expect(graph.callsOf(report!.id).map((e) => graph.nodes[e.to]?.name)).not.toContain("escape");
    expect(graph.exitsOf(report!.id).map((e) => e.target)).not.toContain("escape");
    expect(pgc.data.calls).toContainEqual(expect.objectContaining({ callee: "html.escape", standard_module: true }));
    // `dedent(…)` after `from textwrap import dedent`: not desk/text.py's `dedent`.
    expect(graph.callsOf(report!.id).map((e) => graph.nodes[e.to]?.name)).not.toContain("dedent");
    expect(pgc.data.calls).toContainEqual(expect.objectContaining({ callee: "dedent", standard_module: true }));
  });

  it("follows a renamed import to the name its module defines, with the line that renames it", async () => {
    // `from shop.cart import new_cart as open_cart`, then `open_cart(items)`: a call of shop.cart's `new_cart`.
    const pgc = await open(corpus, "desk", ["desk/"]);
    const graph = new CallGraph(pgc.data);
    const [report] = graph.named("report");
    const exit = graph.exitsOf(report!.id).find((e) => e.line === 13);
    expect(exit).toMatchObject({ target: "new_cart", callee: "open_cart", via: "reference", module: "shop.cart", alias: { name: "open_cart", file_path: "desk/report.py", line: 4 } });
    // The topology hears of a call of `new_cart` from desk, as from any other importer.
    expect(pgc.data.crossScopeReferences).toContainEqual(expect.objectContaining({ kind: "call", target: "new_cart", from_file: "desk/report.py", line: 13 }));
  });

  it("resolves this.m() in TypeScript and makes a member call the scope cannot resolve an exit", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const graph = new CallGraph(pgc.data);
    const [handle] = graph.named("handle");
    expect(graph.callsOf(handle!.id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["Server.dispatch"]);
    const [dispatch] = graph.named("dispatch");
    expect(graph.exitsOf(dispatch!.id).map((e) => e.target)).toContain("route");
  });

  it("makes a module-level object's methods nodes, and resolves a call through the object's name to them", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const graph = new CallGraph(pgc.data);
    const [schedule] = graph.named("schedule");
    expect(graph.callsOf(schedule!.id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["timerProvider.setTimer"]);
  });

  it("makes a module-level value with a multi-line initializer a node, and its initializer's calls its edges", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const graph = new CallGraph(pgc.data);
    const [timer] = graph.named("Timer");
    expect(timer?.kind).toBe("variable");
    expect(graph.callsOf(timer!.id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["timerProvider.setTimer"]);
  });

  it("makes functions assigned to members methods: of a builder's value, a constructor function, a prototype and a class's constructor", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const graph = new CallGraph(pgc.data);
    const method = (qualified: string) => graph.nodes.find((n) => n.qualified === qualified);
    for (const name of ["Timer.start", "Clock.tick", "Clock.reset", "Watch.lap"]) expect(method(name)?.kind, name).toBe("method");
    // The calls in a member function's body are its own, not its builder's.
    expect(graph.callsOf(method("Timer.start")!.id).map((e) => graph.nodes[e.to]?.name)).toEqual(["schedule"]);
    expect(graph.callsOf(method("Clock.reset")!.id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["timerProvider.setTimer"]);
    // As a start, the value is its own body and its methods.
    const question = parseQuestion("How does the timer start?");
    const expanded = await pgc.search().expand({ question, mode: "forward", from: { symbol: "Timer" }, covered: {} });
    expect(expanded.steps.map((s) => s.qualified)).toEqual(expect.arrayContaining(["Timer", "Timer.start"]));
  });

  it("resolves a call through an imported module of the scope to that module's definition, among same-named ones", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const graph = new CallGraph(pgc.data);
    expect(graph.named("parse").map((n) => n.qualified).sort()).toEqual(["Timer.parse", "Watch.parse", "parse"]);
    const parse = graph.nodes.find((n) => n.qualified === "Timer.parse")!;
    expect(graph.callsOf(parse.id).map((e) => `${graph.nodes[e.to]?.file_path}:${graph.nodes[e.to]?.qualified}`)).toEqual(["web/parse.ts:parse"]);
  });

  it("starts a class from its methods as an entry, and from its constructor when a call reaches it", async () => {
    const pgc = await open(corpus, "shop", ["shop/cart.py"]);
    const question = parseQuestion("What does a cart checkout do?");
    const asEntry = await pgc.search().expand({ question, mode: "forward", from: { symbol: "Cart" }, covered: {} });
    expect(asEntry.steps[0]?.qualified).toBe("Cart.checkout");
    const asCall = await pgc.search().expand({ question, mode: "forward", from: { symbol: "Cart", called: true }, covered: {} });
    expect(asCall.steps[0]?.qualified).toBe("Cart.__init__");
  });

  it("resolves super.m() to the parent's method, an exit when the parent is another scope's, never to the caller itself", async () => {
    const pgc = await open(corpus, "ext", ["ext/"]);
    const graph = new CallGraph(pgc.data);
    const special = graph.named("route").find((n) => n.container === "SpecialRouter");
    expect(graph.callsOf(special!.id)).toEqual([]);
    expect(graph.exitsOf(special!.id).map((e) => e.target)).toContain("route");
    // The exit names the parent class, so the manager continues in the scope that defines it.
    expect(graph.exitsOf(special!.id).find((e) => e.target === "route")?.receiver_class).toBe("Router");
  });

  it("knows the scope's class hierarchy from the class declarations", async () => {
    const pgc = await open(corpus, "loop", ["loop/"]);
    const graph = new CallGraph(pgc.data);
    expect([...graph.superclassesOf("FastLoop")].sort()).toEqual(["AbstractLoop", "BaseLoop"]);
    expect([...graph.subclassesOf("AbstractLoop")].sort()).toEqual(["BaseLoop", "FastLoop"]);
    expect(basesOf("class A(b.B, C, metaclass=abc.ABCMeta):")).toEqual(["B", "C"]);
    expect(basesOf("export class Subject<T> extends Observable<T> implements SubscriptionLike")).toEqual(["Observable"]);
    expect(basesOf("class Foo : public Bar<int>, private Baz")).toEqual(["Bar", "Baz"]);
    expect(basesOf("class Plain:")).toEqual([]);
    // The head keeps the comments before the body (PyYAML's parser.py and constructor.py): they name no base,
    // and hide none (before, Parser had the bases `task` and `we`, and FullConstructor none).
    expect(basesOf("class Parser: # Since writing a recursive-descendant parser is a straightforward task, we # do not give many comments here.")).toEqual([]);
    expect(basesOf("class FullConstructor(SafeConstructor): # 'extend' is blacklisted because it is used by # construct_python_object_apply (to add `listitems`)")).toEqual(["SafeConstructor"]);
    expect(basesOf("class Foo: public Bar")).toEqual(["Bar"]);
  });

  it("resolves self.m() to the caller's method and its subclasses' overrides, and to the base's method and an exit when the class inherits it or its own has nothing to run", async () => {
    const pgc = await open(corpus, "loop", ["loop/"]);
    const graph = new CallGraph(pgc.data);
    const names = (id: number) => graph.callsOf(id).map((e) => graph.nodes[e.to]?.qualified).sort();
    const [run] = graph.named("run");
    expect(names(run!.id)).toEqual(["BaseLoop.step", "FastLoop.step"]);
    expect(graph.exitsOf(run!.id)).toEqual([]);
    // BaseLoop does not define sock_connect: its base's (not OtherLoop's, an unrelated class), and a subclass elsewhere may.
    const [connect] = graph.named("connect");
    expect(names(connect!.id)).toEqual(["AbstractLoop.sock_connect"]);
    expect(graph.exitsOf(connect!.id).map((e) => [e.target, e.via])).toEqual([["sock_connect", "member"]]);
    // The class's own method has nothing to run: a subclass implements it, perhaps in another scope.
    for (const [caller, callee] of [["handle", "Handler.respond"], ["finish", "Sink.drain"]] as const) {
      const [node] = graph.named(caller);
      expect(names(node!.id)).toEqual([callee]);
      expect(graph.exitsOf(node!.id).map((e) => [e.target, e.via])).toEqual([[callee.split(".")[1], "member"]]);
    }
    expect(graph.nodes.filter((n) => n.abstract).map((n) => n.qualified).sort()).toEqual(["AbstractLoop.sock_connect", "Handler.respond", "Sink.drain"]);
  });

  it("counts an exception class for half as a step of a path: raising it is where an error begins, not the work", async () => {
    const pgc = await open(corpus, "loop", ["loop/"]);
    const graph = new CallGraph(pgc.data);
    const question = parseQuestion("How does the loop raise a loop error?");
    const match = nodeMatcher(question, () => new Set(), graph);
    const [error] = graph.named("LoopError");
    const plain = matchTerms(question, error!.terms);
    expect(plain.length).toBeGreaterThan(0);
    expect(match(error!).map((m) => m.strength)).toEqual(plain.map((m) => m.strength * ERROR_CLASS_PRIOR));
    const [run] = graph.named("run");
    expect(match(run!)).toEqual(matchTerms(question, { ...run!.terms, body: new Set() }));
  });

  it("takes a callee reached through an object for a method: a free function of that name is not it", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const question = parseQuestion("How does schedule set a timer?");
    const asFunction = await pgc.search().expand({ question, mode: "forward", from: { symbol: "schedule", called: true }, covered: {} });
    expect(asFunction.resolved).toBe(true);
    const asMethod = await pgc.search().expand({ question, mode: "forward", from: { symbol: "schedule", called: true, member: true }, covered: {} });
    expect(asMethod.resolved).toBe(false);
    const method = await pgc.search().expand({ question, mode: "forward", from: { symbol: "setTimer", called: true, member: true }, covered: {} });
    expect(method.steps[0]?.qualified).toBe("timerProvider.setTimer");
  });

  it("resolves a call through an object of a known class to that class's method or its base's, else to an exit naming the class", async () => {
    const pgc = await open(corpus, "mail", ["mail/"]);
    const graph = new CallGraph(pgc.data);
    const [send] = graph.named("send");
    expect(graph.callsOf(send!.id).map((e) => graph.nodes[e.to]?.qualified)).toContain("Generator.flatten");
    expect(graph.exitsOf(send!.id).filter((e) => e.target === "feed").map((e) => [e.via, e.receiver_class])).toEqual([["member", "FeedParser"]]);
  });

  it("takes a capitalised receiver for a class: its own method, never a same-named one of the scope (Object.create, JSON.stringify)", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const graph = new CallGraph(pgc.data);
    const [fresh] = graph.named("fresh");
    expect(graph.callsOf(fresh!.id).map((e) => `${graph.nodes[e.to]?.qualified} at ${e.line}`)).toEqual(["Store.create at 8"]);
    expect(graph.exitsOf(fresh!.id).map((e) => [e.target, e.via, e.receiver_class])).toEqual([["create", "member", "Object"], ["stringify", "member", "JSON"]]);
  });

  it("resolves a call through a variable named after a class to that class's method, and through a short name to nothing", async () => {
    const pgc = await open(corpus, "net", ["net/"]);
    const graph = new CallGraph(pgc.data);
    const [urlopen] = graph.named("urlopen");
    expect(graph.callsOf(urlopen!.id).map((e) => `${graph.nodes[e.to]?.qualified} at ${e.line}`)).toEqual(["OpenerDirector.open at 15"]);
  });

  it("resolves a call through what a function returns to the class its annotation names, or the one class its returns construct", async () => {
    const pgc = await open(corpus, "made", ["made/"]);
    const graph = new CallGraph(pgc.data);
    const calls = (qualified: string) => graph.callsOf(graph.nodes.find((n) => n.qualified === qualified)!.id).map((e) => `${graph.nodes[e.to]?.qualified} at ${e.line}`);
    // `make_any` returns two classes: its result's `sign` is none of the three the scope defines.
    expect(calls("SessionInterface.save")).toEqual(["Serializer.dumps at 40", "SessionInterface.get_serializer at 40", "make_signer at 41", "make_any at 42", "Signer.sign at 44"]);
    expect(calls("show")).toEqual(["makeDoc at 7", "loadPage at 8", "Doc.render at 9", "Page.render at 9"]);
  });

  it("makes no guess for a method the language's own values have (get, push, a file's read), and types a module-level variable the file builds", async () => {
    const pgc = await open(corpus, "made", ["made/"]);
    const graph = new CallGraph(pgc.data);
    const node = (qualified: string) => graph.nodes.find((n) => n.qualified === qualified)!;
    const calls = (qualified: string) => graph.callsOf(node(qualified).id).map((e) => `${graph.nodes[e.to]?.qualified} at ${e.line}`);
    // `options.get(key)` may be a dict's: not Cache.get, and no exit; `_default` is the module's Encoder.
    expect(calls("lookup")).toEqual(["Encoder.encode at 13"]);
    expect(graph.exitsOf(node("lookup").id)).toEqual([]);
    // A parameter of the same name hides the module's variable: its `encode` may be a string's.
    expect(calls("shadowed")).toEqual([]);
    expect(calls("enqueue")).toEqual(["Queue.drain at 5"]);
    // `f.read()` may be a file's (what `open` returns): not Settings.read.
    expect(calls("load_text")).toEqual([]);
    expect(graph.exitsOf(node("load_text").id)).toEqual([]);
  });

  it("resolves a call through a field of the caller's own object to the class the field is given (self.source = FeedParser(); private target = new Doc())", async () => {
    const pgc = await open(corpus, "feeds", ["feeds/"]);
    const graph = new CallGraph(pgc.data);
    const calls = (qualified: string) => graph.callsOf(graph.nodes.find((n) => n.qualified === qualified)!.id).map((e) => graph.nodes[e.to]?.qualified);
    expect(calls("Reader.read")).toEqual(["FeedParser.feed"]);
    expect(calls("Builder.build")).toEqual(["Doc.compile"]);
  });

  it("takes a field given several classes for the one its scope defines, or for the first when it defines none (self._pool = ConnectionPool() or HTTPProxy())", async () => {
    const pgc = await open(corpus, "feeds", ["feeds/"]);
    const graph = new CallGraph(pgc.data);
    const node = (qualified: string) => graph.nodes.find((n) => n.qualified === qualified)!;
    // Tried on httpx: the transport's `self._pool.handle_async_request(…)` had left for no scope.
    expect(graph.exitsOf(node("Transport.handle").id).map((e) => [e.target, e.via, e.receiver_class])).toEqual([["handle", "member", "ConnectionPool"]]);
    expect(graph.callsOf(node("Transport.handle").id)).toEqual([]);
    expect(graph.callsOf(node("Transport.parse").id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["LocalParser.feed"]);
  });

  it("links a function to the functions defined in its body (the closure a factory returns) by `defines` edges at their first lines, which are no calls", async () => {
    const pgc = await open(corpus, "nest", ["nest/"]);
    const graph = new CallGraph(pgc.data);
    const node = (qualified: string) => graph.nodes.find((n) => n.qualified === qualified)!;
    const edges = (qualified: string) => graph.callsOf(node(qualified).id).map((e) => `${graph.nodes[e.to]?.qualified} at ${e.line}${e.defines ? " (defines)" : ""}`);
    expect(edges("createPaced")).toEqual(["apply at 4 (defines)", "mutate at 8 (defines)"]);
    // Called where it is defined, a nested function keeps its call edge.
    expect(edges("mutate")).toEqual(["apply at 10"]);
    // A decorated function begins at its decorator.
    expect(edges("retrying")).toEqual(["wrapper at 8 (defines)"]);
    // A class's methods are its members, not definitions of an enclosing function; and a definition calls nothing.
    expect(edges("Generator.process")).toEqual([]);
    // A nested function's terms say so: no qualified name a question writes names it (relevance.ts).
    expect([node("mutate").terms.nested, node("createPaced").terms.nested]).toEqual([true, undefined]);
    expect(graph.callersOf("mutate")).toEqual([]);
    expect(graph.callersOf("apply").map((c) => c.node.qualified)).toEqual(["mutate"]);
    // On the wire, the edge's line is the one naming the function: past its decorators.
    const result = await pgc.search().expand({ question: parseQuestion("How does retrying wrap a function?"), mode: "forward", from: { symbol: "retrying" }, covered: {} });
    const lead = result.leads.find((l) => l.path.map((i) => result.steps[i]?.qualified).join(" > ") === "retrying > wrapper");
    expect(lead?.call_sites[0]).toMatchObject({ line: 9, text: "    def wrapper(*args):", defines: true });
  });

  it("keeps member calls of one name through objects of two classes as two exits, and takes a class named with a leading $ or _ for a class", async () => {
    const pgc = await open(corpus, "nest", ["nest/"]);
    const graph = new CallGraph(pgc.data);
    const node = (qualified: string) => graph.nodes.find((n) => n.qualified === qualified)!;
    expect(graph.exitsOf(node("Generator.process").id).map((e) => [e.target, e.receiver_class, e.line])).toEqual([["get", "Map", 21], ["get", "$Registry", 52]]);
    expect(graph.callsOf(node("wrapper").id).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["_Backoff", "_Backoff.wait"]);
  });

  it("takes the names a function calls anywhere in it for words of its body, past the head a search document keeps", async () => {
    const pgc = await open(corpus, "nest", ["nest/"]);
    const result = await pgc.search().expand({ question: parseQuestion("How does the generator consult the registry?"), mode: "forward", from: { symbol: "Generator.process" }, covered: {} });
    const process = result.steps.find((s) => s.qualified === "Generator.process");
    expect(process?.matches.filter((m) => m.term.startsWith("registr")).map((m) => m.field)).toEqual(["body"]);
  });

  it("lists as a method's callers by name the calls that may be its, not those the scope shows are another class's (method_of)", async () => {
    const pgc = await open(corpus, "nest", ["nest/"]);
    const callers = async (methodOf?: string) => {
      const result = await pgc.search().expand({ question: parseQuestion("Who calls open?"), mode: "callers", from: { symbol: "open", ...(methodOf ? { method_of: methodOf } : {}) }, covered: {} });
      return result.leads.map((l) => result.steps[l.path[0]!]?.qualified).sort();
    };
    expect(await callers()).toEqual(["enter", "figure", "show"]);
    // `Image.open(…)` names another class, `door.open()` goes through a Door; `thing.open()` may be a Table's.
    expect(await callers("Table")).toEqual(["show"]);
    expect(await callers("Door")).toEqual(["enter", "show"]);
    // A bare `seat(path)`, imported, calls a function, never a method (Django's `resolve(request.path)`, imported from
    // django.urls, had been climbed to as a caller of `URLPattern.resolve`).
    const seat = async (methodOf?: string, question = "How is a seat found?") => {
      const result = await pgc.search().expand({ question: parseQuestion(question), mode: "callers", from: { symbol: "seat", ...(methodOf ? { method_of: methodOf } : {}) }, covered: {} });
      return result.leads.map((l) => result.steps[l.path[0]!]?.qualified);
    };
    expect(await seat()).toEqual(["book"]);
    expect(await seat("Table")).toEqual([]);
    // A "who calls" question writing the bare name may mean a function of that name as well.
    expect(await seat("Table", "Who calls seat?")).toEqual(["book"]);
  });

  it("lists the callers of a name in a scope, for who-calls questions", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const result = await pgc.search().expand({ question: parseQuestion("Who calls route?"), mode: "callers", from: { symbol: "route" }, covered: {} });
    expect(result.leads.map((l) => result.steps[l.path[0]!]?.qualified)).toEqual(["Server.dispatch"]);
    expect(result.leads[0]?.exit?.call_site.text).toContain("route(");
  });

  it("counts a method wrapping a same-named function among its callers", async () => {
    const pgc = await open(corpus, "web", ["web/"]);
    const result = await pgc.search().expand({ question: parseQuestion("Who calls parse?"), mode: "callers", from: { symbol: "parse" }, covered: {} });
    expect(result.leads.map((l) => result.steps[l.path[0]!]?.qualified)).toEqual(["Timer.parse"]);
  });
});
