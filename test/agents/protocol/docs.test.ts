import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  MAX_CITATIONS,
  MAX_DELEGATION_DEPTH,
  MAX_TASK_BYTES,
  parseDelegatedTask,
  parseTaskResponse,
  TASK_ERROR_CODE_LIST,
  TASK_ERROR_CODES,
} from "../../../agents/protocol/index.js";

// The normative document and the code must not drift apart.
const doc = readFileSync(new URL("../../../docs/DELEGATION.md", import.meta.url), "utf8");
const jsonBlocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);

describe("docs/DELEGATION.md", () => {
  it("has examples that the schemas accept", () => {
    expect(jsonBlocks.length).toBeGreaterThanOrEqual(4);
    for (const block of jsonBlocks) {
      if ("task_id" in block) expect(() => parseTaskResponse(block)).not.toThrow();
      else expect(() => parseDelegatedTask(block)).not.toThrow();
    }
  });

  it("lists every error code with its retryable flag", () => {
    for (const code of TASK_ERROR_CODE_LIST) {
      expect(doc).toContain(`| \`${code}\` | ${TASK_ERROR_CODES[code].retryable} |`);
    }
  });

  it("states the main limits as the code has them", () => {
    expect(doc).toContain(`| \`MAX_CITATIONS\` | ${MAX_CITATIONS} |`);
    expect(doc).toContain(`| \`MAX_TASK_BYTES\` | ${MAX_TASK_BYTES.toLocaleString("en-US")} bytes |`);
    expect(doc).toContain(`| \`MAX_DELEGATION_DEPTH\` | ${MAX_DELEGATION_DEPTH} |`);
  });
});
