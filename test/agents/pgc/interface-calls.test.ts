// A method call through an object whose type is an interface or type alias (PGC.md, call rule 4): the
// implementations the scope declares are what may run. Tried as a new user would on tRPC, "how are the
// procedure paths and JSON input of a request decoded" stopped at `getRequestInfo`, whose
// `handler.parse(opts)` goes through a `ContentTypeHandler` that `getContentTypeHandler` returns, and the
// scope's three `const …: ContentTypeHandler = { parse() {…} }` objects were never reached: the call was an
// exit to a `ContentTypeHandler.parse` no scope defines. A class declaring `implements` is an
// implementation too; an object of a concrete class still calls only that class's method, and a type no
// object or class implements here leaves the call an exit. So for an object of a class whose method is
// abstract (TS `abstract flush()`, Python's `raise NotImplementedError`): its subclasses' overrides run.
// TypeScript and Python parsed for real.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { implementedBy } from "../../../agents/pgc/callgraph/class-bases.js";
import { callsFrom, sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  http: {
    "http/contentType.ts": sourceLines(
      "type ContentTypeHandler = {",
      "  isMatch: (req: Request) => boolean;",
      "  parse: (req: Request) => Promise<unknown>;",
      "};",
      "const jsonContentTypeHandler: ContentTypeHandler = {",
      "  isMatch(req) {",
      "    return req.headers.get('content-type') === 'application/json';",
      "  },",
      "  async parse(req) {",
      "    return JSON.parse(await req.text());",
      "  },",
      "};",
      "export const formDataContentTypeHandler: ContentTypeHandler = {",
      "  isMatch(req) {",
      "    return req.headers.get('content-type') === 'multipart/form-data';",
      "  },",
      "  async parse(req) {",
      "    return req.formData();",
      "  },",
      "};",
      "const handlers = [jsonContentTypeHandler, formDataContentTypeHandler];",
      "function getContentTypeHandler(req: Request): ContentTypeHandler {",
      "  return handlers.find((h) => h.isMatch(req)) ?? jsonContentTypeHandler;",
      "}",
      "export async function getRequestInfo(req: Request): Promise<unknown> {",
      "  const handler = getContentTypeHandler(req);",
      "  return await handler.parse(req);",
      "}",
    ),
    "http/streams.ts": sourceLines(
      "interface Producer {",
      "  produce(chunk: string): string;",
      "}",
      "interface Closer {",
      "  close(): void;",
      "}",
      "export class JsonlProducer implements Producer, Closer {",
      "  produce(chunk: string): string {",
      "    return chunk + '\\n';",
      "  }",
      "  close(): void {}",
      "}",
      "export class SseProducer {",
      "  produce(chunk: string): string {",
      "    return 'data: ' + chunk;",
      "  }",
      "}",
      "export function emit(producer: Producer, chunk: string): string {",
      "  return producer.produce(chunk);",
      "}",
      "export function emitSse(producer: SseProducer, chunk: string): string {",
      "  return producer.produce(chunk);",
      "}",
      "interface Sink {",
      "  write(chunk: string): void;",
      "}",
      "export function drain(sink: Sink, chunk: string): void {",
      "  sink.write(chunk);",
      "}",
    ),
    "http/schedulers.ts": sourceLines(
      "export abstract class Scheduler {",
      "  abstract flush(): void;",
      "  run(): void {",
      "    this.flush();",
      "  }",
      "}",
      "export class QueueScheduler extends Scheduler {",
      "  flush(): void {}",
      "}",
      "export function drainAll(scheduler: Scheduler): void {",
      "  scheduler.flush();",
      "}",
    ),
    "http/loaders.py": sourceLines(
      "class BaseLoader:",
      "    def get_source(self, name):",
      "        raise NotImplementedError",
      "",
      "    def load(self, name):",
      "        return self.get_source(name)",
      "",
      "class FileSystemLoader(BaseLoader):",
      "    def get_source(self, name):",
      "        return open(name).read()",
      "",
      "class Template:",
      "    def get_source(self, name):",
      "        return name",
      "",
      "def load_template(loader: BaseLoader, name):",
      "    return loader.get_source(name)",
      "",
      "def last_seen(mtimes: t.Dict[str, float], name):",
      "    return mtimes.get(name)",
    ),
    "http/datastructures.pyi": sourceLines(
      "class TypeConversionDict(Dict[K, V]):",
      "    def get(self, key, default=None, type=None): ...",
    ),
  },
};

describe("a method call through an object of an interface type", () => {
  const scopes = withScopes("interface-calls-", SOURCES);
  const graph = () => new CallGraph((scopes().get("http") as Pgc).data);

  it("calls the scope's typed objects and implementing classes, and no other class's method", () => {
    const g = graph();
    // handler.parse: both ContentTypeHandler objects, no exit to a ContentTypeHandler.parse elsewhere.
    expect(callsFrom(g, "getRequestInfo")).toEqual({ local: ["getContentTypeHandler:26", "jsonContentTypeHandler.parse:27", "formDataContentTypeHandler.parse:27"], exits: [] });
    // producer: Producer is implemented by JsonlProducer only; SseProducer has the method but not the type.
    expect(callsFrom(g, "emit").local).toEqual(["JsonlProducer.produce:19"]);
    // A concrete class still means its own method.
    expect(callsFrom(g, "emitSse").local).toEqual(["SseProducer.produce:22"]);
    // Nothing here implements Sink: the call may be another scope's, as before.
    expect(callsFrom(g, "drain")).toEqual({ local: [], exits: ["write:28"] });
  });

  it("calls the overrides of an abstract method, and a Python one's in other scopes too, as an exit", () => {
    const g = graph();
    // TS: `abstract flush()` has no body and is no node: the subclass's flush is what runs (as for an interface).
    expect(callsFrom(g, "drainAll")).toEqual({ local: ["QueueScheduler.flush:11"], exits: [] });
    // Python: BaseLoader.get_source only raises NotImplementedError; Template.get_source is no loader's.
    expect(callsFrom(g, "load_template")).toEqual({ local: ["BaseLoader.get_source:17", "FileSystemLoader.get_source:17"], exits: ["get_source:17"] });
    // A class from elsewhere (here the built-in dict) may define the method itself: its subclasses here are no callees.
    expect(callsFrom(g, "last_seen").local).toEqual([]);
  });

  it("reads what a declaration says it implements, and nothing from other declarations", () => {
    expect(implementedBy("export class JsonlProducer implements Producer, Closer {")).toEqual(["Producer", "Closer"]);
    expect(implementedBy("class Pool<T> extends Base<T> implements Disposable<T>, ns.Closer")).toEqual(["Disposable", "Closer"]);
    expect(implementedBy("const jsonContentTypeHandler: ContentTypeHandler = {")).toEqual(["ContentTypeHandler"]);
    expect(implementedBy("export const timeoutProvider: TimeoutProvider<Handle> = {")).toEqual(["TimeoutProvider"]);
    expect(implementedBy("const handlers = [json, form];")).toEqual([]);
    expect(implementedBy("const count: number = 3;")).toEqual([]);
    expect(implementedBy("class Parser(Base):")).toEqual([]);
  });
});
