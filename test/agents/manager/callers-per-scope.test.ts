// "Who calls X?" cites up to CALLERS_PER_SCOPE callers of each scope, the most relevant first, and says
// when a scope answered with more: tried on aiohttp, whose multipart and payload modules (one scope) call
// `parse_mimetype` from five functions, of which three had been listed, with no word of the others.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { sourceLines as lines, withScopes } from "../../helpers/scopes.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { entryRound } from "../../../agents/manager/entry/entry-round.js";
import { CALLERS_PER_SCOPE, traceCallers } from "../../../agents/manager/search/trace-callers.js";
import { parseEntryArgs, parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";
import { ScopeGraph } from "../../../topology/index.js";

const CALLERS = 7;

const SOURCES = {
  util: { "util/mime.py": lines("def parse_mimetype(value):", '    """Splits a Content-Type value into type, subtype and parameters."""', "    return value") },
  forms: {
    "forms/parts.py": lines("from util.mime import parse_mimetype", "", ...Array.from({ length: CALLERS }, (_, i) => [`def part_${i}(value):`, "    return parse_mimetype(value)", ""]).flat()),
  },
};

describe("who calls a function many functions of one scope call", () => {
  const scopes = withScopes("mesh-callers-per-scope-", SOURCES);

  it(`cites ${CALLERS_PER_SCOPE} of a scope's callers and says how many it answered with`, async () => {
    const question = parseQuestion("Who calls parse_mimetype?");
    const round = await entryRound(question, [...scopes().keys()], async (scope, args) => (scopes().get(scope) as Pgc).search().entry(parseEntryArgs(args).question, args.top_k));
    const start = round.candidates.find((c) => c.qualified === "parse_mimetype");
    if (!start) throw new Error("parse_mimetype is no entry candidate");
    const deps = {
      managerId: "manager",
      ownership: { ownersOf: () => ["util"], callersOf: () => [{ scope: "forms", count: CALLERS }] },
      graph: new ScopeGraph([...scopes().keys()].map((name) => ({ name, metadata: {} as never })), []),
      expand: async (scope: string, args: ExpandArgs) => ({ result: await (scopes().get(scope) as Pgc).search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 0 }),
    };
    const traced = await traceCallers(deps, { question: round.question, start, scopeScores: new Map(), maxHops: 6 });
    expect(traced.steps.filter((s) => s.scope === "forms" && s.role === "caller")).toHaveLength(CALLERS_PER_SCOPE);
    expect(traced.decisions.map((d) => d.detail)).toContain(`forms answered with ${CALLERS} callers; the ${CALLERS_PER_SCOPE} bearing most on the question are cited`);
  });
});
