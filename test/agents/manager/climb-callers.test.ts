// The climb to where a chain begins, over Python parsed for real and the worker's own call-graph search:
// from a start inside the path, the chain goes back through callers that bear on the question nearly as
// much as its first step (CLIMB_SHARE of it), and stops at one that bears much less; every added edge is a
// real call line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { climbCallers, CLIMB_LOOK_AHEAD, CLIMB_SHARE, MAX_CLIMB } from "../../../agents/manager/search/climb-callers.js";
import { relevance } from "../../../agents/search/relevance.js";
import { CALLED_ONLY_PRIOR } from "../../../agents/manager/search/climb-callers.js";
import { withScopes } from "../../helpers/scopes.js";
import { toStep, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import { parseExpandArgs, type ExpandArgs, type ExpandResult } from "../../../agents/protocol/index.js";

const logger = pino({ level: "silent" });
let dir: string;
let pgc: Pgc;

const SOURCE = [
  "def receive(frame):",
  "    deliver_packet(decode(frame))",
  "",
  "def deliver_packet(packet):",
  '    """Puts it on the queue."""',
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

/** The climb from the forward search's one-step outcome when it starts at `symbol` in `net`'s scope. */
async function climbIn(net: Pgc, text: string, symbol: string, coverage = 0.5, refuse: (args: ExpandArgs) => boolean = () => false): Promise<{ climbed: TraceOutcome; first: ExpandResult }> {
  const question = parseQuestion(text);
  const expand = async (_scope: string, args: ExpandArgs) => {
    if (refuse(args)) throw new Error("worker gone");
    return { result: await net.search().expand(parseExpandArgs(args)), agent: "net-1", failovers: 0 };
  };
  const args: ExpandArgs = { question, mode: "forward", from: { symbol }, covered: {} };
  const first = await net.search().expand(parseExpandArgs(args));
  const entry = toStep(first.steps[0]!, "net", "net-1", null);
  const outcome: TraceOutcome = { steps: [entry], hops: [{ scope: "net", agent: "net-1", args, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage, stopped_because: "" };
  return { climbed: await climbCallers({ expand, managerId: "manager" }, question, outcome, 6), first };
}

const climbFrom = async (text: string, symbol: string) => (await climbIn(pgc, text, symbol)).climbed;

describe("climbCallers", () => {
  it("goes back from _queue_packet to queue_packet, which names as much of the question, and to deliver_packet, which names nearly as much, and not on to receive", async () => {
    const climbed = await climbFrom("How is a packet queued?", "_queue_packet");

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["deliver_packet", "queue_packet", "_queue_packet"]);
    expect(climbed.steps[0]).toMatchObject({ role: "entry", call_site: null });
    // The edges are the real call lines in the callers' bodies.
    expect(climbed.steps[2]?.role).toBe("callee");
    expect(climbed.steps[2]?.call_site).toMatchObject({ file_path: "net/queueing.py", line: 9, text: "    _queue_packet(packet)" });
    expect(climbed.steps[1]?.call_site).toMatchObject({ file_path: "net/queueing.py", line: 6, text: "    queue_packet(packet)" });
    // The first hop holds the added steps (the scope is not visited twice), and the decisions say why it stopped.
    expect(climbed.hops).toHaveLength(1);
    expect(climbed.hops[0]?.steps.map((s) => s.symbol)).toEqual(["deliver_packet", "queue_packet", "_queue_packet"]);
    expect(climbed.decisions.map((d) => d.detail).join("\n")).toMatch(/went back to queue_packet[\s\S]*went back to deliver_packet[\s\S]*began at deliver_packet: its best caller, receive in net, is worth [\d.]+ as a step \(it bears [\d.]+ on the question\), less than/);
  });

  it("does not climb above a first step the question names as code", async () => {
    const climbed = await climbFrom("How does queue_packet put a packet on the queue?", "queue_packet");

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["queue_packet"]);
    expect(climbed.decisions.at(-1)?.detail).toBe("began at queue_packet: the question names it");
  });
});

describe("climbCallers by a step's worth", () => {
  // A caller is worth what a step of the forward search is worth: what it adds to the chain's coverage,
  // plus half its relevance. `on_frame` bears little on the question (its doc says "received"), yet nothing
  // below it names that; `requeue_packet` bears more, all of it what `queue_packet` already covers.
  const SOURCES = {
    net: {
      "net/wire.py": ["from net.queueing import queue_packet", "", "def on_frame(frame):", '    """Called for each frame the card has received."""', "    queue_packet(frame)", ""].join("\n"),
      "net/queueing.py": [
        "def queue_packet(packet):",
        '    """Puts the packet on the queue."""',
        "    QUEUE.append(packet)",
        "",
        "def requeue_packet(packet):",
        '    """Puts a queued packet back on the queue."""',
        "    queue_packet(packet)",
        "",
        "QUEUE = []",
        "",
      ].join("\n"),
    },
  };
  const scopes = withScopes("mesh-climb-worth-", SOURCES);

  it("goes back to the caller that bears less on the question but names what the chain has not covered", async () => {
    const question = parseQuestion("How is a received packet put on the queue?");
    const { climbed, first } = await climbIn(scopes().get("net") as Pgc, question.text, "queue_packet");

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["on_frame", "queue_packet"]);
    expect(climbed.steps[1]?.call_site).toMatchObject({ file_path: "net/wire.py", line: 5, text: "    queue_packet(frame)" });
    // It bears less than CLIMB_SHARE of what queue_packet bears, and less than requeue_packet: by relevance alone it would not have joined.
    const bears = (detail: string) => Number(/it bears ([\d.]+) on the question/.exec(detail)?.[1]);
    expect(bears(climbed.decisions[0]?.detail ?? "")).toBeLessThan(CLIMB_SHARE * relevance(question, first.steps[0]!.matches));
  });
});

describe("climbCallers up a long path", () => {
  // udp_rcv → __udp4_lib_rcv → … → __udp_queue_rcv_skb in miniature: five callers above the start, each
  // naming the question's words; the climb goes up to MAX_CLIMB of them.
  const names = ["udp_rcv", "udp_lib_rcv", "udp_unicast_rcv", "udp_queue_rcv", "udp_queue_rcv_one", "udp_queue_rcv_locked"];
  const lines = names.flatMap((name, i) => [`def ${name}(datagram):`, '    """Queues a received UDP datagram."""', `    ${names[i + 1] ?? "SOCKET_QUEUE.append"}(datagram)`, ""]);
  const scopes = withScopes("mesh-climb-long-", { net: { "net/udp.py": [...lines, "SOCKET_QUEUE = []", ""].join("\n") } });

  it(`prepends up to MAX_CLIMB (${MAX_CLIMB}) callers`, async () => {
    const { climbed } = await climbIn(scopes().get("net") as Pgc, "How is a received UDP datagram queued?", "udp_queue_rcv_locked");

    expect(MAX_CLIMB).toBeGreaterThanOrEqual(5);
    expect(climbed.steps.map((s) => s.symbol)).toEqual(names);
  });
});

describe("climbCallers through plumbing", () => {
  // blk-mq in miniature: between the function that runs a hardware queue and the one taking the next
  // request out of the scheduler lie dispatch functions that name nothing of the question.
  const plumbing = (depth: number) => {
    const names = Array.from({ length: depth }, (_, i) => `dispatch_${i + 1}`);
    return [
      "def run_hw_queue(hctx):",
      '    """Runs a hardware queue."""',
      `    ${names[0]}(hctx)`,
      "",
      ...names.flatMap((name, i) => [`def ${name}(q):`, `    ${names[i + 1] ?? "next_request"}(q)`, ""]),
      "def next_request(q):",
      '    """Takes the next request out of the scheduler."""',
      "    return SCHED.pop()",
      "",
      "SCHED = []",
      "",
    ].join("\n");
  };
  const near = withScopes("mesh-climb-plumbing-", { block: { "block/dispatch.py": plumbing(CLIMB_LOOK_AHEAD - 1) } });
  const far = withScopes("mesh-climb-far-", { block: { "block/dispatch.py": plumbing(CLIMB_LOOK_AHEAD + 1) } });
  const question = "When a hardware queue is run, how is the next request taken out of the scheduler?";

  it(`goes up through callers worth little to one worth enough within CLIMB_LOOK_AHEAD (${CLIMB_LOOK_AHEAD}) of them`, async () => {
    const { climbed, first } = await climbIn(near().get("block") as Pgc, question, "next_request", 0);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["run_hw_queue", "dispatch_1", "dispatch_2", "next_request"]);
    // What the chain covers counts the callers it went back to.
    expect(climbed.coverage).toBeGreaterThan(relevance(parseQuestion(question), first.steps[0]!.matches));
    expect(climbed.steps[1]?.call_site).toMatchObject({ line: 3, text: "    dispatch_1(hctx)" });
    const details = climbed.decisions.map((d) => d.detail);
    expect(details[0]).toMatch(/^went back to dispatch_2 .*: on the way to run_hw_queue \(worth [\d.]+ itself\)/);
    const [, worth, needed] = /^went back to run_hw_queue .*: it is worth ([\d.]+) as a step, at least ([\d.]+)/.exec(details[2] ?? "") ?? [];
    // The decision gives the worth it was taken for.
    expect(Number(worth)).toBeGreaterThanOrEqual(Number(needed));
  });

  it("ends its look-ahead, not the answer, when a scope does not answer while it looks", async () => {
    // The first callers request answers; the look-ahead's next one finds the worker gone.
    let callers = 0;
    const { climbed } = await climbIn(near().get("block") as Pgc, question, "next_request", 0.5, (a) => a.mode === "callers" && ++callers > 1);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["next_request"]);
    expect(climbed.decisions.at(-1)?.detail).toMatch(/^began at next_request: its best caller, dispatch_2 in net, .*, and no caller within 3 above it is worth that$/);
  });

  it("does not climb when the caller worth enough is further up than that", async () => {
    const { climbed } = await climbIn(far().get("block") as Pgc, question, "next_request");

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["next_request"]);
    expect(climbed.decisions.at(-1)?.detail).toMatch(new RegExp(`^began at next_request: its best caller, dispatch_${CLIMB_LOOK_AHEAD + 1} in net, is worth [\\d.]+ as a step .*, and no caller within ${CLIMB_LOOK_AHEAD} above it is worth that$`));
  });
});

describe("a chain passing through the function the question names first", () => {
  const SOURCES = {
    net: {
      "net/streams.py": [
        "def open_connection(host):",
        '    """Opens a stream to the host."""',
        "    return create_connection(host)",
        "",
        "def create_connection(host):",
        '    """Connects a socket to the host without blocking."""',
        "    return connect_socket(host)",
        "",
        "def connect_socket(host):",
        '    """Connects the socket, waiting for it to be writable."""',
        "    return host",
        "",
      ].join("\n"),
    },
  };
  const scopes = withScopes("mesh-climb-named-", SOURCES);

  /** The forward chain from open_connection (its best path, as one hop), then the climb. */
  async function chainFrom(text: string): Promise<TraceOutcome> {
    const net = scopes().get("net") as Pgc;
    const question = parseQuestion(text);
    const args: ExpandArgs = { question, mode: "forward", from: { symbol: "open_connection" }, covered: {} };
    const result = await net.search().expand(parseExpandArgs(args));
    const lead = result.leads.find((l) => l.exit === null)!;
    const steps = lead.path.map((index, i) => toStep(result.steps[index]!, "net", "net-1", i === 0 ? null : lead.call_sites[i - 1]!));
    const outcome: TraceOutcome = { steps, hops: [{ scope: "net", agent: "net-1", args, result, steps, failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };
    const expand = async (_scope: string, a: ExpandArgs) => ({ result: await net.search().expand(parseExpandArgs(a)), agent: "net-1", failovers: 0 });
    return climbCallers({ expand, managerId: "manager" }, question, outcome, 6);
  }

  it("begins there, leaving out the steps before it", async () => {
    const chain = await chainFrom("How does create_connection() connect the socket without blocking?");

    expect(chain.steps.map((s) => s.symbol)).toEqual(["create_connection", "connect_socket"]);
    expect(chain.steps[0]).toMatchObject({ role: "entry", call_site: null });
    expect(chain.hops[0]?.steps.map((s) => s.symbol)).toEqual(["create_connection", "connect_socket"]);
    expect(chain.decisions.at(-1)?.detail).toBe("began at create_connection: the question names it (the chain from open_connection reached it; open_connection left out)");
  });

  it("keeps its beginning when the name is where the question says the path ends", async () => {
    const chain = await chainFrom("How does opening a stream get all the way down to create_connection()?");

    expect(chain.steps[0]?.symbol).toBe("open_connection");
  });
});

describe("climbCallers above a C function the code only calls", () => {
  // The same driver twice: in one, foo_fill is only called (by foo_write, which an ops table holds); in the
  // other, an ops table holds foo_fill too. Above a function only called, a caller joins at
  // CALLED_ONLY_PRIOR of what it needs above one used as a value: such a function is a step inside a path.
  const driver = (fillTaken: boolean) => ({
    drivers: {
      "drivers/foo.c": [
        "/* Copies the bytes into the transmit FIFO of the port. */",
        "static int foo_fill(struct foo_port *port, const char *buf, int count)",
        "{",
        "\treturn count;",
        "}",
        "",
        "/* Writes the bytes to the port. */",
        "static int foo_write(struct tty_struct *tty, const char *buf, int count)",
        "{",
        "\treturn foo_fill(tty->driver_data, buf, count);",
        "}",
        "",
        "static const struct tty_operations foo_ops = {",
        "\t.write = foo_write,",
        ...(fillTaken ? ["\t.fill = foo_fill,"] : []),
        "};",
        "",
      ].join("\n"),
    },
  });
  const calledOnly = withScopes("mesh-climb-c-called-", driver(false));
  const taken = withScopes("mesh-climb-c-taken-", driver(true));
  const question = "How are the bytes copied into the port's transmit FIFO?";

  it("goes back to the ops table's function above one only called, and not above one the table holds too", async () => {
    const below = (await climbIn(calledOnly().get("drivers") as Pgc, question, "foo_fill")).climbed;
    const above = (await climbIn(taken().get("drivers") as Pgc, question, "foo_fill")).climbed;

    expect(below.steps.map((s) => s.symbol)).toEqual(["foo_write", "foo_fill"]);
    expect(below.steps[1]?.call_site).toMatchObject({ file_path: "drivers/foo.c", line: 10 });
    const details = below.decisions.map((d) => d.detail);
    const [, lowered] = /^foo_fill is only called, never used as a value: a step inside a path, so a caller of it joins at ([\d.]+) \(×0\.7\)$/.exec(details[0] ?? "") ?? [];
    expect(Number(lowered)).toBeGreaterThan(0);
    expect(details[1]).toMatch(new RegExp(`^went back to foo_write .*: it is worth [\\d.]+ as a step, at least ${lowered}`));
    // Above foo_write, held by the ops table, nothing lowers what a caller needs.
    expect(details.some((d) => d.startsWith("foo_write is only called"))).toBe(false);

    expect(above.steps.map((s) => s.symbol)).toEqual(["foo_fill"]);
    expect(above.decisions.map((d) => d.detail)).toEqual([expect.stringMatching(/^began at foo_fill: its best caller, foo_write in net, is worth [\d.]+ as a step \(it bears [\d.]+ on the question\), less than [\d.]+/)]);
    expect(CALLED_ONLY_PRIOR).toBe(0.7);
  });
});
