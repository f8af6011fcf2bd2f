// The climb to where a chain begins, across scopes: when nothing in the first step's own scope calls it
// (or nothing that bears enough on the question), the scopes calling it from outside are asked, and the
// best caller there becomes the chain's first step, in a hop of its own, with its real call line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { openScopes, scopeMapOf } from "../../helpers/scopes.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { climbCallers } from "../../../agents/manager/search/climb-callers.js";
import { toStep, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import { parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";
import type { Ownership } from "../../../agents/manager/ownership.js";

let dir: string;
let scopes: Map<string, Pgc>;

const SOURCES: Record<string, Record<string, string>> = {
  core: {
    "core/queue.py": ["def queue_packet(packet):", '    """Puts a packet on the receive queue."""', "    _append(packet)", "", "def _append(packet):", "    QUEUE.append(packet)", "", "QUEUE = []", ""].join("\n"),
  },
  net: {
    "net/receive.py": [
      "from core.queue import queue_packet",
      "",
      "def receive_packet(frame):",
      '    """Receives a packet frame from the wire."""',
      "    return queue_packet(frame)",
      "",
      "def log_line(text):",
      "    return queue_packet(text)",
      "",
    ].join("\n"),
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-climb-across-"));
  scopes = await openScopes(dir, SOURCES);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The manager's view: net's references call queue_packet twice. */
const OWNERSHIP: Ownership = {
  ownersOf: (symbol) => (symbol === "queue_packet" ? ["core"] : []),
  callersOf: (symbol) => (symbol === "queue_packet" ? [{ scope: "net", count: 2 }] : []),
};

async function climbFrom(text: string, withOwnership: boolean): Promise<TraceOutcome> {
  const question = parseQuestion(text);
  const expand = async (scope: string, args: ExpandArgs) => ({ result: await (scopes.get(scope) as Pgc).search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 0 });
  const args: ExpandArgs = { question, mode: "forward", from: { symbol: "queue_packet" }, covered: {} };
  const first = await (scopes.get("core") as Pgc).search().expand(parseExpandArgs(args));
  const entry = toStep(first.steps[0]!, "core", "core-1", null);
  const outcome: TraceOutcome = { steps: [entry], hops: [{ scope: "core", agent: "core-1", args, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };
  return climbCallers({ expand, managerId: "manager", ...(withOwnership ? { ownership: OWNERSHIP } : {}) }, question, outcome, 6);
}

describe("climbCallers across scopes", () => {
  it("goes back into the scope whose code calls the first step, to the caller bearing most on the question, as a hop of its own", async () => {
    const climbed = await climbFrom("How is a received packet put on the queue?", true);

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["net:receive_packet", "core:queue_packet"]);
    expect(climbed.steps[0]).toMatchObject({ role: "entry", call_site: null });
    expect(climbed.steps[1]).toMatchObject({ role: "callee", call_site: { file_path: "net/receive.py", line: 5, text: "    return queue_packet(frame)" } });
    expect(climbed.hops.map((h) => [h.scope, h.steps.map((s) => s.symbol)])).toEqual([["net", ["receive_packet"]], ["core", ["queue_packet"]]]);
    expect(climbed.decisions.map((d) => d.detail).join("\n")).toMatch(/went back to receive_packet \(net\/receive\.py:5, in net\), which calls queue_packet: it is worth [\d.]+ as a step, at least [\d.]+ \(it bears [\d.]+ on the question[\s\S]*began at receive_packet: nothing else calls it/);
  });

  it("stays in the first step's scope when the manager knows of no caller elsewhere", async () => {
    const climbed = await climbFrom("How is a received packet put on the queue?", false);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["queue_packet"]);
    expect(climbed.decisions.at(-1)?.detail).toBe("began at queue_packet: nothing else calls it");
  });
});

describe("climbCallers to a method's caller through an object of its class", () => {
  // cli defines a `parse_args` of its own, so its call of the parser's is no call "of a name it does not
  // define"; what says it calls parser's is the object's class, which `make_parser` returns.
  const CLASS_SOURCES: Record<string, Record<string, string>> = {
    parser: {
      "parser/options.py": [
        "class OptionParser:",
        '    """Splits a command line into long options and positional arguments."""',
        "    def parse_args(self, args):",
        '        """Parses the long options and positional arguments of a command line."""',
        "        return self._split(args)",
        "",
        "    def _split(self, args):",
        "        return [a for a in args if a.startswith('--')]",
        "",
      ].join("\n"),
    },
    cli: {
      "cli/command.py": [
        "from parser.options import OptionParser",
        "",
        "class Command:",
        "    def make_parser(self) -> OptionParser:",
        "        return OptionParser()",
        "",
        "    def parse_args(self, args):",
        '        """Parses the command line of a command."""',
        "        parser = self.make_parser()",
        "        return parser.parse_args(args)",
        "",
      ].join("\n"),
    },
  };
  let classDir: string;
  let classScopes: Map<string, Pgc>;

  beforeAll(async () => {
    classDir = mkdtempSync(join(tmpdir(), "mesh-climb-class-"));
    classScopes = await openScopes(classDir, CLASS_SOURCES);
  });

  afterAll(() => rmSync(classDir, { recursive: true, force: true }));

  async function climbMethod(withClassCalls: boolean): Promise<TraceOutcome> {
    const map = await scopeMapOf([...classScopes.values()].map((pgc) => pgc.facts()));
    const ownership: Ownership = withClassCalls ? map : { ownersOf: (s) => map.ownersOf(s), callersOf: (s) => map.callersOf(s) };
    const question = parseQuestion("How does a command parse the long options and positional arguments of its command line?");
    const expand = async (scope: string, args: ExpandArgs) => ({ result: await (classScopes.get(scope) as Pgc).search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 0 });
    const args: ExpandArgs = { question, mode: "forward", from: { symbol: "OptionParser.parse_args" }, covered: {} };
    const first = await (classScopes.get("parser") as Pgc).search().expand(parseExpandArgs(args));
    const entry = toStep(first.steps[0]!, "parser", "parser-1", null);
    const outcome: TraceOutcome = { steps: [entry], hops: [{ scope: "parser", agent: "parser-1", args, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };
    return climbCallers({ expand, managerId: "manager", ownership }, question, outcome, 6);
  }

  it("reports the class's methods called from outside in the scope's facts", () => {
    expect(classScopes.get("cli")?.facts().class_calls).toEqual({ "OptionParser.parse_args": 1 });
    expect(classScopes.get("cli")?.facts().references.some((r) => r.target === "parse_args")).toBe(false);
  });

  it("goes back into the scope calling the method through an object of its class", async () => {
    const climbed = await climbMethod(true);

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["cli:Command.parse_args", "parser:OptionParser.parse_args"]);
    expect(climbed.steps[1]).toMatchObject({ role: "callee", call_site: { file_path: "cli/command.py", line: 10, text: "        return parser.parse_args(args)" } });
  });

  it("finds no caller elsewhere from the callers of the name alone", async () => {
    const climbed = await climbMethod(false);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["OptionParser.parse_args"]);
  });
});
