// The grounding benchmark's scoring: which gold steps an answer cites, in order, whether its citations
// re-hash against the corpus, and what counts as an honest "no chain found".
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { citationHash } from "../../agents/protocol/index.js";
import type { MultiHopResult } from "../../agents/manager/answer/result.js";
import { loadAllCases, loadCaseFile } from "../../scripts/bench/grounding/cases.js";
import { inOrderCited, scoreAnswer, type AnswerStep } from "../../scripts/bench/grounding/score.js";

const root = mkdtempSync(join(tmpdir(), "grounding-score-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const CASES = join(import.meta.dirname, "../../scripts/bench/grounding/cases");

const lines = ["int a(void)", "{", "\treturn b();", "}", "int b(void)", "{", "\treturn 0;", "}"];
mkdirSync(join(root, "x"));
writeFileSync(join(root, "x/f.c"), `${lines.join("\n")}\n`);
const hash = (from: number, to: number) => citationHash(lines.slice(from - 1, to).join("\n"));

const gold = [
  { file: "x/f.c", symbol: "a", line: 1, scope: "one" },
  { file: "x/f.c", symbol: "b", line: 5, scope: "two" },
];
const step = (symbol: string, from: number, to: number, scope: string) => ({ scope, agent: `${scope}-1`, symbol, file_path: "x/f.c", line_start: from, line_end: to, sha256: hash(from, to), call_site: null });

function result(chain: ReturnType<typeof step>[], extra: Partial<MultiHopResult> = {}): MultiHopResult {
  return {
    id: "q",
    question: "?",
    mode: "traced",
    query_path: [...new Set(chain.map((s) => s.scope))],
    knowledge_chain: [],
    chain,
    outcome: chain.length > 0 ? "chain" : "no_chain",
    confidence: chain.length > 0 ? "high" : "low",
    answer: "",
    total_agents_queried: 0,
    safety: { max_hops: 6, actual_hops: 0, visited_agents: [], stopped_because: "" },
    elapsed_ms: 0,
    ...extra,
  };
}

const question = { id: "q", question: "?", kind: "how" as const, gold, call_sites: [], revised: false, notes: "" };

describe("grounding scores", () => {
  it("counts gold steps cited in order, by name or by a span over the definition line", () => {
    const named: AnswerStep = { scope: "one", file_path: "x/f.c", line_start: 1, line_end: 1, symbol: "a" };
    const spanning: AnswerStep = { scope: "two", file_path: "x/f.c", line_start: 4, line_end: 8, symbol: null };
    expect(inOrderCited(gold, [named, spanning])).toBe(2);
    // Out of order, only one of them is in order.
    expect(inOrderCited(gold, [spanning, named])).toBe(1);
    expect(inOrderCited(gold, [{ ...named, file_path: "x/g.c" }])).toBe(0);
  });

  it("counts a method of a gold unit (a class, a built value) as citing it, and no other qualified name", () => {
    const unit = [{ file: "x/s.ts", symbol: "ZodObject", line: 10, scope: "one" }];
    const at = (symbol: string): AnswerStep => ({ scope: "one", file_path: "x/s.ts", line_start: 20, line_end: 25, symbol });
    expect(inOrderCited(unit, [at("ZodObject.extend")])).toBe(1);
    expect(inOrderCited(unit, [at("ZodArray.extend")])).toBe(0);
    // A gold method is not cited by another method of its class.
    expect(inOrderCited([{ ...unit[0]!, symbol: "ZodObject.pick" }], [at("ZodObject.extend")])).toBe(0);
  });

  it("scores a full chain right, and re-hashes every citation against the corpus", () => {
    const score = scoreAnswer(question, gold, result([step("a", 1, 4, "one"), step("b", 5, 8, "two")]), root);
    expect(score).toMatchObject({ start_right: true, final_right: true, recall: 1, citations_checked: 2, citations_verified: 2 });
  });

  it("finds a citation whose lines changed, and a chain that starts in the wrong scope", () => {
    const forged = { ...step("b", 5, 8, "two"), sha256: "0".repeat(64) };
    const score = scoreAnswer(question, gold, result([forged]), root);
    expect(score).toMatchObject({ start_right: false, final_right: true, recall: 0.5, citations_checked: 1, citations_verified: 0 });
  });

  it("calls an off-topic answer honest only when it found no chain, with low confidence", () => {
    const offtopic = { ...question, kind: "offtopic" as const, gold: [] };
    expect(scoreAnswer(offtopic, [], result([]), root).honest_no_chain).toBe(true);
    expect(scoreAnswer(offtopic, [], result([step("a", 1, 4, "one")]), root).honest_no_chain).toBe(false);
  });

  it("loads every case file of the benchmark: at least 40 questions over at least 4 code bases", () => {
    const all = loadAllCases(CASES).filter((c) => c.corpus !== "fixtures");
    expect(new Set(all.map((c) => c.language))).toEqual(new Set(["c", "python", "typescript"]));
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.reduce((n, c) => n + c.questions.length, 0)).toBeGreaterThanOrEqual(40);
  });

  it("names every code base once, its question ids unique across the benchmark", () => {
    const all = loadAllCases(CASES);
    expect(new Set(all.map((c) => c.corpus)).size).toBe(all.length);
    const ids = all.flatMap((c) => c.questions.map((q) => q.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("refuses a case file with an unknown key or a call site off the chain", () => {
    const bad = join(root, "bad.json");
    const file = { corpus: "bad", language: "c", description: "", source: { kind: "repo", path: "x" }, questions: [{ ...question, call_sites: [{ from: 0, to: 5, line: 3 }] }] };
    writeFileSync(bad, JSON.stringify(file));
    expect(() => loadCaseFile(bad)).toThrow(/names a step/);
    writeFileSync(bad, JSON.stringify({ ...file, questions: [question], extra: 1 }));
    expect(() => loadCaseFile(bad)).toThrow(/extra/);
  });
});
