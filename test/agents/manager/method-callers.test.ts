// "Who calls Retry.from_int?" over Python parsed for real in three scopes: a method is called through
// objects, which no scope's references list, so every other scope is asked for calls through its class —
// `Retry.from_int(…)` counts, `thing.from_int(…)` through an object of unknown class does not — and its
// own scope's callers come last.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { openScopes } from "../../helpers/scopes.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { entryRound } from "../../../agents/manager/entry/entry-round.js";
import { traceCallers } from "../../../agents/manager/search/trace-callers.js";
import { parseEntryArgs, parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";
import { ScopeGraph } from "../../../topology/index.js";

let dir: string;
let scopes: Map<string, Pgc>;

const SOURCES: Record<string, Record<string, string>> = {
  util: {
    "util/retry.py": [
      "class Retry:",
      "    @classmethod",
      "    def from_int(cls, retries):",
      '        """Turns a plain retry count into a Retry."""',
      "        return cls()",
      "",
      "class Other:",
      "    def from_int(self, value):",
      "        return value",
      "",
      "def default_retry():",
      "    return Retry.from_int(3)",
      "",
    ].join("\n"),
  },
  adapters: {
    "adapters/http.py": [
      "from util.retry import Retry",
      "",
      "class Adapter:",
      "    def __init__(self, retries):",
      "        self.max_retries = Retry.from_int(retries)",
      "",
      "def unrelated(thing):",
      "    return thing.from_int(3)",
      "",
      "class PatientRetry(Retry):",
      "    def again(self):",
      "        return self.from_int(2)",
      "",
    ].join("\n"),
  },
  pool: {
    "pool/pool.py": ["def make_pool(retries, other):", "    other.from_int(1)", "    return None", ""].join("\n"),
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-method-callers-"));
  scopes = await openScopes(dir, SOURCES);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("who calls a method", () => {
  it("asks every other scope for calls through the method's class, and keeps those whose receiver names it", async () => {
    const question = parseQuestion("Who calls Retry.from_int?");
    const round = await entryRound(question, [...scopes.keys()], async (scope, args) => (scopes.get(scope) as Pgc).search().entry(parseEntryArgs(args).question, args.top_k));
    const start = round.candidates.find((c) => c.qualified === "Retry.from_int");
    if (!start) throw new Error("Retry.from_int is no entry candidate");
    const asked: string[] = [];
    const deps = {
      managerId: "manager",
      // No scope's references call it: only the fan-out can find its callers.
      ownership: { ownersOf: () => [], callersOf: () => [] },
      graph: new ScopeGraph([...scopes.keys()].map((name) => ({ name, metadata: {} as never })), []),
      expand: async (scope: string, args: ExpandArgs) => {
        if (args.mode === "callers") asked.push(`${scope}:${args.from.symbol}`);
        return { result: await (scopes.get(scope) as Pgc).search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 0 };
      },
    };
    const traced = await traceCallers(deps, { question: round.question, start, scopeScores: new Map(), maxHops: 6 });

    expect(asked.sort()).toEqual(["adapters:Retry.from_int", "pool:Retry.from_int", "util:Retry.from_int"]);
    // The other scopes' callers first, then its own scope's, while the hop budget has room.
    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}:${s.role}`)).toEqual(["util:Retry.from_int:entry", "adapters:PatientRetry.again:caller", "adapters:Adapter.__init__:caller", "util:default_retry:caller"]);
    expect(traced.steps[2]?.call_site).toMatchObject({ file_path: "adapters/http.py", line: 5, text: "        self.max_retries = Retry.from_int(retries)" });
    expect(traced.decisions.map((d) => d.detail)).toContain("Retry.from_int is a method: the 2 other scopes were asked for calls through its class; adapters make them");
    expect(traced.decisions.map((d) => d.detail)).toContain("util, which defines from_int, calls it too: default_retry");
  });

  it("counts, in one scope, only the calls through the class or an object its receiver names", async () => {
    const question = parseQuestion("Who calls from_int?");
    const adapters = scopes.get("adapters") as Pgc;
    const callers = async (symbol: string) => {
      const result = await adapters.search().expand(parseExpandArgs({ question, mode: "callers", from: { symbol }, covered: {}, max_depth: 0 }));
      return result.leads.map((l) => result.steps[l.path[0]!]?.qualified).sort();
    };
    // By its name alone, every call of a from_int; as Retry's method, Retry.from_int(…) and a subclass's
    // self.from_int(…), which it inherits (tried on TanStack Query's core: `this.scheduleGc()` in `Mutation`).
    expect(await callers("from_int")).toEqual(["Adapter.__init__", "PatientRetry.again", "unrelated"]);
    expect(await callers("Retry.from_int")).toEqual(["Adapter.__init__", "PatientRetry.again"]);
  });
});
