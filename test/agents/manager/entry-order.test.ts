// The order of the entry round's candidates: by score, and of equal scores, the one whose name says least
// the question does not ask about, then the smaller unit.
import { describe, expect, it } from "vitest";
import { entryRound } from "../../../agents/manager/entry/entry-round.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { matchTerms } from "../../../agents/search/relevance.js";
import { tokenize } from "../../../agents/pgc/retrieval/index.js";

const PLACES = [
  { symbol: "ext4_journal_start_reserved", line_start: 333, line_end: 334 },
  { symbol: "ext4_journal_start_sb", line_start: 300, line_end: 330 },
  { symbol: "ext4_journal_start", line_start: 340, line_end: 341 },
];

describe("the entry round's order", () => {
  it("puts, of equally relevant candidates, the one whose name holds fewest words the question does not ask about first", async () => {
    const question = parseQuestion("How does ext4 start a journal transaction through jbd2?");
    const round = await entryRound(question, ["fs-ext4"], async (scope, args) => ({
      scope,
      nodes: 100,
      df: {},
      candidates: PLACES.map((p) => ({ ...p, qualified: p.symbol, kind: "function", file_path: "fs/ext4/ext4_jbd2.h", matches: matchTerms(args.question, { name: new Set(tokenize(p.symbol)), file: new Set(["ext4", "jbd2"]) }) })),
    }));
    const scores = new Set(round.candidates.map((c) => c.score.toFixed(6)));
    expect(scores.size).toBe(1);
    expect(round.candidates.map((c) => c.symbol)).toEqual(["ext4_journal_start", "ext4_journal_start_reserved", "ext4_journal_start_sb"]);
  });
});

describe("the entry round's order among methods of two classes", () => {
  it("puts, of two equally relevant methods, the one whose class's name says less the question does not ask about first", async () => {
    const question = parseQuestion("If I call form.setFieldValue('email', value), how is the form validated?");
    const round = await entryRound(question, ["src-2", "src-formapi"], async (scope, args) => {
      const container = scope === "src-2" ? "FormGroupApi" : "FormApi";
      return {
        scope,
        nodes: 100,
        df: {},
        candidates: [{ symbol: "setFieldValue", qualified: `${container}.setFieldValue`, kind: "method", file_path: `src/${container}.ts`, line_start: 10, line_end: 20, matches: matchTerms(args.question, { symbol: new Set(["setfieldvalue"]), name: new Set(tokenize("setFieldValue")), container: new Set(tokenize(container)) }) }],
      };
    });
    expect(new Set(round.candidates.map((c) => c.score.toFixed(6))).size).toBe(1);
    // `src-2` sorts first by scope; FormGroupApi's `group` is a word the question does not ask about.
    expect(round.candidates.map((c) => c.qualified)).toEqual(["FormApi.setFieldValue", "FormGroupApi.setFieldValue"]);
  });
});
