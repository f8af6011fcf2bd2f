// A worker's warm-up and the interning of a question's requests, over real code (the demo kernel's C and
// Python 3.11's email package): neither changes an answer — a warmed scope answers as a cold one, a
// question's requests decoded apart share one interned question — and the warm-up yields to the event loop
// between its slices, so a request arriving meanwhile is not kept waiting for all of it.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { inSlices, warmQuestions, WARM_QUESTIONS } from "../../../agents/pgc/callgraph/warm-up.js";
import { MAX_INTERNED_QUESTIONS, QuestionCache } from "../../../agents/pgc/callgraph/question-cache.js";
import { parseQuestion } from "../../../agents/search/question.js";
import type { ExpandArgs } from "../../../agents/protocol/index.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";

const STDLIB = "/usr/lib/python3.11";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mesh-warm-"));
  if (existsSync(join(STDLIB, "email"))) cpSync(join(STDLIB, "email"), join(dir, "code", "email"), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two PGCs of one scope, opened apart: one to warm up, one left cold. */
async function twoOf(scope: string, root: string, paths: string[]): Promise<[Pgc, Pgc]> {
  const open = async () => new Pgc(scope, paths, await openPgc({ scope, root, scopePaths: paths, cacheRoot: join(dir, "cache"), logger: pino({ level: "silent" }) }));
  return [await open(), await open()];
}

/** What a user's question asks of a scope: its entry candidates, a forward expansion from the best, the callers of a function the expansion reached. */
async function answersOf(pgc: Pgc, text: string): Promise<unknown[]> {
  // Each request decoded apart, as the wire delivers them.
  const question = () => structuredClone(parseQuestion(text));
  const search = pgc.search();
  const entry = search.entry(question());
  const best = entry.candidates[0];
  if (!best) return [entry];
  const forward = await search.expand({ question: question(), mode: "forward", from: { symbol: best.symbol, file_path: best.file_path, line: best.line_start }, covered: {} });
  const reached = forward.steps.at(-1)?.symbol ?? best.symbol;
  const callers = await search.expand({ question: question(), mode: "callers", from: { symbol: reached }, covered: {} });
  return [entry, forward, callers];
}

const CASES: { name: string; scope: string; paths: string[]; root: () => string; questions: string[] }[] = [
  {
    name: "the demo kernel's drivers (C)",
    scope: "drivers",
    paths: ["drivers/", "include/linux/e1000.h"],
    root: () => C_KERNEL_DIR,
    questions: ["How does the e1000 driver allocate DMA buffers?", "How is a received frame copied when it is small?", "Who calls e1000_setup_ring?"],
  },
  {
    name: "Python 3.11's email package",
    scope: "email",
    paths: ["email/"],
    root: () => join(dir, "code"),
    questions: ["How does the email parser split headers from the body?", "How is a message flattened to bytes by the generator?", "Who calls decode_header?"],
  },
];

describe("a worker's warm-up", () => {
  for (const c of CASES) {
    it.skipIf(c.scope === "email" && !existsSync(join(STDLIB, "email")))(`leaves ${c.name} answering exactly as a cold scope`, async () => {
      const [warmed, cold] = await twoOf(c.scope, c.root(), c.paths);
      const stats = await warmed.search().warmUp();
      const graph = new CallGraph(warmed.data);
      // Every function's body tokenized, and the scope's own questions asked.
      expect(stats.bodies).toBe(graph.nodes.length);
      expect(stats.questions).toBe(Math.min(WARM_QUESTIONS, new Set(warmQuestions(graph).map((q) => q.from.file_path)).size));
      expect(stats.questions).toBeGreaterThan(0);
      // Its own questions are not kept: they are no user's.
      expect(warmed.search().questionsHeld).toBe(0);
      for (const text of c.questions) {
        const answers = await answersOf(warmed, text);
        // Each question finds a start and a path from it: a comparison of empty answers would prove nothing.
        expect(answers, text).toHaveLength(3);
        expect(answers, text).toEqual(await answersOf(cold, text));
      }
    });
  }

  it("asks questions made of the scope's own names, about its busiest functions, one per file", async () => {
    const [pgc] = await twoOf("drivers", C_KERNEL_DIR, ["drivers/", "include/linux/e1000.h"]);
    const graph = new CallGraph(pgc.data);
    const questions = warmQuestions(graph);
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.length).toBeLessThanOrEqual(WARM_QUESTIONS);
    expect(new Set(questions.map((q) => q.from.file_path)).size).toBe(questions.length);
    const busiest = Math.max(...graph.nodes.filter((n) => n.kind !== "class").map((n) => graph.callsOf(n.id).length));
    expect(graph.callsOf(questions[0]!.from.id)).toHaveLength(busiest);
    for (const { question, from, callee } of questions) {
      expect(question.text).toContain(from.name);
      if (callee) expect(graph.callsOf(from.id).some((e) => e.to === callee.id)).toBe(true);
    }
  });

  it("yields to the event loop between slices, and stops when told", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("request"));
    // A zero-length slice yields after every item: the request queued before the second item runs before it.
    const done = await inSlices([1, 2, 3], (n) => void order.push(`item ${n}`), () => false, 0);
    expect(done).toBe(3);
    expect(order.slice(0, 3)).toEqual(["item 1", "request", "item 2"]);

    let stop = false;
    const seen: number[] = [];
    const partial = await inSlices([1, 2, 3, 4], (n) => {
      seen.push(n);
      if (n === 2) stop = true;
    }, () => stop, 0);
    expect(partial).toBe(2);
    expect(seen).toEqual([1, 2]);
  });
});

describe("a question's requests on one worker", () => {
  it("share one interned question and its matchers, however often it is decoded", async () => {
    const [pgc] = await twoOf("drivers", C_KERNEL_DIR, ["drivers/", "include/linux/e1000.h"]);
    const search = pgc.search();
    const text = "How does the e1000 driver allocate DMA buffers?";
    const args = (): ExpandArgs => ({ question: structuredClone(parseQuestion(text)), mode: "forward", from: { symbol: "e1000_setup_tx_resources" }, covered: {} });
    search.entry(structuredClone(parseQuestion(text)));
    const first = await search.expand(args());
    const again = await search.expand(args());
    expect(again).toEqual(first);
    expect(search.questionsHeld).toBe(1);
    // A question differing in anything is another question.
    const other = parseQuestion(text);
    other.terms[0]!.weight += 1;
    await search.expand({ ...args(), question: other });
    expect(search.questionsHeld).toBe(2);
  });

  it("keeps the most recently used questions, at most MAX_INTERNED_QUESTIONS", async () => {
    const [pgc] = await twoOf("drivers", C_KERNEL_DIR, ["drivers/", "include/linux/e1000.h"]);
    const cache = new QuestionCache(new CallGraph(pgc.data), () => new Set());
    const question = (i: number) => structuredClone(parseQuestion(`How does the e1000 driver handle ring ${i}?`));
    const held = Array.from({ length: MAX_INTERNED_QUESTIONS }, (_, i) => cache.get(question(i)));
    expect(cache.get(question(0))).toBe(held[0]);
    expect(cache.size).toBe(MAX_INTERNED_QUESTIONS);
    // Used again, question 0 is the newest: one more question drops question 1, the oldest used.
    cache.get(question(MAX_INTERNED_QUESTIONS));
    expect(cache.size).toBe(MAX_INTERNED_QUESTIONS);
    expect(cache.get(question(0))).toBe(held[0]);
    expect(cache.get(question(2))).toBe(held[2]);
    const again = cache.get(question(1));
    expect(again).not.toBe(held[1]);
    expect(again.question).toEqual(question(1));
  });
});
