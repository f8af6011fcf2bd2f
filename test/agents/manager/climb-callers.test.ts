// The climb to where a chain begins, over Python parsed for real and the worker's own call-graph search:
// from a start inside the path, the chain goes back through callers that bear on the question as much as
// the step they call, and stops at one that bears less; every added edge is a real call line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { climbCallers } from "../../../agents/manager/search/climb-callers.js";
import { toStep, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import { parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";

const logger = pino({ level: "silent" });
let dir: string;
let pgc: Pgc;

const SOURCE = [
  "def receive(frame):",
  "    packet = decode(frame)",
  "    queue_packet(packet)",
  "",
  "def queue_packet(packet):",
  "    _queue_packet(packet)",
  "",
  "def _queue_packet(packet):",
  "    QUEUE.append(packet)",
  "",
  "def decode(frame):",
  "    return frame",
  "",
  "QUEUE = []",
].join("\n");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-climb-"));
  const root = join(dir, "code");
  const file = join(root, "net", "queueing.py");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, SOURCE);
  const opened = await openPgc({ scope: "net", root, scopePaths: [], cacheRoot: join(dir, "cache"), logger });
  pgc = new Pgc("net", [], opened);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("climbCallers", () => {
  it("goes back from _queue_packet to queue_packet, which names as much of the question, and not on to receive", async () => {
    const question = parseQuestion("How is a packet queued?");
    const expand = async (_scope: string, args: ExpandArgs) => ({ result: await pgc.search().expand(parseExpandArgs(args)), agent: "net-1", failovers: 0 });
    // The forward search's outcome when it starts at _queue_packet: one step.
    const first = await pgc.search().expand(parseExpandArgs({ question, mode: "forward", from: { symbol: "_queue_packet" }, covered: {} }));
    const entry = toStep(first.steps[0]!, "net", "net-1", null);
    const outcome: TraceOutcome = { steps: [entry], hops: [{ scope: "net", agent: "net-1", args: { question, mode: "forward", from: { symbol: "_queue_packet" }, covered: {} }, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };

    const climbed = await climbCallers({ expand, managerId: "manager" }, question, outcome, 6);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["queue_packet", "_queue_packet"]);
    expect(climbed.steps[0]).toMatchObject({ role: "entry", call_site: null });
    // The edge is the real call line in queue_packet's body.
    expect(climbed.steps[1]?.role).toBe("callee");
    expect(climbed.steps[1]?.call_site).toMatchObject({ file_path: "net/queueing.py", line: 6, text: "    _queue_packet(packet)" });
    // The first hop holds the added step (the scope is not visited twice), and the decisions say why it stopped.
    expect(climbed.hops).toHaveLength(1);
    expect(climbed.hops[0]?.steps.map((s) => s.symbol)).toEqual(["queue_packet", "_queue_packet"]);
    expect(climbed.decisions.map((d) => d.detail).join("\n")).toMatch(/went back to queue_packet[\s\S]*began at queue_packet: its best caller in net, receive, bears [\d.]+ on the question, less than/);
  });
});
