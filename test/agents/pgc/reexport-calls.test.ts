// TS/JS calls through a module that passes a name on: `checks.minLength(…)` after `import * as checks
// from "./checks.js"`, where checks.ts only re-exports `_minLength as minLength` from another scope's module,
// is an exit to `_minLength` from that module — with the re-export's line, which validation needs, since
// the call line names `minLength`. Within the scope, `export *` chains lead to the defining file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { citationHash } from "../../../agents/protocol/index.js";
import { writeCorpus } from "../../helpers/corpus.js";

const SOURCES: Record<string, string> = {
  "src/classic/schemas.ts": [
    'import * as checks from "./checks.js";',
    "/** A string schema's minimum length check. */",
    "export function min(length: number): object {",
    "  return checks.minLength(length);",
    "}",
    "/** A string schema's maximum length check. */",
    "export function max(length: number): object {",
    "  return checks.maxLength(length);",
    "}",
    "",
  ].join("\n"),
  "src/classic/checks.ts": ["export {", "  _minLength as minLength,", '} from "../core/api.js";', 'export * from "./local.js";', ""].join("\n"),
  "src/classic/local.ts": ["export function maxLength(length: number): object {", "  return { length };", "}", ""].join("\n"),
  "src/core/api.ts": ["export function _minLength(length: number): object {", "  return { length };", "}", ""].join("\n"),
};

let root: string;
let cache: string;
let classic: Pgc;

beforeAll(async () => {
  root = writeCorpus("reexport-calls-", SOURCES);
  cache = mkdtempSync(join(tmpdir(), "reexport-calls-cache-"));
  classic = new Pgc("classic", ["src/classic/"], await openPgc({ scope: "classic", root, scopePaths: ["src/classic/"], cacheRoot: cache, logger: pino({ level: "silent" }) }));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

describe("calls through a module that re-exports", () => {
  it("leave the scope for the renamed definition, with the line that renames it", async () => {
    const question = parseQuestion("How does min add a minimum length check?");
    const result = await classic.search().expand({ question, mode: "forward", from: { symbol: "min" }, covered: {} });
    const exit = result.leads.find((l) => l.exit?.target === "_minLength")?.exit;
    expect(exit).toMatchObject({ target: "_minLength", module: "../core/api.js", via: "reference" });
    expect(exit?.call_site.text).toBe("  return checks.minLength(length);");
    expect(exit?.call_site.alias_at).toMatchObject({ name: "minLength", file_path: "src/classic/checks.ts", line: 2, text: "  _minLength as minLength," });
    expect(exit?.call_site.alias_at?.sha256).toBe(citationHash("  _minLength as minLength,"));
  });

  it("follow `export *` inside the scope to the file defining the name, with no renaming line", async () => {
    const question = parseQuestion("How does max add a maximum length check?");
    const result = await classic.search().expand({ question, mode: "forward", from: { symbol: "max" }, covered: {} });
    const lead = result.leads.find((l) => l.path.length === 2);
    expect(lead?.path.map((i) => result.steps[i]?.file_path)).toEqual(["src/classic/schemas.ts", "src/classic/local.ts"]);
    expect(lead?.call_sites[0]?.alias_at).toBeUndefined();
  });
});
