// Event registries: a function registered under a string key runs where the key is emitted. Parsed for real
// (Python and TypeScript): the registration binds the handler to the event's pseudo-field, the emission calls
// through it (the key's literal at the call or in a local assigned it), and the forward search and "who calls"
// follow that edge; the edge check takes the emission's line and the registration's line. Found on botocore:
// `Endpoint._needs_retry` emits `needs-retry.<service>.<op>`, which `RetryHandler.needs_retry` was registered
// for, and no call in the source names the handler.
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { checkChain } from "../../../agents/manager/validation/index.js";
import { citationHash } from "../../../agents/protocol/index.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";

const ENDPOINT = sourceLines(
  "class Endpoint:",
  "    def __init__(self, emitter):",
  "        self._event_emitter = emitter",
  "",
  "    def _needs_retry(self, attempts, operation, response=None):",
  '        """Ask the handlers whether a failed attempt is sent again."""',
  '        event_name = f"needs-retry.{operation.service}.{operation.name}"',
  "        responses = self._event_emitter.emit(event_name, response=response, attempts=attempts)",
  "        return responses",
  "",
  "    def close(self, reason):",
  "        self._event_emitter.emit('closing.%s' % reason)",
  "        self._event_emitter.emit(reason)",
  "        self.on(b'raw', self.close)",
);

const STANDARD = sourceLines(
  "class RetryHandler:",
  '    """Decides whether a throttled call is retried."""',
  "",
  "    def needs_retry(self, **kwargs):",
  "        return should_retry(kwargs)",
  "",
  "def should_retry(context):",
  "    return context.get('attempts', 0) < 3",
  "",
  "def register_retry_handler(client, service):",
  "    handler = RetryHandler()",
  "    client.meta.events.register(",
  "        'needs-retry.%s' % service,",
  "        handler.needs_retry,",
  "    )",
  "    return handler",
);

const SOCKET = sourceLines(
  "import { EventEmitter } from 'node:events';",
  "",
  "export class Connection extends EventEmitter {",
  "  constructor(socket) {",
  "    super();",
  "    socket.on('data', this.onData.bind(this));",
  "    this.on(`frame:${socket.id}`, this.onFrame);",
  "    this.once('frame.done', this.onFrame);",
  "  }",
  "",
  "  onData(chunk) {",
  "    this.emit('frame:' + chunk.id, chunk);",
  "    this.emit(`close`);",
  "    this.emit('frame.done.' + chunk.id);",
  "    this.emit(`frame.${chunk.id}`);",
  "  }",
  "",
  "  onFrame(frame) {",
  "    return frame;",
  "  }",
  "}",
);

const line = (text: string, n: number): string => text.split("\n")[n - 1] ?? "";

describe("event registries", () => {
  it("Python: a registration binds the handler to the event's key, an emission calls through it (a local holding the name too)", async () => {
    const standard = await parseFile({ path: "retries/standard.py", content: STANDARD, language: "python" });
    expect(standard.bindings.map((b) => `${b.field}=${b.target}@${b.line}`)).toEqual(["event:needs-retry=needs_retry@14"]);
    const endpoint = await parseFile({ path: "endpoint.py", content: ENDPOINT, language: "python" });
    const events = endpoint.calls.filter((c) => c.callee.startsWith("event:")).map((c) => `${c.caller}->${c.callee}@${c.line}`);
    // The key's literal is where the code names the event; a name given no literal, and a byte string, name none.
    expect(events).toEqual(["_needs_retry->event:needs-retry@7", "close->event:closing@12"]);
    expect(endpoint.bindings).toEqual([]);
  });

  it("TS/JS: `on` and `emit` with literal and template keys; a handler passed bound is the method", async () => {
    const parsed = await parseFile({ path: "src/connection.js", content: SOCKET, language: "javascript" });
    // `frame:${socket.id}` spells no whole key (it stops at the placeholder, with no dot before it).
    expect(parsed.bindings.map((b) => `${b.field}=${b.target}@${b.line}`)).toEqual(["event:data=onData@6", "event:frame.done=onFrame@8"]);
    const events = parsed.calls.filter((c) => c.callee.startsWith("event:")).map((c) => `${c.caller}->${c.callee}@${c.line}`);
    // A key is what the literal spells to its last whole dotted part: `frame.done` of 'frame.done.' + id, nothing of `frame.${id}`… but `frame`.
    expect(events).toEqual(["onData->event:close@13", "onData->event:frame.done@14", "onData->event:frame@15"]);
  });

  describe("in a scope's call graph", () => {
    const scopes = withScopes("mesh-event-registry-", { botocore: { "botocore/endpoint.py": ENDPOINT, "botocore/retries/standard.py": STANDARD } });
    const question = parseQuestion("When a throttled call fails, how does the standard retry handler decide to retry it?");
    const pgc = () => scopes().get("botocore") as Pgc;

    it("goes from the code emitting the event to the handler registered for it, citing the emission and the registration", async () => {
      const result = await pgc().search().expand({ question, mode: "forward", from: { symbol: "Endpoint._needs_retry" }, covered: {} });
      const step = result.steps.find((s) => s.qualified === "RetryHandler.needs_retry");
      expect(step).toBeDefined();
      const lead = result.leads.find((l) => l.path.some((i) => result.steps[i] === step));
      expect(lead?.call_sites[0]).toMatchObject({ file_path: "botocore/endpoint.py", line: 7, bound_at: { field: "event:needs-retry", file_path: "botocore/retries/standard.py", line: 14 } });
      // And on from the handler.
      expect(result.leads.some((l) => l.path.map((i) => result.steps[i]?.qualified).join(" ") === "Endpoint._needs_retry RetryHandler.needs_retry should_retry")).toBe(true);
    });

    it("names the code emitting the event as the handler's caller, not the code registering it", async () => {
      const result = await pgc().search().expand({ question, mode: "callers", from: { symbol: "RetryHandler.needs_retry" }, covered: {}, max_depth: 0 });
      const callers = result.leads.flatMap((l) => (l.exit ? [`${result.steps[l.path[0] ?? -1]?.symbol}@${l.exit.call_site.line}`] : []));
      expect(callers).toContain("_needs_retry@7");
      expect(callers.map((c) => c.split("@")[0])).not.toContain("register_retry_handler");
    });
  });

  describe("the edge check", () => {
    const sources = new Map([
      ["botocore/endpoint.py", ENDPOINT],
      ["botocore/retries/standard.py", STANDARD],
    ]);
    const cited = (file: string, n: number) => ({ file_path: file, line: n, text: line(sources.get(file) ?? "", n), sha256: citationHash(line(sources.get(file) ?? "", n)) });
    const span = (file: string, start: number, end: number) => {
      const text = (sources.get(file) ?? "").split("\n").slice(start - 1, end).join("\n");
      return { file_path: file, line_start: start, line_end: end, sha256: citationHash(text) };
    };
    const hashed = { readFile: async (file: string) => sources.get(file) ?? null };
    const chain = (callLine: number, boundLine: number) => [
      { symbol: "Endpoint._needs_retry", role: "entry" as const, ...span("botocore/endpoint.py", 5, 9), call_site: null },
      { symbol: "RetryHandler.needs_retry", role: "callee" as const, ...span("botocore/retries/standard.py", 4, 5), call_site: { ...cited("botocore/endpoint.py", callLine), bound_at: { ...cited("botocore/retries/standard.py", boundLine), field: "event:needs-retry" } } },
    ];

    it("keeps an edge whose call line names the event and whose registration names the handler", async () => {
      const checked = await checkChain(chain(7, 14), hashed);
      expect(checked.cut).toBeNull();
      expect(checked.kept).toBe(2);
    });

    it("cuts an edge whose call line does not name the event, or whose registration line names another function", async () => {
      expect((await checkChain(chain(8, 14), hashed)).cut?.reason).toMatch(/does not name the event "needs-retry"/);
      expect((await checkChain(chain(7, 13), hashed)).cut?.reason).toMatch(/does not name needs_retry/);
    });
  });
});
