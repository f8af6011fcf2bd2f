// `self.m(…)` where the class assigns `self.m = …` calls the value the object holds (a callback it was given,
// a function chosen at run time), not a method of some other scope's class (PGC.md, call rule 2). Tried as a
// new user would on Python-Markdown with Pygments, "at what point are the keyword tokens upper-cased" went
// from Pygments' `KeywordCaseFilter.filter`, which calls `self.convert(value)` after `self.convert =
// getattr(str, case)`, into Markdown's `Markdown.convert`: the call had been read as an inherited method,
// which another scope's class may define. Python parsed for real, two scopes.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { callsFrom, sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  filters: {
    "filters/keyword.py": sourceLines(
      "from base import Filter",
      "",
      "class KeywordCaseFilter(Filter):",
      "    def __init__(self, case):",
      "        self.convert = getattr(str, case)",
      "",
      "    def filter(self, stream):",
      "        for value in stream:",
      "            yield self.convert(value)",
      "",
      "class Listener(Filter):",
      "    def __init__(self, on_event):",
      "        self.on_event = on_event",
      "",
      "    def on_event(self, event):",
      "        return event",
      "",
      "    def fire(self, event):",
      "        return self.on_event(event)",
      "",
      "class Loop(Filter):",
      "    def run(self, sock):",
      "        return self.sock_connect(sock)",
    ),
  },
  markdown: {
    "markdown/core.py": sourceLines(
      "class Markdown:",
      "    def convert(self, source):",
      "        return source",
      "",
      "class SelectorLoop:",
      "    def sock_connect(self, sock):",
      "        return sock",
    ),
    "markdown/handler.ts": sourceLines("export class Handler {", "  callback(event: unknown): unknown {", "    return event;", "  }", "}"),
  },
  events: {
    "events/emitter.ts": sourceLines(
      "export class Emitter {",
      "  constructor(options: { callback: (event: unknown) => unknown }) {",
      "    this.callback = options.callback;",
      "    this.onDone = () => null;",
      "  }",
      "  fire(event: unknown): unknown {",
      "    return this.callback(event);",
      "  }",
      "  finish(): unknown {",
      "    return this.onDone();",
      "  }",
      "}",
    ),
  },
};

describe("a call through a value the object holds", () => {
  const scopes = withScopes("held-value-", SOURCES);
  const graphOf = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);

  it("is no other scope's method of that name", () => {
    expect(callsFrom(graphOf("filters"), "KeywordCaseFilter.filter")).toEqual({ local: [], exits: [] });
  });

  it("is the class's own method of that name when it has one", () => {
    expect(callsFrom(graphOf("filters"), "Listener.fire")).toEqual({ local: ["Listener.on_event:19"], exits: [] });
  });

  it("is so in TS/JS too, where a function written into the field is a method of the class", () => {
    expect(callsFrom(graphOf("events"), "Emitter.fire")).toEqual({ local: [], exits: [] });
    expect(callsFrom(graphOf("events"), "Emitter.finish").local).toEqual(["Emitter.onDone:10"]);
  });

  it("leaves an inherited method the class does not assign as before: another scope's subclass may define it", () => {
    expect(callsFrom(graphOf("filters"), "Loop.run").exits).toEqual(["sock_connect:23"]);
  });
});
