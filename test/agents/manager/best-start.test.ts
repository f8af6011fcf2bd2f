// Which start's chain answers: the one worth most (coverage less what its length costs, times its place
// prior: a step costs 0.02 less what it adds, and the steps past the last that adds are free), an
// earlier start keeping ties within 0.02 — unless a start within 0.02 is a function the question writes as
// code, which says where the question begins. The starts' matches are the workers' own (matchTerms on
// their names), the questions parsed as the manager parses them.
import { describe, expect, it } from "vitest";
import { bestStart, chainCost, START_BEAM, START_FULL_TERMS, START_RATIO, START_THRESHOLD, startBeam, startThreshold } from "../../../agents/manager/answer/start-choice.js";
import type { ScoredCandidate } from "../../../agents/manager/entry/entry-round.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { matchTerms, relevance } from "../../../agents/search/relevance.js";
import { tokenize } from "../../../agents/pgc/retrieval/index.js";

function candidate(question: ReturnType<typeof parseQuestion>, symbol: string, kind = "function"): ScoredCandidate {
  const matches = matchTerms(question, { symbol: new Set([symbol.toLowerCase()]), name: new Set(tokenize(symbol)) });
  return { scope: "kernel", symbol, qualified: symbol, kind, file_path: "kernel/exit.c", line_start: 1, line_end: 9, matches, score: relevance(question, matches), prior: 1, why: "" };
}

/** A step of a traced chain, by where it is (all bestStart looks at). */
const at = (file_path: string, line_start: number) => ({ file_path, line_start }) as never;
const chain = (coverage: number, steps: number) => ({ coverage, steps: Array.from({ length: steps }, (_, k) => at("kernel/other.c", 100 + k)) });

describe("bestStart", () => {
  const question = parseQuestion("When a process calls exit(), how is its parent, blocked in wait(), woken up?");
  const starts = [candidate(question, "forget_original_parent"), candidate(question, "exit_thread"), candidate(question, "exit")];

  it("takes, of chains worth the same, the one from the function the question writes as code", () => {
    const picked = bestStart(question, starts, [chain(0.5, 4), chain(0.3, 2), chain(0.5, 4)]);

    expect(picked).toMatchObject({ best: 2, byName: true });
    expect(starts[picked.best]?.symbol).toBe("exit");
  });

  it("keeps the better chain when the named start's is worth clearly less", () => {
    const picked = bestStart(question, starts, [chain(0.6, 4), chain(0.3, 2), chain(0.5, 4)]);

    expect(picked).toMatchObject({ best: 0, byName: false });
    expect(picked.value(chain(0.6, 4), 0)).toBeCloseTo(0.54, 10);
  });

  it("lets a later start win only by more than 0.02, and does not count a class the question names as where it starts", () => {
    const classQuestion = parseQuestion("How does ProcessPoolExecutor start worker processes when work is submitted?");
    const classStarts = [candidate(classQuestion, "submit"), candidate(classQuestion, "ProcessPoolExecutor", "class")];

    expect(bestStart(classQuestion, classStarts, [chain(0.8, 4), chain(0.79, 3)])).toMatchObject({ best: 0, byName: false });
    expect(bestStart(classQuestion, classStarts, [chain(0.8, 4), chain(0.85, 3)])).toMatchObject({ best: 1, byName: false });
  });

  it("keeps the chain from the function the question says the user calls, whatever the others are worth", () => {
    const driverQuestion = parseQuestion('When my driver calls crypto_alloc_skcipher("cbc(aes)", 0, 0) and no such algorithm is registered yet, how does the lookup ask the crypto manager to build one?');
    const driverStarts = [candidate(driverQuestion, "build_generic_driver_name"), candidate(driverQuestion, "crypto_alloc_skcipher")];
    expect(bestStart(driverQuestion, driverStarts, [chain(0.43, 3), chain(0.26, 6)])).toMatchObject({ best: 1, byUser: true });
    // The actors the question parser reads as outside the code call it too ("a user-space tool", "an app").
    const toolQuestion = parseQuestion("When a user-space tool calls i2c_smbus_xfer() on an adapter without SMBus support, how is the transfer emulated?");
    const toolStarts = [candidate(toolQuestion, "i2c_smbus_xfer_emulated"), candidate(toolQuestion, "i2c_smbus_xfer")];
    expect(bestStart(toolQuestion, toolStarts, [chain(0.5, 3), chain(0.3, 4)])).toMatchObject({ best: 1, byUser: true });
    // "After I call X, …" may ask what X set going: the chains decide.
    const afterQuestion = parseQuestion("After I call transport.set_keepalive(30), where does the idle connection send a keepalive?");
    const afterStarts = [candidate(afterQuestion, "_check_keepalive"), candidate(afterQuestion, "set_keepalive")];
    expect(bestStart(afterQuestion, afterStarts, [chain(0.5, 3), chain(0.3, 3)])).toMatchObject({ best: 0, byName: false });
    expect(bestStart(afterQuestion, afterStarts, [chain(0.5, 3), chain(0.3, 3)]).byUser).toBeUndefined();
  });

  describe("a chain passing through the best's start", () => {
    // The best match is where the path ends (the wake-up); a start further up reaches it on its way.
    const wakeQuestion = parseQuestion("When a child process exits, how is its parent that waits for it woken up?");
    const placed = (symbol: string, file_path: string, line_start: number): ScoredCandidate => ({ ...candidate(wakeQuestion, symbol), file_path, line_start });
    const wakeStarts = [placed("wake_up_parent", "kernel/exit.c", 40), placed("do_exit", "kernel/exit.c", 800)];
    // Every step adds to the question: neither chain pays for its length.
    const ending = { coverage: 0.32, gains: [0.3, 0.02], steps: [at("kernel/exit.c", 40), at("kernel/sched/wait.c", 90)] };
    const through = (coverage: number) => ({ coverage, gains: [0.05, 0.02, 0.2, 0.04], steps: [at("kernel/exit.c", 800), at("kernel/exit.c", 700), at("kernel/exit.c", 40), at("kernel/sched/wait.c", 90)] });
    const elsewhere = { coverage: 0.33, gains: [0.05, 0.02, 0.2, 0.06], steps: [at("kernel/exit.c", 800), at("kernel/exit.c", 700), at("kernel/signal.c", 30), at("kernel/sched/wait.c", 90)] };

    it("wins when worth more by less than the tie margin: its steps above the best's start add what they cost", () => {
      expect(bestStart(wakeQuestion, wakeStarts, [ending, through(0.33)])).toMatchObject({ best: 1, byName: false, upstream: true });
    });

    it("does not win when worth the same or less (steps above that add nothing are context), nor when it does not pass through the best's start", () => {
      expect(bestStart(wakeQuestion, wakeStarts, [ending, through(0.32)])).toMatchObject({ best: 0, upstream: false });
      expect(bestStart(wakeQuestion, wakeStarts, [ending, through(0.25)])).toMatchObject({ best: 0, upstream: false });
      expect(bestStart(wakeQuestion, wakeStarts, [ending, elsewhere])).toMatchObject({ best: 0, upstream: false });
    });

    it("does not win over a start the question writes as code: the question says it begins there", () => {
      const namedQuestion = parseQuestion("When wake_up_parent() runs, how is the waiting parent woken?");
      const namedStarts = [{ ...candidate(namedQuestion, "wake_up_parent"), file_path: "kernel/exit.c", line_start: 40 }, { ...candidate(namedQuestion, "do_exit"), file_path: "kernel/exit.c", line_start: 800 }];

      expect(bestStart(namedQuestion, namedStarts, [ending, through(0.33)])).toMatchObject({ best: 0, upstream: false });
    });
  });
});

describe("chainCost", () => {
  const traced = (coverage: number, gains: number[]) => ({ coverage, gains, steps: gains.map((_, k) => at("lib/http/server.py", 10 + k)) });

  it("charges each step after the first 0.02 less what it adds, up to the last step that adds anything", () => {
    expect(chainCost(traced(0.31, [0.2, 0.1, 0, 0.01, 0, 0]))).toBeCloseTo(0.02 + 0.01, 10);
    expect(chainCost(traced(0.4, [0.4, 0, 0, 0]))).toBe(0);
    // Not traced forward (no gains): every step after the first costs 0.02.
    expect(chainCost({ steps: [at("a.c", 1), at("a.c", 2), at("a.c", 3)] })).toBeCloseTo(0.04, 10);
  });

  it("lets a chain going on past what it covers, every step adding to the question, beat a short one covering a little less", () => {
    const question = parseQuestion("When http.server parses an incoming request, how are the header lines turned into a message object?");
    const starts = [candidate(question, "end_headers"), candidate(question, "parse_request")];
    const short = traced(0.25, [0.2, 0.05]);
    const long = traced(0.3, [0.12, 0.05, 0.05, 0.04, 0.04, 0, 0, 0]);

    expect(bestStart(question, starts, [short, long])).toMatchObject({ best: 1, byName: false });
    // Each step charged 0.02, as before, the long chain would lose (0.16 against 0.23).
    expect(bestStart(question, starts, [{ coverage: 0.25, steps: short.steps }, { coverage: 0.3, steps: long.steps }])).toMatchObject({ best: 0 });
  });
});

describe("startBeam", () => {
  const question = parseQuestion("When schedule() is called, how does it choose the next normal (CFS) task to run?");
  const scored = (symbol: string, score: number, kind = "function"): ScoredCandidate => ({ ...candidate(question, symbol, kind), score });
  const others = ["sched_idle_cfs_rq", "set_next_task", "cpu_util_cfs", "task_cfs_rq", "sched_core_next", "pick_next_entity"].map((s, i) => scored(s, 0.4 - 0.01 * i));

  it(`traces the best ${START_BEAM} starts, and the function the question writes as code when it is not among them`, () => {
    const beam = startBeam(question, [...others, scored("schedule", START_THRESHOLD + 0.01)]);

    expect(beam.map((c) => c.symbol)).toEqual([...others.slice(0, START_BEAM).map((c) => c.symbol), "schedule"]);
  });

  it("adds nothing when the written name is among the best already, is a class, or matches too little to start", () => {
    expect(startBeam(question, [scored("schedule", 0.5), ...others]).map((c) => c.symbol)).toEqual(["schedule", ...others.slice(0, START_BEAM - 1).map((c) => c.symbol)]);
    expect(startBeam(question, [...others, scored("schedule", START_THRESHOLD + 0.01, "class")])).toHaveLength(START_BEAM);
    expect(startBeam(question, [...others, scored("schedule", START_THRESHOLD - 0.01)])).toHaveLength(START_BEAM);
  });

  it(`traces no start scoring below ${START_RATIO} of the best one, but still the function the question writes as code`, () => {
    const best = 0.8;
    const beam = startBeam(question, [scored("pick_next_task_fair", best), scored("set_next_task", best * START_RATIO + 0.01), scored("sched_idle_cfs_rq", best * START_RATIO - 0.01), scored("schedule", START_THRESHOLD + 0.01)]);

    expect(beam.map((c) => c.symbol)).toEqual(["pick_next_task_fair", "set_next_task", "schedule"]);
  });
});

describe("startThreshold", () => {
  const short = parseQuestion("How does the e1000 driver allocate DMA buffers?");
  const long = parseQuestion(
    "On a board whose eMMC sits behind the Synopsys DesignWare MMC controller (dw_mmc), how does a read request dispatched by the block layer get from the MMC block queue down to the dw_mmc driver queuing it on the controller?",
  );

  it(`asks ${START_THRESHOLD} of a question of up to ${START_FULL_TERMS} terms, and of a longer one as much as that of ${START_FULL_TERMS} terms`, () => {
    expect(short.terms.length).toBeLessThanOrEqual(START_FULL_TERMS);
    expect(startThreshold(short)).toBe(START_THRESHOLD);
    expect(long.terms.length).toBeGreaterThan(START_FULL_TERMS);
    expect(startThreshold(long)).toBeCloseTo((START_THRESHOLD * START_FULL_TERMS) / long.terms.length, 10);
  });

  it("lets a long question start at a function naming a few of its words, where a short one would not", () => {
    const at = (question: ReturnType<typeof parseQuestion>, score: number): ScoredCandidate => ({ ...candidate(question, "dw_mci_queue_request"), score });
    const score = (startThreshold(long) + START_THRESHOLD) / 2;

    expect(startBeam(long, [at(long, score)])).toHaveLength(1);
    expect(startBeam(short, [at(short, score)])).toHaveLength(0);
  });
});
