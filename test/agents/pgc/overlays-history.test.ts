// O3 history from a scripted git repository (fixed dates and author), and O7 ties to recent changes.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  extractScope,
  parseGitLog,
  readGitHistory,
  type ScopeExtractionResult,
} from "../../../agents/pgc/overlays/index.js";
import { C_KERNEL_HISTORY, makeGitHistory, type MadeCommit } from "../../../scripts/fixtures/make-git-history.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";

let repo: string;
let plain: string;
let commits: MadeCommit[];
let whole: ScopeExtractionResult;
let drivers: ScopeExtractionResult;

beforeAll(async () => {
  ({ dir: repo, commits } = await makeGitHistory({ fixtureDir: C_KERNEL_DIR }));
  plain = await mkdtemp(path.join(os.tmpdir(), "pgc-nogit-"));
  await cp(C_KERNEL_DIR, plain, { recursive: true });
  whole = await extractScope({ root: repo });
  drivers = await extractScope({ root: repo, scopePaths: ["drivers/", "include/linux/e1000.h"] });
});

afterAll(async () => {
  await Promise.all([rm(repo, { recursive: true, force: true }), rm(plain, { recursive: true, force: true })]);
});

const historyDoc = (result: ScopeExtractionResult, file: string) =>
  result.docs.find((doc) => doc.overlay === "O3" && doc.section === "history" && doc.file_path === file);

describe("scripted fixture history", () => {
  it("creates one commit per scripted step with the scripted dates", () => {
    expect(commits.map((commit) => [commit.date, commit.subject])).toEqual(C_KERNEL_HISTORY.map((step) => [step.date, step.subject]));
    expect(commits.every((commit) => /^[0-9a-f]{40}$/.test(commit.hash))).toBe(true);
  });
});

describe("O3 history", () => {
  it("summarises each file's commits, newest first, with the scripted dates and author", () => {
    const doc = historyDoc(whole, "drivers/net/e1000/e1000_main.c");
    expect(doc).toMatchObject({ line_start: 1, line_end: 218, fields: { name: "drivers/net/e1000/e1000_main.c" } });
    expect(doc?.text).toBe('history: drivers/net/e1000/e1000_main.c | commits:3 | last:2024-06-20 "e1000: document the transmit path" by Fixture Author');
    expect(doc?.fields.body?.split("\n").map((line) => line.replace(/ [0-9a-f]{12} /, " <hash> "))).toEqual([
      "2024-06-20T12:00:00+00:00 <hash> Fixture Author: e1000: document the transmit path",
      "2024-06-18T08:15:00+00:00 <hash> Fixture Author: e1000: copy short frames into the bounce buffer",
      "2024-01-10T09:00:00+00:00 <hash> Fixture Author: Import the demo kernel",
    ]);
    expect(historyDoc(whole, "mm/page_alloc.c")?.text).toBe(
      'history: mm/page_alloc.c | commits:2 | last:2024-02-14 "mm: wake kswapd through the kernel workqueue" by Fixture Author',
    );
    expect(historyDoc(whole, "net/socket.c")?.text).toBe('history: net/socket.c | commits:1 | last:2024-01-10 "Import the demo kernel" by Fixture Author');
  });

  it("covers every file of the scope and nothing outside it", () => {
    const historyFiles = (result: ScopeExtractionResult) =>
      result.docs.filter((doc) => doc.section === "history").map((doc) => doc.file_path).sort();
    expect(historyFiles(whole)).toEqual(whole.files.map((file) => file.path).sort());
    expect(historyFiles(drivers)).toEqual([
      "drivers/README.md",
      "drivers/net/Kconfig",
      "drivers/net/Makefile",
      "drivers/net/e1000/e1000.h",
      "drivers/net/e1000/e1000_ethtool.c",
      "drivers/net/e1000/e1000_main.c",
      "include/linux/e1000.h",
    ]);
    expect(drivers.history.find((entry) => entry.path === "drivers/README.md")?.commits).toBe(2);
  });

  it("ties a risky, documented function to its recent change in O7", () => {
    const xmit = drivers.docs.find((doc) => doc.overlay === "O7" && doc.symbol === "e1000_xmit_frame");
    expect(xmit?.text).toBe(
      'coherence:e1000_xmit_frame | ties:O1+O2+O3+O4+O6 | O2:memcpy@149 | O3:changed 2024-06-20 "e1000: document the transmit path" | O4:drivers/README.md:13-23 | O6:WARN_ON@146 | file:drivers/net/e1000/e1000_main.c:137',
    );
    // mm/page_alloc.c last changed in February, more than 90 days before the newest commit: not recent.
    const allocPages = whole.docs.find((doc) => doc.overlay === "O7" && doc.symbol === "alloc_pages");
    expect(allocPages?.text).not.toContain("O3:");
  });

  it("has no history for a root outside any git repository", async () => {
    const result = await extractScope({ root: plain });
    expect(result.docs.filter((doc) => doc.section === "history")).toEqual([]);
    expect(result.history).toEqual([]);
    await expect(readGitHistory({ root: plain })).resolves.toBeNull();
  });
});

describe("parseGitLog", () => {
  it("counts commits per file and keeps the newest first", () => {
    const log = [
      "\x1eaaa\x1f2024-05-02T00:00:00+00:00\x1fAda\x1fsecond\n\nsrc/a.c\nsrc/b.c\n",
      "\x1ebbb\x1f2024-05-01T00:00:00+00:00\x1fBob\x1ffirst\n\nsrc/a.c\n",
    ].join("");
    const history = parseGitLog(log);
    expect(history.newest).toBe("2024-05-02T00:00:00+00:00");
    expect(history.files.get("src/a.c")).toEqual({
      path: "src/a.c",
      commits: 2,
      recent: [
        { hash: "aaa", date: "2024-05-02T00:00:00+00:00", author: "Ada", subject: "second" },
        { hash: "bbb", date: "2024-05-01T00:00:00+00:00", author: "Bob", subject: "first" },
      ],
    });
    expect(history.files.get("src/b.c")?.commits).toBe(1);
  });
});
