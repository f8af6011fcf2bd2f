// The acceptance-criteria rule: anchors (identifiers, quoted strings, paths) must all appear; a "cites …"
// criterion needs a verified citation; plain words need 60% of their content terms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchorsOf, checkCriterion, validateResponse, type CriterionEvidence } from "../../../agents/manager/validation/index.js";
import type { Citation } from "../../../agents/protocol/index.js";
import { answer, groundedTask, inputFor, SourceTree } from "./validation-fixture.js";

const evidence = (answerText: string, cited = "", citedPaths: string[] = []): CriterionEvidence => ({ answer: answerText, cited, citedPaths });

describe("anchorsOf", () => {
  it("finds code identifiers, quoted strings and paths, each once", () => {
    expect(anchorsOf("names dma_alloc_coherent and alloc_pages(), then dmaAlloc and e1000")).toEqual({ identifiers: ["dma_alloc_coherent", "alloc_pages", "dmaAlloc", "e1000"], phrases: [], paths: [] });
    expect(anchorsOf('mentions the message "out of memory" and \'ENOMEM\'')).toMatchObject({ identifiers: [], phrases: ["out of memory", "ENOMEM"] });
    expect(anchorsOf("cites kernel/dma/mapping.c.")).toEqual({ identifiers: [], phrases: [], paths: ["kernel/dma/mapping.c"] });
    expect(anchorsOf("`struct page` is named")).toMatchObject({ identifiers: ["struct page"] });
  });

  it("takes file names whole and leaves prose alone", () => {
    expect(anchorsOf("points to mapping.c and index.ts")).toEqual({ identifiers: [], phrases: [], paths: ["mapping.c", "index.ts"] });
    expect(anchorsOf("handles read/write and I/O, e.g. on the worker's 'hot' path")).toEqual({ identifiers: [], phrases: ["hot"], paths: [] });
    expect(anchorsOf("lists the files under kernel/dma/")).toMatchObject({ paths: ["kernel/dma/"] });
  });
});

describe("checkCriterion: anchors", () => {
  it("needs every identifier, case-sensitive and as a whole token", () => {
    expect(checkCriterion("names dma_alloc_coherent and alloc_pages", evidence("dma_alloc_coherent calls alloc_pages(order)"))).toMatchObject({ met: true, rule: "anchors" });
    expect(checkCriterion("names DMA_ALLOC_COHERENT", evidence("dma_alloc_coherent"))).toMatchObject({ met: false, evidence: "missing DMA_ALLOC_COHERENT" });
    expect(checkCriterion("names dma_alloc", evidence("dma_alloc_coherent is the allocator"))).toMatchObject({ met: false });
    expect(checkCriterion("names `kmalloc` and `alloc_pages`", evidence("alloc_pages only"))).toMatchObject({ met: false, evidence: "missing kmalloc; found alloc_pages (answer)" });
  });

  it("says whether an anchor was shown by a verified citation or only by the answer", () => {
    const result = checkCriterion("names get_order and alloc_pages", evidence("alloc_pages", "return alloc_pages(GFP_KERNEL, get_order(size));"));
    expect(result).toMatchObject({ met: true, evidence: "found get_order (cited), alloc_pages (cited)" });
  });

  it("matches quoted strings case-insensitively with whitespace collapsed", () => {
    expect(checkCriterion('quotes "Out of  memory"', evidence("fails with: out of memory"))).toMatchObject({ met: true, rule: "anchors" });
    expect(checkCriterion('quotes "out of pages"', evidence("fails with: out of memory"))).toMatchObject({ met: false });
  });

  it("matches a path at segment boundaries, in the answer or as a cited file", () => {
    expect(checkCriterion("mentions mapping.c", evidence("see kernel/dma/mapping.c:12"))).toMatchObject({ met: true });
    expect(checkCriterion("mentions pping.c", evidence("see kernel/dma/mapping.c:12"))).toMatchObject({ met: false });
    expect(checkCriterion("mentions dma/mapping.c", evidence("nothing", "", ["kernel/dma/mapping.c"]))).toMatchObject({ met: true, evidence: "found dma/mapping.c (cited)" });
  });
});

describe("checkCriterion: citations", () => {
  it("needs at least one verified citation for a criterion about citing", () => {
    expect(checkCriterion("Cites the source", evidence("see the source"))).toMatchObject({ met: false, rule: "citation", evidence: "no verified citation" });
    expect(checkCriterion("Cites the source", evidence("x", "y", ["kernel/dma/mapping.c"]))).toMatchObject({ met: true, rule: "citation" });
  });

  it("needs a named path to be a cited file, not just a word in the answer", () => {
    const onlyMentioned = evidence("the pool lives in kernel/dma/pool.c", "", ["kernel/dma/mapping.c"]);
    expect(checkCriterion("cites kernel/dma/pool.c", onlyMentioned)).toMatchObject({ met: false, rule: "citation" });
    expect(checkCriterion("with a citation of pool.c", evidence("", "", ["kernel/dma/pool.c"]))).toMatchObject({ met: true });
    expect(checkCriterion("calls cite_source", evidence("cite_source()"))).toMatchObject({ met: true, rule: "anchors" });
  });
});

describe("checkCriterion: plain words", () => {
  it("needs 60% of the content terms, directive words such as 'explains' left out", () => {
    expect(checkCriterion("explains how pages are allocated", evidence("alloc_pages allocates the pages"))).toMatchObject({ met: true, rule: "terms", evidence: "2/2 content terms present (100%, need 60%)" });
    expect(checkCriterion("describes the interrupt coalescing policy", evidence("pages get allocated"))).toMatchObject({ met: false, rule: "terms" });
  });

  it("meets exactly at 60%: three of five terms, not two", () => {
    const criterion = "buffer ring descriptor interrupt queue";
    expect(checkCriterion(criterion, evidence("the buffer ring has a descriptor"))).toMatchObject({ met: true, evidence: "3/5 content terms present (60%, need 60%); missing interrupt, queue" });
    expect(checkCriterion(criterion, evidence("the buffer ring"))).toMatchObject({ met: false });
  });

  it("cannot judge a criterion with nothing checkable in it, and says so", () => {
    expect(checkCriterion("Answer this", evidence(""))).toMatchObject({ met: true, rule: "unchecked" });
  });
});

describe("criteria inside validateResponse", () => {
  let tree: SourceTree;
  let quiet: Citation;
  beforeAll(() => {
    tree = new SourceTree();
    quiet = tree.cite("kernel/dma/mapping.c", 2, 5, { content: "the allocator" });
  });
  afterAll(() => tree.remove());

  it("counts the cited lines the manager re-read, not only the worker's words", async () => {
    const task = groundedTask({ acceptance_criteria: ["names get_order", "Cites the source"] });
    const verdict = await validateResponse(inputFor(tree, task, answer([quiet])));
    expect(verdict.status).toBe("accepted");
    expect(verdict.criteria).toEqual([
      { criterion: "names get_order", met: true, rule: "anchors", evidence: "found get_order (cited)" },
      { criterion: "Cites the source", met: true, rule: "citation", evidence: "1 verified citation(s): kernel/dma/mapping.c" },
    ]);
  });

  it("rejects a completed answer that misses a named anchor, and warns on plain words", async () => {
    const task = groundedTask({ acceptance_criteria: ["names dma_pool_grow", "describes the interrupt coalescing policy"] });
    const verdict = await validateResponse(inputFor(tree, task, answer([quiet])));
    expect(verdict).toMatchObject({ status: "rejected", code: "CRITERIA_UNMET" });
    expect(verdict.reasons).toEqual([expect.stringMatching(/"names dma_pool_grow" \(anchors: missing dma_pool_grow\); yet the worker reported completed/)]);
    expect(verdict.warnings).toEqual([expect.stringMatching(/interrupt coalescing policy/)]);
    expect(verdict.needs_followup).toEqual(expect.arrayContaining(['meet the criterion "names dma_pool_grow"', 'meet the criterion "describes the interrupt coalescing policy"']));
    const plainOnly = groundedTask({ acceptance_criteria: ["describes the interrupt coalescing policy"] });
    expect((await validateResponse(inputFor(tree, plainOnly, answer([quiet])))).status).toBe("accepted_with_warnings");
  });

  it("ignores what unsampled or remotely verified citations merely claim", async () => {
    const claims = tree.cite("kernel/dma/pool.c", 2, 2, { content: "dma_pool_grow refills the pool" });
    const task = groundedTask({ acceptance_criteria: ["names dma_pool_grow"] });
    const sampledOut = await validateResponse({ ...inputFor(tree, task, answer([quiet, claims], { result: "see citations" })), policy: { sampleSize: 1 } });
    expect(sampledOut.code).toBe("CRITERIA_UNMET");
    const getOrder = groundedTask({ acceptance_criteria: ["names get_order"] });
    const remote = await validateResponse({ ...inputFor(tree, getOrder, answer([quiet])), readFile: null, verifyRemote: async (cs) => cs.map(() => true) });
    expect(remote).toMatchObject({ code: "CRITERIA_UNMET", citations_verified: 1 });
  });
});
