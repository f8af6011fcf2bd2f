// An exit is followed only if the chain through it covers at least as much of the question as staying in the
// scope does; when the exit worth most does not, another that does is followed (the most worth of those),
// rather than ending the chain. Python parsed for real, each scope's own search.
import { describe, expect, it } from "vitest";
import { traceFrom, withScopes } from "../../helpers/scopes.js";
import type { ScopeFacts } from "../../../topology/index.js";

const SOURCES: Record<string, Record<string, string>> = {
  fs: {
    "fs/sync.py": [
      "from log.record import sync_command_log",
      "from journal.flush import flush_pending",
      "",
      "def sync_command(handle):",
      '    """Runs the sync command for a handle."""',
      "    sync_command_log(handle)",
      "    return wait_local(handle)",
      "",
      "def wait_local(handle):",
      '    """Waits until the journal is done with the handle."""',
      "    return flush_pending(handle)",
      "",
    ].join("\n"),
  },
  log: {
    "log/record.py": ["def sync_command_log(handle):", "    return handle", ""].join("\n"),
  },
  journal: {
    "journal/flush.py": ["def flush_pending(handle):", "    return finish(handle)", "", "def finish(handle):", '    """Marks the commit finished."""', "    return handle", ""].join("\n"),
  },
};

const FACTS: ScopeFacts[] = [
  { scope: "fs", paths: ["fs/"], symbols: ["sync_command", "wait_local"], references: [] },
  { scope: "log", paths: ["log/"], symbols: ["sync_command_log"], references: [] },
  { scope: "journal", paths: ["journal/"], symbols: ["flush_pending", "finish"], references: [] },
];

const scopes = withScopes("mesh-as-far-", SOURCES);

describe("an exit that leads as far as staying", () => {
  it("is followed when the exit worth most leads less far than staying", async () => {
    const outcome = await traceFrom(scopes(), FACTS, "How does the sync command wait for the journal commit?", "sync_command");
    // `sync_command_log` repeats the words the chain has (worth more by its name) and adds nothing; staying
    // ends at `wait_local`; `flush_pending` names nothing, but leads on from there to the commit.
    expect(outcome.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["fs:sync_command", "fs:wait_local", "journal:flush_pending", "journal:finish"]);
    const left = outcome.decisions.find((d) => d.at === "exit")?.detail ?? "";
    expect(left).toContain("left fs by flush_pending");
    expect(left).toMatch(/sync_command_log, worth more \(0\.\d\d\), leads to 0\.\d\d of the question, less than staying \(0\.\d\d\), and this one as far \(0\.\d\d\)/);
  });
});
