// A subclass's override that extends its base's method (`ProfilingRegexLexer.get_tokens_unprocessed` calling
// `RegexLexer.get_tokens_unprocessed(self, …)`) runs instead of it, not before it: tried as a new user would
// on Pygments, "How does RegexLexer pick the next token …" climbed from the base's method to the profiling
// subclass's. A climb (callers by name, `method_of`) skips such an override; "who calls" still lists it.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const LEXERS = {
  lexers: {
    "lexers/lexer.py": lines(
      "class Lexer:",
      "    def get_tokens(self, text):",
      "        for token in self.get_tokens_unprocessed(text):",
      "            yield token",
      "",
      "class RegexLexer(Lexer):",
      "    def get_tokens_unprocessed(self, text):",
      "        yield text",
      "",
      "class ProfilingRegexLexer(RegexLexer):",
      "    def get_tokens_unprocessed(self, text):",
      "        yield from RegexLexer.get_tokens_unprocessed(self, text)",
      "",
      "def lex_all(lexer, text):",
      "    return list(lexer.get_tokens_unprocessed(text))",
    ),
  },
};

describe("an override extending its base's method", () => {
  const scopes = withScopes("mesh-override-", LEXERS);
  const callers = async (from: { symbol: string; method_of?: string }) => {
    const result = await (scopes().get("lexers") as Pgc).search().expand({ question: parseQuestion("How does RegexLexer pick the next token?"), mode: "callers", from, covered: {} });
    return result.steps.map((s) => s.qualified).sort();
  };

  it("is no caller before it on a climb, and still a caller for who calls it", async () => {
    const climb = await callers({ symbol: "get_tokens_unprocessed", method_of: "RegexLexer" });
    expect(climb).not.toContain("ProfilingRegexLexer.get_tokens_unprocessed");
    expect(climb).toEqual(expect.arrayContaining(["Lexer.get_tokens", "lex_all"]));
    expect(await callers({ symbol: "RegexLexer.get_tokens_unprocessed" })).toContain("ProfilingRegexLexer.get_tokens_unprocessed");
  });
});
