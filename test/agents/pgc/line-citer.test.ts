// What one search request cites, over the demo kernel's real C: a function (its head past MAX_CITED_LINES)
// and call lines hashed from the file's text, each file read once per request (a worker's expansion too) —
// a new request reads it again, so an edit made between requests is seen.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { HEAD_LINES, LineCiter, MAX_CITED_LINES, type SourceText } from "../../../agents/pgc/callgraph/line-citer.js";
import { FileReader } from "../../../agents/pgc/cite.js";
import { ScopeSearch } from "../../../agents/pgc/callgraph/scope-search.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { citationHash, sliceLines } from "../../../agents/protocol/index.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import pino from "pino";

/** The worker's reader, counting the reads that reach it. */
function counting(reader: SourceText): { source: SourceText; reads: string[] } {
  const reads: string[] = [];
  return { reads, source: { read: (path) => (reads.push(path), reader.read(path)) } };
}

describe("LineCiter", () => {
  it("cites functions and call lines by the hash of their lines, reading each file once per request", async () => {
    const cache = mkdtempSync(join(tmpdir(), "mesh-citer-"));
    try {
      const paths = ["drivers/", "include/linux/e1000.h"];
      const pgc = new Pgc("drivers", paths, await openPgc({ scope: "drivers", root: C_KERNEL_DIR, scopePaths: paths, cacheRoot: cache, logger: pino({ level: "silent" }) }));
      const graph = new CallGraph(pgc.data);
      const [setup] = graph.named("e1000_setup_tx_resources");
      const [ring] = graph.named("e1000_setup_ring");
      const call = graph.callsOf(setup!.id).find((e) => e.to === ring!.id);
      const { source, reads } = counting(new FileReader(C_KERNEL_DIR, new Map(pgc.data.files.map((f) => [f.path, f.sha256]))));
      const citer = new LineCiter(source);
      const text = readFileSync(join(C_KERNEL_DIR, setup!.file_path), "utf8");

      const step = await citer.step(setup!, []);
      const end = setup!.line_end - setup!.line_start + 1 <= MAX_CITED_LINES ? setup!.line_end : setup!.line_start + HEAD_LINES - 1;
      expect(step?.cite).toEqual({ line_start: setup!.line_start, line_end: end, sha256: citationHash(sliceLines(text, setup!.line_start, end)) });
      const site = await citer.callSite(setup!.file_path, call!.line);
      expect(site?.text).toContain("e1000_setup_ring(");
      expect(site?.sha256).toBe(citationHash(sliceLines(text, call!.line, call!.line)));
      await citer.step(ring!, []);
      await citer.line(ring!.file_path, ring!.line_start);
      // Four citations, one read of each file they are in.
      expect(reads).toEqual([...new Set([setup!.file_path, ring!.file_path])]);

      // The next request reads the file again (the reader checks it on disk then).
      await new LineCiter(source).line(setup!.file_path, call!.line);
      expect(reads.filter((p) => p === setup!.file_path)).toHaveLength(2);

      // A worker's expansion cites its steps and every exit's call line from one read of each file.
      const searched = counting(new FileReader(C_KERNEL_DIR, new Map(pgc.data.files.map((f) => [f.path, f.sha256]))));
      const search = new ScopeSearch("drivers", graph, searched.source, () => "");
      const result = await search.expand({ question: parseQuestion("How does the e1000 driver allocate DMA buffers?"), mode: "forward", from: { symbol: "e1000_setup_tx_resources" }, covered: {} });
      const cited = result.steps.length + result.leads.filter((l) => l.exit).length;
      expect(cited).toBeGreaterThan(4);
      expect(searched.reads).toEqual([...new Set(searched.reads)]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
