// A method call through an object whose type is an interface or type alias (PGC.md, call rule 4): the
// implementations the scope declares are what may run. Tried as a new user would on tRPC, "how are the
// procedure paths and JSON input of a request decoded" stopped at `getRequestInfo`, whose
// `handler.parse(opts)` goes through a `ContentTypeHandler` that `getContentTypeHandler` returns, and the
// scope's three `const …: ContentTypeHandler = { parse() {…} }` objects were never reached: the call was an
// exit to a `ContentTypeHandler.parse` no scope defines. A class declaring `implements` is an
// implementation too; an object of a concrete class still calls only that class's method, and a type no
// object or class implements here leaves the call an exit. TypeScript parsed for real.
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
