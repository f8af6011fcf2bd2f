// Exits whose names say nothing of the question score alike; of those, the ones whose callee the fleet calls
// from few places are looked into first: the next step of one flow before a helper called from everywhere.
// The worker orders them by its own scope's callers, which a small scope cannot tell apart (it calls most
// things once); the manager by the call sites every scope reports. Python parsed for real.
import { describe, expect, it } from "vitest";
import { traceFrom, withScopes } from "../../helpers/scopes.js";
import type { CodeReference, ScopeFacts } from "../../../topology/index.js";

const HELPERS = ["log_a", "log_b", "log_c", "log_d", "log_e", "log_f"];

const SOURCES: Record<string, Record<string, string>> = {
  util: { "util/log.py": HELPERS.flatMap((h) => [`def ${h}(path):`, "    return path", ""]).join("\n") },
  core: {
    "core/attr.py": [
      `from util.log import ${HELPERS.join(", ")}`,
      "from impl.inode import apply_new_end",
      "",
      "def change(path, size):",
      '    """Changes a file."""',
      ...HELPERS.map((h) => `    ${h}(path)`),
      "    return apply_new_end(path, size)",
      "",
    ].join("\n"),
  },
  impl: {
    "impl/inode.py": [
      "def apply_new_end(path, size):",
      "    return release_extents(path, size)",
      "",
      "def release_extents(path, size):",
      '    """Frees the extent blocks past the end of a file."""',
      "    return size",
      "",
    ].join("\n"),
  },
};

const calls = (from: string, targets: readonly string[], count: number): CodeReference[] => targets.map((target, i) => ({ kind: "call", target, from_file: from, line: i + 1, count }));

function facts(helperCalls: number): ScopeFacts[] {
  return [
    { scope: "util", paths: ["util/"], symbols: HELPERS, references: [] },
    { scope: "core", paths: ["core/"], symbols: ["change"], references: [...calls("core/attr.py", HELPERS, 1), ...calls("core/attr.py", ["apply_new_end"], 1)] },
    { scope: "impl", paths: ["impl/"], symbols: ["apply_new_end", "release_extents"], references: [] },
    // Elsewhere in the code base the log helpers are called from everywhere.
    { scope: "other", paths: ["other/"], symbols: [], references: calls("other/x.py", HELPERS, helperCalls) },
  ];
}

const scopes = withScopes("mesh-fleet-fan-in-", SOURCES);

describe("exits that score alike", () => {
  it("are looked into in the order of how few call sites the fleet reports for their callee", async () => {
    const question = "How are the extent blocks freed when a file changes?";
    const asked: string[] = [];
    const traced = await traceFrom(scopes(), facts(40), question, "change", { withCandidates: false, onExpand: (scope, args) => asked.push(`${scope}:${args.from.symbol}`) });
    // Six log calls come first in the body and score 0 as apply_new_end does; the look-ahead beam has five places.
    expect(asked).toContain("impl:apply_new_end");
    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["core:change", "impl:apply_new_end", "impl:release_extents"]);
  });

  it("keep the worker's order when the fleet calls them alike: the beam then ends before the last", async () => {
    const asked: string[] = [];
    await traceFrom(scopes(), facts(0), "How are the extent blocks freed when a file changes?", "change", { withCandidates: false, onExpand: (scope, args) => asked.push(`${scope}:${args.from.symbol}`) });
    expect(asked.filter((a) => a.startsWith("util:"))).toEqual(HELPERS.slice(0, 5).map((h) => `util:${h}`));
    expect(asked).not.toContain("impl:apply_new_end");
  });
});
