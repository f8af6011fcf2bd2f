// A scope the chain passes through: when no exit is worth following by what its owner's best path adds, an
// owner that names nothing of the question may still call into the scope that holds it (`notify_change` on
// the way from a truncate to ext4's `ext4_setattr`, through a call that names no word of the question). Python parsed for real, each scope's own search.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { openScopes, sourceLines, traceFrom, withScopes } from "../../helpers/scopes.js";
import { type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import type { ScopeFacts } from "../../../topology/index.js";

let dir: string;
let scopes: Map<string, Pgc>;

const SOURCES: Record<string, Record<string, string>> = {
  vfs: {
    "vfs/open.py": ["from core.attr import notify_change", "", "def shrink_file(path, size):", '    """Shrinks a file to a new size."""', "    return notify_change(path, size)", ""].join("\n"),
  },
  core: {
    "core/attr.py": ["from impl.inode import apply_size", "", "def notify_change(path, size):", "    return apply_size(path, size)", ""].join("\n"),
  },
  impl: {
    "impl/inode.py": [
      "def apply_size(path, size):",
      '    """Frees the extent blocks of an ext file past its new end."""',
      "    return ext_free_extents(path, size)",
      "",
      "def ext_free_extents(path, size):",
      '    """Returns the extent blocks to the free block bitmap."""',
      "    return size",
      "",
    ].join("\n"),
  },
};

const FACTS: ScopeFacts[] = [
  { scope: "vfs", paths: ["vfs/"], symbols: ["shrink_file"], references: [] },
  { scope: "core", paths: ["core/"], symbols: ["notify_change"], references: [] },
  { scope: "impl", paths: ["impl/"], symbols: ["apply_size", "ext_free_extents"], references: [] },
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-pass-through-"));
  scopes = await openScopes(dir, SOURCES);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function trace(text: string, maxHops = 6): Promise<{ traced: TraceOutcome; asked: string[] }> {
  const asked: string[] = [];
  const traced = await traceFrom(scopes, FACTS, text, "shrink_file", { maxHops, onExpand: (scope, args) => asked.push(`${scope}:${args.from.symbol}`) });
  return { traced, asked };
}

describe("a scope the chain passes through", () => {
  it("is followed when what it calls leads further into the question than staying, and the chain goes on by that call", async () => {
    const { traced } = await trace("When a file shrinks, how are its extent blocks freed?");

    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["vfs:shrink_file", "core:notify_change", "impl:apply_size", "impl:ext_free_extents"]);
    expect(traced.steps[2]?.call_site).toMatchObject({ file_path: "core/attr.py", line: 4, text: "    return apply_size(path, size)" });
    const exits = traced.decisions.filter((d) => d.at === "exit").map((d) => d.detail);
    expect(exits[0]).toMatch(/^left vfs by notify_change \(vfs\/open\.py:5\) into core: core adds nothing itself \([\d.]+\), but passes the chain on by apply_size \(core\/attr\.py:4\) into impl, which leads to [\d.]+ of the question, more than staying \([\d.]+\)/);
    expect(exits[1]).toBe("left core by apply_size (core/attr.py:4) into impl, as chosen when the chain entered core");
  });

  it("is not followed when nothing past it bears on the question, nor when the hop budget has no room for two more hops", async () => {
    const unrelated = await trace("How does a file shrink?");
    expect(unrelated.traced.steps.map((s) => s.symbol)).toEqual(["shrink_file"]);

    const short = await trace("When a file shrinks, how are its extent blocks freed?", 2);
    expect(short.traced.steps.map((s) => s.scope)).toEqual(["vfs"]);
    expect(short.asked).not.toContain("impl:apply_size");
  });
});

// The same when an exit is followed by its own look-ahead: a call that repeats what the chain has (a record
// of the shrink) leads no further than staying, while the owner that adds nothing passes the chain on to
// where the question is answered.
const BESIDE: Record<string, Record<string, string>> = {
  vfs: {
    "vfs/open.py": [
      "from core.attr import notify_change",
      "from log.trace import record_shrink",
      "",
      "def shrink_file(path, size):",
      '    """Shrinks a file to a new size."""',
      "    record_shrink(path, size)",
      "    return notify_change(path, size)",
      "",
    ].join("\n"),
  },
  log: {
    "log/trace.py": ["def record_shrink(path, size):", '    """Records that a file shrinks to a size."""', "    return size", ""].join("\n"),
  },
  core: SOURCES.core as Record<string, string>,
  impl: SOURCES.impl as Record<string, string>,
};
const besideScopes = withScopes("mesh-pass-beside-", BESIDE);

describe("a scope the chain passes through, beside an exit that is followed", () => {
  it("is taken when what it calls leads further than the exit chosen by its own look-ahead", async () => {
    const facts: ScopeFacts[] = [...FACTS, { scope: "log", paths: ["log/"], symbols: ["record_shrink"], references: [] }];
    const traced = await traceFrom(besideScopes(), facts, "When a file shrinks, how are its extent blocks freed?", "shrink_file");
    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["vfs:shrink_file", "core:notify_change", "impl:apply_size", "impl:ext_free_extents"]);
    const left = traced.decisions.find((d) => d.at === "exit")?.detail ?? "";
    expect(left).toMatch(/^left vfs by notify_change \(vfs\/open\.py:7\) into core: core adds nothing itself \([\d.]+\), but passes the chain on by apply_size \(core\/attr\.py:4\) into impl, which leads to [\d.]+ of the question, more than staying \([\d.]+\) and than record_shrink \([\d.]+\), worth [\d.]+ itself/);
  });
});

// The steps through a scope that adds nothing are paid for one by one (DEPTH_COST each), as any step adding
// nothing is: a path of five forwarding calls into a logger whose class name holds a word of the question
// does not pay for itself, where one call would (SQLAlchemy's ORM chain had gone on through `correlate` and
// `PathRegistry.set` into `InstanceLogger.debug` for "… turn each row into an instance").
describe("a long path through a scope that adds nothing", () => {
  const long = withScopes("mesh-pass-through-long-", {
    vfs: { "vfs/open.py": sourceLines("from core.attr import notify_change", "", "def shrink_file(path, size):", '    """Shrinks a file to a new size, records the file size, stores the path."""', "    return notify_change(path, size)") },
    core: {
      "core/attr.py": sourceLines(
        "def notify_change(path, size):",
        "    return check_change(path, size)",
        "",
        "def check_change(path, size):",
        "    return validate_change(path, size)",
        "",
        "def validate_change(path, size):",
        "    return prepare_change(path, size)",
        "",
        "def prepare_change(path, size):",
        "    return queue_change(path, size)",
        "",
        "def queue_change(path, size):",
        "    return path.logger.debug(size)",
      ),
    },
    impl: { "impl/log.py": sourceLines("class InstanceLogger:", "    def debug(self, message):", "        return message") },
  });
  const question = "When a file shrinks to a new size, how is the file size of the instance recorded?";

  it("is not passed through for the little it leads to", async () => {
    const facts = [...long().values()].map((p) => p.facts());
    const traced = await traceFrom(long(), facts, question, "shrink_file");
    expect(traced.steps.map((s) => s.symbol)).toEqual(["shrink_file"]);
    expect(traced.decisions.at(-1)?.detail).toMatch(/^no exit from vfs bears on the question enough to follow/);
  });
});
