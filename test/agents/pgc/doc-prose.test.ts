// A function's doc terms leave its code examples out: an SDK writes `for await (const item of client.x.list())`
// in the doc of every list method, and a question quoting such a loop matched whichever method's doc had the
// most of those words (openai's `InputItems.list` for `client.files.list()`).
import { describe, expect, it } from "vitest";
import { docProse, fieldTermsOf } from "../../../agents/pgc/callgraph/node-terms.js";
import type { CodeSymbol } from "../../../agents/pgc/types.js";

const JSDOC = [
  "Returns a list of input items for a given response.",
  "",
  "@example",
  "```ts",
  "// Automatically fetches more pages as needed.",
  "for await (const responseItem of client.responses.inputItems.list('response_id')) {",
  "}",
  "```",
  "@deprecated use the paginated form",
].join("\n");

describe("a doc comment's prose", () => {
  it("leaves out fenced blocks, a JSDoc example up to the next tag, and Python's doctest lines", () => {
    const prose = docProse(JSDOC);
    expect(prose).toContain("Returns a list of input items");
    expect(prose).toContain("@deprecated use the paginated form");
    expect(prose).not.toMatch(/await|const|fetches/);
    const python = docProse(["Split a header into its parts.", "", ">>> split_header('a; b')", "['a', 'b']", "... more", "Quoted parts stay whole."].join("\n"));
    expect(python).toContain("Split a header");
    expect(python).toContain("Quoted parts stay whole.");
    expect(python).not.toMatch(/>>>|split_header/);
  });

  it("leaves out reStructuredText's literal blocks and code directives, keeping the prose around them", () => {
    const rest = ["Do a thing.", "", "Example::", "", "    conn = engine.connect()", "    conn.execute(stmt)", "", ".. code-block:: python", "", "    await pool.acquire()", "", "Returns the thing."].join("\n");
    const prose = docProse(rest);
    expect(prose).toContain("Do a thing.");
    expect(prose).toContain("Example::");
    expect(prose).toContain("Returns the thing.");
    expect(prose).not.toMatch(/engine|execute|code-block|await|acquire/);
  });

  it("is what a function's doc terms are made of", () => {
    const symbol = { name: "list", kind: "method", container: "InputItems", file_path: "src/resources/responses/input-items.ts", line_start: 1, line_end: 2, signature: "list()", doc: JSDOC } as CodeSymbol;
    const doc = fieldTermsOf(symbol).doc;
    expect(doc.has("input")).toBe(true);
    expect(doc.has("await")).toBe(false);
    expect(doc.has("const")).toBe(false);
  });
});
