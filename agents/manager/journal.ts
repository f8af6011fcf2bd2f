// The manager's journal of accepted delegations: a line written and fsync'd before a task is dispatched,
// the replica it went to, and a line when it is finished. A manager that restarts reads it and resumes
// every task accepted but not finished by sending it again under the same message id, so the worker that
// already ran it answers from its reply cache (or, still running it, answers when it is done): nothing
// accepted is lost, and nothing runs twice. An append-only file, not SQLite: Node 20 has no built-in
// SQLite and better-sqlite3 needs Node 22 (docs/MANAGER.md, "The journal").
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DelegatedTask } from "../protocol/index.js";

export const JOURNAL_FILE = "journal.jsonl";
/** Finished entries are dropped from the file when a manager starts and more than this many lines are there. */
export const JOURNAL_COMPACT_LINES = 10_000;

export type JournalLine =
  | { op: "accepted"; task_id: string; scope: string; message_id: string; timeout_ms?: number; task: DelegatedTask; at: number }
  | { op: "dispatched"; task_id: string; agent: string; at: number }
  | { op: "done"; task_id: string; at: number };

export interface Unfinished {
  task: DelegatedTask;
  scope: string;
  message_id: string;
  timeout_ms?: number;
  /** The replica it was last sent to, when the journal says. */
  agent?: string;
  accepted_at: number;
}

export class Journal {
  private readonly file: string;
  private fd: number | null = null;

  constructor(dir: string) {
    this.file = join(dir, JOURNAL_FILE);
  }

  /** Appends one line and waits for it to reach the disk (fsync). */
  private write(line: JournalLine): void {
    if (this.fd === null) {
      mkdirSync(dirname(this.file), { recursive: true });
      this.fd = openSync(this.file, "a", 0o600);
    }
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    fsyncSync(this.fd);
  }

  accepted(task: DelegatedTask, scope: string, messageId: string, timeoutMs?: number): void {
    this.write({ op: "accepted", task_id: task.id, scope, message_id: messageId, ...(timeoutMs ? { timeout_ms: timeoutMs } : {}), task, at: Date.now() });
  }

  dispatched(taskId: string, agent: string): void {
    this.write({ op: "dispatched", task_id: taskId, agent, at: Date.now() });
  }

  done(taskId: string): void {
    this.write({ op: "done", task_id: taskId, at: Date.now() });
  }

  /** The tasks accepted and not finished, oldest first (a torn last line from a crash is skipped). */
  unfinished(): Unfinished[] {
    const open = new Map<string, Unfinished>();
    for (const line of this.lines()) {
      if (line.op === "accepted") open.set(line.task_id, { task: line.task, scope: line.scope, message_id: line.message_id, ...(line.timeout_ms ? { timeout_ms: line.timeout_ms } : {}), accepted_at: line.at });
      else if (line.op === "dispatched") {
        const entry = open.get(line.task_id);
        if (entry) entry.agent = line.agent;
      } else open.delete(line.task_id);
    }
    return [...open.values()];
  }

  /** Rewrites the file with only the unfinished entries, when it has grown long (at start, before any write). */
  compact(): void {
    const lines = this.lines();
    if (lines.length <= JOURNAL_COMPACT_LINES) return;
    const keep = new Set(this.unfinished().map((u) => u.task.id));
    const temp = `${this.file}.compact`;
    writeFileSync(temp, lines.filter((l) => keep.has(l.task_id)).map((l) => `${JSON.stringify(l)}\n`).join(""), { mode: 0o600 });
    renameSync(temp, this.file);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private lines(): JournalLine[] {
    if (!existsSync(this.file)) return [];
    const out: JournalLine[] = [];
    for (const text of readFileSync(this.file, "utf8").split("\n")) {
      if (!text) continue;
      try {
        out.push(JSON.parse(text) as JournalLine);
      } catch {
        // a line torn by a crash mid-write: it was never fsync'd as accepted
      }
    }
    return out;
  }
}
