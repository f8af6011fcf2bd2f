// The manager's journal: what was accepted and not finished survives a restart (with the replica it went
// to), a line torn by a crash is skipped, and a long journal is compacted to its unfinished entries.
import { afterEach, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Journal, JOURNAL_COMPACT_LINES, JOURNAL_FILE } from "../../../agents/manager/journal.js";
import type { DelegatedTask } from "../../../agents/protocol/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const task = (id: string): DelegatedTask => ({ id, task: `do ${id}`, acceptance_criteria: [] }) as unknown as DelegatedTask;

describe("the manager's journal", () => {
  it("returns what was accepted and not done, with its message id and last replica, across instances", () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-journal-"));
    dirs.push(dir);
    const journal = new Journal(join(dir, "audit"));
    journal.accepted(task("T1"), "mm", "j.one", 60_000);
    journal.dispatched("T1", "mm-1");
    journal.accepted(task("T2"), "net", "j.two");
    journal.done("T2");
    journal.accepted(task("T3"), "kernel", "j.three");
    journal.close();
    appendFileSync(join(dir, "audit", JOURNAL_FILE), '{"op":"accepted","task_id":"T4"'); // torn by a crash
    const after = new Journal(join(dir, "audit")).unfinished();
    expect(after.map((u) => [u.task.id, u.scope, u.message_id, u.agent ?? null])).toEqual([
      ["T1", "mm", "j.one", "mm-1"],
      ["T3", "kernel", "j.three", null],
    ]);
    expect(after[0]?.timeout_ms).toBe(60_000);
  });

  it("compacts a long journal to its unfinished entries", () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-journal-"));
    dirs.push(dir);
    const journal = new Journal(dir);
    for (let i = 0; i < JOURNAL_COMPACT_LINES / 2 + 1; i++) {
      journal.accepted(task(`D${i}`), "mm", `j.${i}`);
      journal.done(`D${i}`);
    }
    journal.accepted(task("LIVE"), "mm", "j.live");
    journal.close();
    const reopened = new Journal(dir);
    reopened.compact();
    expect(readFileSync(join(dir, JOURNAL_FILE), "utf8").trim().split("\n")).toHaveLength(1);
    expect(reopened.unfinished().map((u) => u.task.id)).toEqual(["LIVE"]);
  });
});
