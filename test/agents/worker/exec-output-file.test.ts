// OUTPUT.md parsing: lenient about layout, deterministic about meaning, always within protocol limits.
import { describe, expect, it } from "vitest";
import { MAX_CLARIFICATION_OPTIONS, MAX_KEY_FINDING_CHARS, MAX_KEY_FINDINGS, MAX_MESSAGE_CHARS, MAX_RESULT_BYTES, utf8ByteLength } from "../../../agents/protocol/index.js";
import { parseOutputFile, statusFromValue } from "../../../agents/worker/exec/output-file.js";

/** The OUTPUT.md example of seed 000 (CDP), with its "Status: completed" status line. */
const SEED_EXAMPLE = `# Task Complete: CSV to JSON Converter

**Status:** completed
**Duration:** 12 minutes
**Agent:** worker

## Summary
Created a CSV to JSON conversion script using pandas.

## Deliverables
| File | Description |
|------|-------------|
| \`scripts/csv_to_json.py\` | Main script |

## Decisions Made
- **Used Click for CLI**: Better UX than argparse, already in project deps
- **Batch processing for large files**: Chunked reads to handle files >1GB

## For Primary
- Run \`pip install click\` if not installed

## Files Modified
- \`scripts/csv_to_json.py\` — New file (187 lines)
- \`requirements.txt\` — Added click dependency
`;

describe("OUTPUT.md status", () => {
  it.each([
    ["completed", "completed"],
    ["Complete", "completed"],
    ["done.", "completed"],
    ["partial (2 of 3 criteria)", "partial"],
    ["BLOCKED", "blocked"],
    ["failed", "failed"],
    ["needs_clarification", "needs_clarification"],
    ["needs-input", "needs_clarification"],
    ["Needs clarification", "needs_clarification"],
    ["`completed`", "completed"],
  ])("reads %j as %s", (value, status) => {
    expect(statusFromValue(value)).toBe(status);
  });

  it.each([["completed | blocked | needs-input"], ["wibble"], [""]])("names no status in %j", (value) => {
    expect(statusFromValue(value)).toBeUndefined();
  });

  it.each([
    ["**Status:** partial", "partial"],
    ["**Status**: blocked", "blocked"],
    ["Status: failed", "failed"],
    ["- status: completed", "completed"],
    ["## Status: needs-input\n\n## Needs Clarification\nwhich?", "needs_clarification"],
    ["## Status\n\ncompleted\n", "completed"],
  ])("finds the status line in %j", (text, status) => {
    expect(parseOutputFile(text).status).toBe(status);
  });

  it("ignores status lines inside fenced code blocks and takes the first one outside", () => {
    const text = "## Summary\nAn example:\n```md\n**Status:** completed\n```\n**Status:** blocked\n**Status:** completed\n";
    expect(parseOutputFile(text).status).toBe("blocked");
  });

  it("blocks with EXECUTOR_FAILED when there is no status line, keeping the whole text as the result", () => {
    const text = "I looked at the code and the answer is 42.\n";
    expect(parseOutputFile(text)).toEqual({
      status: "blocked",
      result: "I looked at the code and the answer is 42.",
      error: { code: "EXECUTOR_FAILED", retryable: false, message: expect.stringMatching(/^OUTPUT\.md has no status line/) as string },
    });
  });

  it("names an unknown status in the error", () => {
    expect(parseOutputFile("**Status:** wibble\n").error?.message).toMatch(/an unknown status "wibble"/);
  });
});

describe("OUTPUT.md sections", () => {
  it("reads the seed 000 example: summary and For Primary as result, decisions as findings, files modified", () => {
    expect(parseOutputFile(SEED_EXAMPLE)).toEqual({
      status: "completed",
      result: "Created a CSV to JSON conversion script using pandas.\n\n- Run `pip install click` if not installed",
      key_findings: ["**Used Click for CLI**: Better UX than argparse, already in project deps", "**Batch processing for large files**: Chunked reads to handle files >1GB"],
      referenced_files: ["scripts/csv_to_json.py", "requirements.txt"],
    });
  });

  it("prefers Key Findings and Files Referenced, and keeps the first section of a name", () => {
    const text = "**Status:** completed\n## Summary\nfirst\n## Summary\nsecond\n## Decisions Made\n- d\n## Key Findings\n1. one\n2) two\n* three\n+ [x] four\n## Files Referenced\n- `a.c`\n";
    expect(parseOutputFile(text)).toMatchObject({ result: "first", key_findings: ["one", "two", "three", "four"], referenced_files: ["a.c"] });
  });

  it("treats each line as an item when a section has no list markers, and drops '(none)'", () => {
    const text = "Status: completed\n## Key Findings\nrings are coherent\n\nbuffers are streaming\n## Files Referenced\n(none)\n";
    expect(parseOutputFile(text)).toEqual({ status: "completed", result: "Status: completed\n## Key Findings\nrings are coherent\n\nbuffers are streaming\n## Files Referenced\n(none)", key_findings: ["rings are coherent", "buffers are streaming"] });
  });

  it("keeps deeper headings inside a section and ends a section at a level-1 heading", () => {
    const text = "**Status:** completed\n## Summary\nintro\n### Details\nmore\n# Appendix\nnot part of the summary\n";
    expect(parseOutputFile(text).result).toBe("intro\n### Details\nmore");
  });

  it("reads CRLF files", () => {
    expect(parseOutputFile("**Status:** completed\r\n## Summary\r\nok\r\n## Key Findings\r\n- a\r\n")).toEqual({ status: "completed", result: "ok", key_findings: ["a"] });
  });

  it("keeps only referenced files inside the scope, relative, without line suffixes, once each", () => {
    const text = [
      "**Status:** completed",
      "## Files Referenced",
      "- `mm/dma.c:2-3` — allocator",
      "- ./mm/dma.c",
      "- /src/linux/include/ring.h#L10-L12",
      "- /etc/passwd",
      "- `../outside.c`",
      "- `a/../../b.c`",
      "- drivers/net/e1000/e1000_main.c, the driver",
    ].join("\n");
    expect(parseOutputFile(text, { scopeRoot: "/src/linux" }).referenced_files).toEqual(["mm/dma.c", "include/ring.h", "drivers/net/e1000/e1000_main.c"]);
    expect(parseOutputFile(text).referenced_files).toEqual(["mm/dma.c", "drivers/net/e1000/e1000_main.c"]);
  });
});

describe("OUTPUT.md statuses that need more than a result", () => {
  it("takes a block's reason from Blocked Because", () => {
    const text = "**Status:** blocked\n## Summary\nStopped early.\n## Blocked Because\nThe PGC has no O3 overlay.\n";
    expect(parseOutputFile(text)).toEqual({ status: "blocked", result: "Stopped early.", error: { code: "EXECUTOR_FAILED", message: "The PGC has no O3 overlay.", retryable: false } });
  });

  it("falls back to the summary for a failure without a reason", () => {
    expect(parseOutputFile("**Status:** failed\n## Summary\nThe build broke.\n").error?.message).toBe("The build broke.");
  });

  it("gives a partial result an error only when something is blocked", () => {
    expect(parseOutputFile("**Status:** partial\n## Summary\nHalf done.\n").error).toBeUndefined();
    expect(parseOutputFile("**Status:** partial\n## Summary\nHalf.\n## Blockers\n- no access to mm/\n").error?.message).toBe("- no access to mm/");
  });

  it("asks the For Primary text when there is no Needs Clarification section (seed 000 needs-input)", () => {
    const text = "**Status:** needs-input\n## Summary\nTwo drivers match.\n## For Primary\nShould I look at e1000 or e1000e?\n";
    expect(parseOutputFile(text).clarification_request).toEqual({ question: "Should I look at e1000 or e1000e?" });
  });

  it("asks something even when the agent gave no question", () => {
    expect(parseOutputFile("**Status:** needs_clarification\n").clarification_request?.question).toBe("The agent needs clarification but did not say what.");
  });
});

describe("OUTPUT.md within protocol limits", () => {
  it("cuts the result, findings, question and options to the protocol's limits", () => {
    const findings = Array.from({ length: 20 }, (_, i) => `- finding ${i} ${"x".repeat(400)}`).join("\n");
    const options = Array.from({ length: 20 }, (_, i) => `- option ${i}`).join("\n");
    const text = `**Status:** needs_clarification\n## Summary\n${"é".repeat(MAX_RESULT_BYTES)}\n## Key Findings\n${findings}\n## Needs Clarification\n${"why ".repeat(1_000)}\n${options}\n`;
    const output = parseOutputFile(text);
    expect(utf8ByteLength(output.result)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(output.result.endsWith("…")).toBe(true);
    expect(output.key_findings).toHaveLength(MAX_KEY_FINDINGS);
    expect(output.key_findings?.every((f) => [...f].length <= MAX_KEY_FINDING_CHARS)).toBe(true);
    expect([...(output.clarification_request?.question ?? "")].length).toBe(MAX_MESSAGE_CHARS);
    expect(output.clarification_request?.options).toHaveLength(MAX_CLARIFICATION_OPTIONS);
  });
});
