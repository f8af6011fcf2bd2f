// Which exits a traced chain looks into, over Python parsed for real and each scope's own call-graph
// search: the best exits by their own score, and besides them the one whose owner the entry round found
// bearing most on what the chain has not covered yet — a callee whose name and receiver say nothing
// (`peer.urlopen`) is looked into when its scope holds "the connection pool" the question asks about.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { openScopes, traceFrom } from "../../helpers/scopes.js";
import { LOOKAHEAD_BEAM, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import type { ScopeFacts } from "../../../topology/index.js";

let dir: string;
let scopes: Map<string, Pgc>;

/** As many logging helpers as the beam looks into, each named by words of the question: they fill it by their own scores. */
const LOGGERS = ["log_send", "format_request", "client_log", "send_trace", "request_trace", "client_trace", "send_note", "request_note"].slice(0, LOOKAHEAD_BEAM);

const SOURCES: Record<string, Record<string, string>> = {
  client: {
    "client/session.py": [`from logs.output import ${LOGGERS.join(", ")}`, "", "def send_request(peer, data):", ...LOGGERS.map((name) => `    ${name}(data)`), "    return peer.urlopen(data)", ""].join("\n"),
  },
  logs: {
    "logs/output.py": LOGGERS.flatMap((name) => [`def ${name}(data):`, "    return data", ""]).join("\n"),
  },
  pool: {
    "pool/connectionpool.py": [
      "class ConnectionPool:",
      '    """Keeps open connections to one host and hands them out."""',
      "",
      "    def urlopen(self, data):",
      "        return self._take_connection().write(data)",
      "",
      "    def _take_connection(self):",
      "        return self",
      "",
      "    def write(self, data):",
      "        return data",
      "",
    ].join("\n"),
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-beam-"));
  scopes = await openScopes(dir, SOURCES);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FACTS: ScopeFacts[] = [
  { scope: "client", paths: ["client/"], symbols: ["send_request"], references: [] },
  { scope: "logs", paths: ["logs/"], symbols: LOGGERS, references: [] },
  { scope: "pool", paths: ["pool/"], symbols: ["ConnectionPool", "urlopen", "_take_connection", "write"], references: [] },
];

function trace(text: string, withCandidates: boolean): Promise<TraceOutcome> {
  return traceFrom(scopes, FACTS, text, "send_request", { withCandidates });
}

describe("the exits a traced chain looks into", () => {
  it("looks past the best-named exits into the one whose owner holds what the question still asks for, and follows it", async () => {
    expect(LOOKAHEAD_BEAM).toBe(5);
    const traced = await trace("How does the client send a request through the connection pool?", true);
    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}`).slice(0, 2)).toEqual(["client:send_request", "pool:ConnectionPool.urlopen"]);
    const line = 4 + LOGGERS.length;
    expect(traced.steps[1]?.call_site).toMatchObject({ file_path: "client/session.py", line, text: "    return peer.urlopen(data)" });
    const exit = traced.decisions.find((d) => d.at === "exit")?.detail ?? "";
    expect(exit).toMatch(new RegExp(`^left client by urlopen \\(client/session\\.py:${line}\\) into pool: .*also looked at: `));
    // Every best-named exit was looked into too.
    for (const name of LOGGERS) expect(exit).toMatch(new RegExp(`(: |, )${name} [\\d.]+(,|$)`));
  });

  it("without the entry round's view of the scopes, looks only at the best-named exits and never reaches the pool", async () => {
    const traced = await trace("How does the client send a request through the connection pool?", false);
    expect(traced.steps.map((s) => s.scope)).not.toContain("pool");
  });
});
