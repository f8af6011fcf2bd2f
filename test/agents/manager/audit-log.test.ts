// The manager's records are written behind the answer: in order, on the next turn of the event loop,
// with callers able to await one record or the whole queue; a failed write is reported and never
// breaks the records queued after it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { APPEND_IDLE_CLOSE_MS, AUDIT_FILE, AuditLog, HOPS_FILE, MANIFEST_FILE } from "../../../agents/manager/audit-log.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mesh-audit-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file: string) => readFileSync(join(dir, file), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("AuditLog", () => {
  it("hands out a hop reference at once and writes the hop as one line of hops.jsonl", async () => {
    const log = new AuditLog(dir);
    const written = log.writeHopOutput("q-1", 2, { answer: "calls dma_alloc" });
    expect(log.hopRef("q-1", 2)).toBe(`${HOPS_FILE}#q-1-hop2`);
    expect(await written).toBe(`${HOPS_FILE}#q-1-hop2`);
    expect(lines(HOPS_FILE)).toEqual([{ ref: "hops.jsonl#q-1-hop2", trace: "q-1", hop: 2, output: { answer: "calls dma_alloc" } }]);
    expect(await log.readHopOutput("hops.jsonl#q-1-hop2")).toEqual({ answer: "calls dma_alloc" });
    expect(await log.readHopOutput("hops.jsonl#q-1-hop9")).toBeNull();
    expect(await log.readHopOutput("../etc/passwd#x")).toBeNull();
  });

  it("writes nothing during the caller's turn, then everything queued, in order", async () => {
    const log = new AuditLog(dir);
    void log.writeHopOutput("q-2", 0, { n: 0 });
    void log.writeHopOutput("q-2", 1, { n: 1 });
    void log.append({ id: "q-2", kind: "multi_hop" });
    expect(() => readFileSync(join(dir, AUDIT_FILE))).toThrow(/ENOENT/);
    await log.flush();
    expect(lines(HOPS_FILE).map((l) => l["hop"])).toEqual([0, 1]);
    expect(lines(AUDIT_FILE)).toMatchObject([{ id: "q-2", kind: "multi_hop" }]);
  });

  it("find waits for queued records, so a trace right after an answer sees it", async () => {
    const log = new AuditLog(dir);
    void log.append({ id: "q-20261122-abcd0001", kind: "multi_hop", answer: "first" });
    expect(await log.find("q-20261122-abcd")).toMatchObject({ answer: "first" });
    expect(await log.find("q-nothing")).toBeNull();
  });

  it("a delegation's output gets a file of its own, named safely, for the manifest's `file`", async () => {
    const log = new AuditLog(dir);
    const file = await log.writeOutputFile("T0001/../../escape", { ok: true });
    expect(file).toBe("outputs/T0001_.._.._escape.json");
    expect(JSON.parse(readFileSync(join(dir, file), "utf8"))).toEqual({ ok: true });
    await log.appendManifest({ id: "T0001-x", file, title: "t", date: "2026-11-22", status: "complete", agent_type: "worker:mm" });
    expect(lines(MANIFEST_FILE)).toMatchObject([{ id: "T0001-x", file }]);
  });

  it("reports a failed write to onError and its awaiting caller, and goes on with the next record", async () => {
    const errors: Error[] = [];
    const log = new AuditLog(dir, (error) => errors.push(error));
    mkdirSync(join(dir, HOPS_FILE)); // a directory where the hop log should be: every append fails
    const failed = log.writeHopOutput("q-3", 0, {});
    const unawaited = log.writeHopOutput("q-3", 1, {}); // left alone: must not become an unhandled rejection
    const after = log.append({ id: "q-3", kind: "multi_hop" });
    await expect(failed).rejects.toThrow(/EISDIR/);
    await after;
    expect(errors).toHaveLength(2);
    expect(log.failures).toBe(2);
    expect(lines(AUDIT_FILE)).toMatchObject([{ id: "q-3" }]);
    void unawaited;
  });

  it("a manifest entry that does not validate fails in the caller and queues nothing", async () => {
    const log = new AuditLog(dir);
    expect(() => log.appendManifest({ id: "", file: "f", title: "t", date: "not a date", status: "complete", agent_type: "x" })).toThrow();
    await log.flush();
    expect(() => readFileSync(join(dir, MANIFEST_FILE))).toThrow(/ENOENT/);
  });

  it("keeps appending to an open file while writes come, and reopens it after a quiet period", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const log = new AuditLog(dir);
      await log.append({ id: "q-4", kind: "multi_hop" });
      rmSync(join(dir, AUDIT_FILE)); // removed while its descriptor is open: the next line still goes there
      await log.append({ id: "q-5", kind: "multi_hop" });
      expect(() => readFileSync(join(dir, AUDIT_FILE))).toThrow(/ENOENT/);
      vi.advanceTimersByTime(APPEND_IDLE_CLOSE_MS * 2); // one check sees the write, the next closes the quiet descriptor
      await log.append({ id: "q-6", kind: "multi_hop" });
      expect(lines(AUDIT_FILE)).toMatchObject([{ id: "q-6" }]);
      log.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
