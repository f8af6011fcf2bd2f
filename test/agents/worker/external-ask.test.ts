// The external ask adapter with a scripted `ask --json` command as a real child process.
import { afterEach, describe, expect, it } from "vitest";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { citationsFrom, runExternalAsk } from "../../../agents/worker/external-ask/external-knowledge.js";

const FAKE = fileURLToPath(new URL("../../fixtures/executors/fake-ask.mjs", import.meta.url));
const options = { command: [process.execPath, FAKE], cwd: tmpdir(), timeoutMs: 2_000 };
afterEach(() => delete process.env["FAKE_ASK_MODE"]);

describe("external ask adapter", () => {
  it("parses a seed-shaped answer and cites only sources that name file, lines and hash", async () => {
    const result = await runExternalAsk(options, "how are pages allocated?", { overlays: ["O1", "O3"], topK: 3 });
    expect(result.answer).toMatch(/buddy allocator/);
    expect(result.sources).toHaveLength(2);
    const citations = citationsFrom(result);
    expect(citations).toEqual([expect.objectContaining({ file_path: "mm/page_alloc.c", similarity: 0.83, similarity_kind: "external", overlay: "O1" })]);
  });

  it("fails with PGC_QUERY_FAILED on output that is not an ask result", async () => {
    process.env["FAKE_ASK_MODE"] = "garbage";
    await expect(runExternalAsk(options, "q", {})).rejects.toMatchObject({ name: "ExternalAskError", code: "PGC_QUERY_FAILED" });
  });

  it("fails with PGC_TIMEOUT when the command hangs", async () => {
    process.env["FAKE_ASK_MODE"] = "hang";
    await expect(runExternalAsk({ ...options, timeoutMs: 500 }, "q", {})).rejects.toMatchObject({ code: "PGC_TIMEOUT", retryable: true });
  });

  it("fails without retry when the command does not exist", async () => {
    await expect(runExternalAsk({ ...options, command: ["/nonexistent/ask"] }, "q", {})).rejects.toMatchObject({ code: "PGC_QUERY_FAILED", retryable: false });
  });
});
