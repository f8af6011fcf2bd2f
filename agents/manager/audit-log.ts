// The manager's records: one JSONL line per multi-hop answer (replayable with `mesh trace ID`), the
// full output of every hop as one line of hops.jsonl (hops pass on only key findings and a reference to
// that line), and MANIFEST.jsonl with one line per completed delegation (seed 001 §5.1), whose output
// is a file of its own under outputs/ (the manifest's `file`).
//
// Writes go behind the answer: each record is queued, and the queue is written in order, with
// synchronous file calls, on the next turn of the event loop (one batch, no thread-pool round trip
// per file). Appends only, on the hot path: creating a file costs about 30 times an append here. A caller that must know a record is on disk awaits the promise its write returns (a
// delegation does, before it answers); `find` and `flush` wait for everything queued before them.
// The JSONL files are appended to through descriptors kept open while writes keep coming (an open and a
// close cost more than the write itself), closed after APPEND_IDLE_CLOSE_MS without one.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { formatManifestLine, type ManifestEntryInput } from "../protocol/index.js";

export const AUDIT_FILE = "audit.jsonl";
export const MANIFEST_FILE = "MANIFEST.jsonl";
export const HOPS_FILE = "hops.jsonl";
export const OUTPUTS_DIR = "outputs";
/** One line per hop while answers are searched: what a live view draws before the answer is back. */
export const LIVE_FILE = "live.jsonl";

/** An append descriptor unused this long is closed (a moved or deleted file is reopened after it). */
export const APPEND_IDLE_CLOSE_MS = 1_000;

/** Failures are reported through onError; a caller that awaits still sees the rejection, one that leaves it crashes nothing. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

interface QueuedWrite {
  write: () => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class AuditLog {
  private queue: QueuedWrite[] = [];
  private scheduled = false;
  private dirReady = false;
  /** Open append descriptors by file name; closed together when idle. */
  private readonly appendFds = new Map<string, number>();
  private idleTimer: NodeJS.Timeout | undefined;
  private wroteSinceIdleCheck = false;
  /** Writes that failed since start (each also reaches `onError`). */
  failures = 0;

  constructor(
    readonly dir: string,
    /** Told of every failed write; the record's own promise rejects too. */
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  /** The reference of a hop's stored output: its line in hops.jsonl, relative to the audit dir. */
  hopRef(traceId: string, hop: number): string {
    return `${HOPS_FILE}#${traceId}-hop${hop}`;
  }

  /**
   * Store a hop's full output as one line of hops.jsonl; the reference is valid at once. The promise
   * settles when the line is written; it is marked handled, so a caller may leave it (onError hears).
   */
  writeHopOutput(traceId: string, hop: number, output: unknown): Promise<string> {
    const ref = this.hopRef(traceId, hop);
    // Serialized in the drain, off the path to the next hop: a stored output is never changed afterwards.
    return handled(this.enqueue(() => this.appendLine(HOPS_FILE, `${JSON.stringify({ ref, trace: traceId, hop, output })}\n`)).then(() => ref));
  }

  /** A delegation's full output in a file of its own; resolves to its path relative to the audit dir. */
  writeOutputFile(taskId: string, output: unknown): Promise<string> {
    const file = `${OUTPUTS_DIR}/${taskId.replace(/[^A-Za-z0-9._-]/g, "_")}.json`;
    const body = JSON.stringify(output);
    return handled(this.enqueue(() => writeFileSync(join(this.dir, file), body)).then(() => file));
  }

  /** A delegation's stored output (`writeOutputFile`), or null when there is none. */
  async readOutputFile(taskId: string): Promise<unknown> {
    await this.flush();
    const file = `${OUTPUTS_DIR}/${taskId.replace(/[^A-Za-z0-9._-]/g, "_")}.json`;
    try {
      return JSON.parse(await readFile(join(this.dir, file), "utf8"));
    } catch {
      return null;
    }
  }

  /** The stored output a hop reference points to, or null. */
  async readHopOutput(ref: string): Promise<unknown> {
    const [file, key] = ref.split("#");
    if (file !== HOPS_FILE || !key) return null;
    await this.flush();
    const text = await readFile(join(this.dir, HOPS_FILE), "utf8").catch(() => "");
    const needle = `{"ref":${JSON.stringify(ref)},`;
    for (const line of text.split("\n")) {
      if (!line.startsWith(needle)) continue;
      try {
        return (JSON.parse(line) as { output: unknown }).output;
      } catch {
        return null; // a torn last line from a crash
      }
    }
    return null;
  }

  append(record: { id: string } & Record<string, unknown>): Promise<void> {
    const line = `${JSON.stringify({ ...record, recorded_at: new Date().toISOString() })}\n`;
    return this.enqueue(() => this.appendLine(AUDIT_FILE, line));
  }

  /** A hop of an answer still being searched (`mesh web` tails these to draw the path as it runs). */
  appendLive(traceId: string, event: { hop: number; scope: string; agent: string; symbols: string[] }): Promise<void> {
    const line = `${JSON.stringify({ trace: traceId, ...event, at: Date.now() })}\n`;
    return handled(this.enqueue(() => this.appendLine(LIVE_FILE, line)));
  }

  appendManifest(entry: ManifestEntryInput): Promise<void> {
    // Formatting validates the entry: a bad one fails here, in the caller, not in the queue.
    const line = `${formatManifestLine(entry)}\n`;
    return this.enqueue(() => this.appendLine(MANIFEST_FILE, line));
  }

  /** Resolves when every write queued so far has been attempted. */
  flush(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return this.enqueue(() => undefined).catch(() => undefined);
  }

  /** The audit record with this id (a trace id or its unique prefix), or null. */
  async find(id: string): Promise<Record<string, unknown> | null> {
    await this.flush();
    let text: string;
    try {
      text = await readFile(join(this.dir, AUDIT_FILE), "utf8");
    } catch {
      return null;
    }
    const matches = text
      .split("\n")
      .filter((line) => line.includes(id))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return null; // a torn last line from a crash is skipped, not fatal
        }
      })
      .filter((r): r is Record<string, unknown> => r !== null && typeof r["id"] === "string" && (r["id"] as string).startsWith(id));
    return matches.at(-1) ?? null;
  }

  /** Closes the append descriptors now (they reopen on the next write); for an owner that is done writing. */
  close(): void {
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    for (const fd of this.appendFds.values()) closeSync(fd);
    this.appendFds.clear();
  }

  private appendLine(file: string, line: string): void {
    let fd = this.appendFds.get(file);
    if (fd === undefined) {
      fd = openSync(join(this.dir, file), "a");
      this.appendFds.set(file, fd);
      // Unref'd: an idle log keeps no process alive, and its descriptors do not outlive a second of quiet.
      this.idleTimer ??= setInterval(() => this.closeIfIdle(), APPEND_IDLE_CLOSE_MS).unref();
    }
    this.wroteSinceIdleCheck = true;
    try {
      // A string is written without a Buffer copy; a short write (a full disk) is finished from a Buffer.
      const written = writeSync(fd, line);
      if (written < Buffer.byteLength(line)) {
        const bytes = Buffer.from(line);
        for (let at = written; at < bytes.length; ) at += writeSync(fd, bytes, at);
      }
    } catch (error) {
      // A descriptor that failed once is not trusted again: the next line reopens the file.
      this.appendFds.delete(file);
      closeSync(fd);
      throw error;
    }
  }

  private closeIfIdle(): void {
    if (this.wroteSinceIdleCheck) {
      this.wroteSinceIdleCheck = false;
      return;
    }
    try {
      this.close();
    } catch (error) {
      this.onError(error as Error);
    }
  }

  private enqueue(write: () => void): Promise<void> {
    const written = handled(new Promise<void>((resolve, reject) => this.queue.push({ write, resolve, reject })));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
    return written;
  }

  private drain(): void {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    for (const item of batch) {
      try {
        if (!this.dirReady) {
          mkdirSync(join(this.dir, OUTPUTS_DIR), { recursive: true });
          this.dirReady = true;
        }
        item.write();
        item.resolve();
      } catch (error) {
        this.failures++;
        this.onError(error as Error);
        item.reject(error as Error);
      }
    }
  }
}
