// The entry index finds the words a question term may match by substring search in its vocabulary, not by
// comparing the term with every word: the words it returns must include every word matchWord matches. Checked
// on the vocabulary of real code (three packages of Python's standard library) with terms made from its own
// words (whole, cut short, extended, their middles) and the code spellings of English words.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Vocabulary } from "../../../agents/pgc/callgraph/entry-index.js";
import { termForms, tokenize } from "../../../agents/pgc/retrieval/index.js";
import { mulberry32, randomInt } from "../../../agents/pgc/retrieval/prng.js";
import { matchWord } from "../../../agents/search/relevance.js";

const STDLIB = "/usr/lib/python3.11";

function vocabularyOf(dirs: readonly string[]): string[] {
  const words = new Set<string>();
  for (const dir of dirs) {
    for (const file of readdirSync(join(STDLIB, dir))) {
      if (file.endsWith(".py")) for (const word of tokenize(readFileSync(join(STDLIB, dir, file), "utf8"))) words.add(word);
    }
  }
  return [...words];
}

describe("the entry index's vocabulary search", () => {
  const words = vocabularyOf(["email", "http", "json"]);
  const vocabulary = new Vocabulary(new Set(words));

  it("finds every word matchWord matches, for 400 terms made from the code's own words and English", () => {
    expect(words.length).toBeGreaterThan(3_000);
    const random = mulberry32(20261126);
    const english = ["receive", "transmit", "send", "message", "connection", "request", "buffer", "find", "parse", "header", "address", "error", "length", "context"];
    let matched = 0;
    for (let i = 0; i < 400; i++) {
      const word = words[randomInt(random, words.length)] as string;
      const cut = 1 + randomInt(random, Math.max(1, word.length - 1));
      const shapes = [word, word.slice(0, cut), word.slice(cut), `${word}er`, word.slice(1, 1 + 5), english[randomInt(random, english.length)] as string];
      const base = tokenize(shapes[randomInt(random, shapes.length)] as string)[0] ?? word;
      const term = { term: base, forms: [...termForms(base)] };
      const expected = words.filter((w) => matchWord({ ...term, weight: 1, name: false }, w) > 0);
      const found = new Set(vocabulary.candidates(term));
      for (const w of expected) expect(found.has(w), `${w} for ${base}`).toBe(true);
      matched += expected.length;
    }
    // The terms reach many words, whole and in part.
    expect(matched).toBeGreaterThan(2_000);
  });

  it("returns few words beside those, not the vocabulary", () => {
    const term = { term: "header", forms: [...termForms("header")] };
    const found = vocabulary.candidates(term);
    expect(found).toEqual(expect.arrayContaining(["header", "head"]));
    expect(found.length).toBeLessThan(words.length / 20);
    // A spelling of two letters is matched only whole: `tx` is no part of `txt` to search for.
    expect(new Vocabulary(new Set(["tx", "txt", "ctx"])).candidates({ term: "transmit", forms: ["xmit", "tx"] })).toEqual(["tx"]);
  });
});
