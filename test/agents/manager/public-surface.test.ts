// A TS/JS package's public surface, from the re-exports the workers report: the files its shallowest index
// module reaches through `export … from`, and the start prior it gives the entry round.
import { describe, expect, it } from "vitest";
import { PublicSurface } from "../../../agents/manager/entry/public-surface.js";
import { entryRound, OUTSIDE_SURFACE_PRIOR } from "../../../agents/manager/entry/entry-round.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { matchTerms } from "../../../agents/search/relevance.js";

// The shape of Zod 4: the root index re-exports the classic API, which re-exports core through a directory
// index; v3 and mini have their own index modules, reached only through subpaths.
const EDGES = [
  { from: "src/index.ts", to: "src/v4/classic/external.js" },
  { from: "src/v4/classic/external.ts", to: "src/v4/classic/schemas.js" },
  { from: "src/v4/classic/external.ts", to: "src/v4/core" },
  { from: "src/v4/core/index.ts", to: "src/v4/core/api.js" },
  { from: "src/v3/index.ts", to: "src/v3/types.js" },
  { from: "src/v4/mini/index.ts", to: "src/v4/mini/schemas.js" },
];

describe("the public surface", () => {
  it("is what the shallowest index module reaches, through files and directory indexes", () => {
    const surface = PublicSurface.of(EDGES);
    expect(surface?.entries).toEqual(["src/index"]);
    for (const file of ["src/index.ts", "src/v4/classic/schemas.ts", "src/v4/core/index.ts", "src/v4/core/api.ts"]) expect(surface?.has(file), file).toBe(true);
    for (const file of ["src/v3/types.ts", "src/v3/index.ts", "src/v4/mini/schemas.ts", "src/v4/core/util.ts"]) expect(surface?.has(file), file).toBe(false);
    // It says nothing about code that is not a TS/JS script.
    expect(surface?.has("net/core/dev.c")).toBe(true);
  });

  it("does not exist without a re-exporting index module", () => {
    expect(PublicSurface.of([])).toBeNull();
    expect(PublicSurface.of([{ from: "src/a.ts", to: "src/b.js" }])).toBeNull();
  });

  it("discounts a start outside it, unless the question names its directory or file", async () => {
    const surface = PublicSurface.of(EDGES);
    const ask = (question: string) =>
      entryRound(
        parseQuestion(question),
        ["v3", "classic"],
        async (scope, args) => {
          const place = scope === "v3" ? { file_path: "src/v3/types.ts", dirs: "v3" } : { file_path: "src/v4/classic/schemas.ts", dirs: "v4 classic" };
          const matches = matchTerms(args.question, { symbol: new Set(["extend"]), name: new Set(["extend"]), container: new Set(["object"]), dir: new Set(place.dirs.split(" ")) });
          return { scope, nodes: 10, df: {}, candidates: [{ symbol: "extend", qualified: "ZodObject.extend", kind: "method", file_path: place.file_path, line_start: 1, line_end: 3, matches }] };
        },
        surface,
      );
    const plain = await ask("How does extend work on an object schema?");
    expect(plain.candidates.map((c) => [c.scope, c.prior])).toEqual([
      ["classic", 1],
      ["v3", OUTSIDE_SURFACE_PRIOR],
    ]);
    expect(plain.candidates[1]?.why).toContain("outside the public surface");
    const named = await ask("How does extend work on an object schema in Zod 3?");
    expect(named.candidates.find((c) => c.scope === "v3")?.prior).toBe(1);
  });
});
