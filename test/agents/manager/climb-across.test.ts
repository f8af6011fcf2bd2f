// The climb to where a chain begins, across scopes: when nothing in the first step's own scope calls it
// (or nothing that bears enough on the question), the scopes calling it from outside are asked, and the
// best caller there becomes the chain's first step, in a hop of its own, with its real call line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { openScopes } from "../../helpers/scopes.js";
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
    expect(climbed.decisions.map((d) => d.detail).join("\n")).toMatch(/went back to receive_packet \(net\/receive\.py:5, in net\), which calls queue_packet: it bears [\d.]+ on the question[\s\S]*began at receive_packet: nothing else calls it/);
  });

  it("stays in the first step's scope when the manager knows of no caller elsewhere", async () => {
    const climbed = await climbFrom("How is a received packet put on the queue?", false);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["queue_packet"]);
    expect(climbed.decisions.at(-1)?.detail).toBe("began at queue_packet: nothing else calls it");
  });
});
