// The external ask adapter with a scripted `ask --json` command as a real child process: the argv it
// builds, the result it parses (unknown keys dropped, sources marked external) and its typed failures.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { ProtocolSchemaError, TaskError } from "../../../agents/protocol/index.js";
import { createExternalAsk, type ExternalAskOptions } from "../../../agents/worker/external-ask/external-ask.js";
import { ExternalAskError } from "../../../agents/worker/external-ask/external-ask-error.js";
import { ExecutorConfigError } from "../../../agents/worker/exec/executor-config-error.js";
import { envWith, exists, fileWritten, nodeCommand, onTestClock, readPids } from "../../fixtures/executors/scripts.js";

const logger = pino({ level: "silent" });
/** The hanging fake's timeout on the test's clock (onTestClock): it passes only once the fake has written its pids. */
const HANG_TIMEOUT_MS = 1_000;
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mesh-ask-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const argvFile = () => join(dir, "argv.json");
const argvSeen = () => JSON.parse(readFileSync(argvFile(), "utf8")) as string[];

function fakeAsk(mode: string, options: Partial<ExternalAskOptions> = {}) {
  const env = envWith({ FAKE_ASK_MODE: mode, FAKE_ASK_ARGV_FILE: argvFile(), FAKE_ASK_PIDS_FILE: join(dir, "pids.json") });
  return createExternalAsk({ command: nodeCommand("fake-ask"), cwd: dir, timeoutMs: 5_000, env, logger, ...options });
}

describe("external ask: answers", () => {
  it("passes the question, --json, overlays and top-k, and parses a seed-shaped answer", async () => {
    const result = await fakeAsk("ok").ask("how are pages allocated?", { overlays: ["O1", "O3"], topK: 3 });
    expect(argvSeen()).toEqual(["how are pages allocated?", "--json", "--overlays", "O1,O3", "--top-k", "3"]);
    expect(result.answer).toBe("Pages come from the buddy allocator.");
    expect(result.metadata).toEqual({ question_hash: "f587deeadeec2f91", top_k: 5, elapsed_ms: 12 });
    expect(result.sources[0]).not.toHaveProperty("embedding_id");
  });

  it("marks every source external, keeping its similarity clamped to [0, 1]", async () => {
    const result = await fakeAsk("ok").ask("q");
    expect(result.sources.map((s) => [s.similarity, s.similarity_kind])).toEqual([
      [0.83, "external"],
      [0.5328465282382895, "external"],
      [1, "external"],
      [0.4, "external"],
    ]);
  });

  it("passes only the question and --json when no overlays or top-k are given", async () => {
    await fakeAsk("ok").ask("q");
    expect(argvSeen()).toEqual(["q", "--json"]);
  });

  it("fills argument templates, leaving out the parts whose value is not given", async () => {
    const args = { question: ["--q={question}", "--format", "json"], topK: [] };
    await fakeAsk("ok", { args }).ask("what calls {overlays}?", { overlays: ["O1"], topK: 9 });
    expect(argvSeen()).toEqual(["--q=what calls {overlays}?", "--format", "json", "--overlays", "O1"]);
  });

  it("keeps a question starting with '-' from being read as an option", async () => {
    await fakeAsk("ok").ask("-O2 flags?");
    expect(argvSeen()[0]).toBe(" -O2 flags?");
  });

  it("reads the JSON after progress lines printed before it", async () => {
    expect((await fakeAsk("noisy").ask("q")).sources).toHaveLength(4);
  });
});

describe("external ask: failures", () => {
  it("fails with PGC_QUERY_FAILED (retryable, per the protocol) on output that is not JSON", async () => {
    const error = await fakeAsk("garbage").ask("q").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExternalAskError);
    expect(error).toMatchObject({ name: "ExternalAskError", code: "PGC_QUERY_FAILED", failure: "not_json", retryable: true });
    expect((error as Error).message).toMatch(/did not print JSON: "this is not json"/);
  });

  it("fails with PGC_QUERY_FAILED on JSON that is not an ask result, naming the fields", async () => {
    const error = (await fakeAsk("invalid").ask("q").catch((e: unknown) => e)) as ExternalAskError;
    expect(error).toMatchObject({ code: "PGC_QUERY_FAILED", failure: "schema" });
    expect(error.cause).toBeInstanceOf(ProtocolSchemaError);
    expect(error.message).toMatch(/not an ask result: Invalid AskResult: .*sources/);
  });

  it("fails with PGC_QUERY_FAILED on a non-zero exit, quoting stderr", async () => {
    await expect(fakeAsk("fail").ask("q")).rejects.toMatchObject({ code: "PGC_QUERY_FAILED", failure: "exit_status", message: expect.stringMatching(/exited with code 2; last stderr lines:\nfake-ask: PGC not found in this directory\nfake-ask: run `genesis` first$/) as string });
  });

  it("fails with PGC_TIMEOUT when the command hangs, and kills its process group", async () => {
    const failure = await onTestClock(async () => {
      const pending = fakeAsk("hang", { timeoutMs: HANG_TIMEOUT_MS }).ask("q").catch((error: unknown) => error);
      await fileWritten(join(dir, "pids.json"));
      await vi.advanceTimersByTimeAsync(HANG_TIMEOUT_MS);
      return pending;
    });
    expect(failure).toMatchObject({ code: "PGC_TIMEOUT", failure: "timeout", retryable: true, message: expect.stringMatching(/did not answer within 1000 ms/) as string });
    const pids = readPids(join(dir, "pids.json"));
    expect(pids).toHaveLength(2);
    await expect.poll(() => pids.filter(exists), { timeout: 5_000 }).toEqual([]);
  });

  it("fails with PGC_QUERY_FAILED when the command does not exist", async () => {
    await expect(fakeAsk("ok", { command: ["/nonexistent/ask"] }).ask("q")).rejects.toMatchObject({ code: "PGC_QUERY_FAILED", failure: "not_started", message: "command not found: /nonexistent/ask" });
  });

  it("stops the command when the caller cancels", async () => {
    const controller = new AbortController();
    const pending = fakeAsk("hang").ask("q", { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "PGC_QUERY_FAILED", failure: "cancelled" });
  });

  it("becomes a TaskError with the same code, so a worker reports it as such", () => {
    const taskError = new ExternalAskError("PGC_TIMEOUT", "timeout", "slow").toTaskError();
    expect(taskError).toBeInstanceOf(TaskError);
    expect(taskError.toWire()).toEqual({ code: "PGC_TIMEOUT", message: "slow", retryable: true });
  });

  it("rejects unusable options when it is created", () => {
    expect(() => createExternalAsk({ command: [], cwd: dir, logger })).toThrow(ExecutorConfigError);
    expect(() => createExternalAsk({ command: ["ask"], cwd: dir, logger, args: { question: ["--json"] } })).toThrow(/must pass \{question\}/);
  });
});
