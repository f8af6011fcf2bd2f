// Citations are checked, not trusted: real files re-read and re-hashed, scope enforced, remote replicas
// asked when the manager cannot read the root, and a sample drawn deterministically from a seeded source.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insideScope, outOfScopeProblem, sampleIndices, validateResponse } from "../../../agents/manager/validation/index.js";
import type { Citation } from "../../../agents/protocol/index.js";
import { answer, evidenceOf, groundedTask, inputFor, sequence, SourceTree } from "./validation-fixture.js";

let tree: SourceTree;
let good: Citation;
let pool: Citation;
beforeAll(() => {
  tree = new SourceTree();
  good = tree.cite("kernel/dma/mapping.c", 2, 5);
  pool = tree.cite("kernel/dma/pool.c", 2, 2);
});
afterAll(() => tree.remove());

/** A response carrying citations the schema would refuse (escaping paths): built without parsing. */
const unparsed = (citations: Citation[]) => ({ ...answer([good]), grounding_evidence: evidenceOf(citations) });

describe("hash checks against the files", () => {
  it("rejects a citation whose sha256 is not the hash of the cited lines, naming file:lines", async () => {
    const verdict = await validateResponse(inputFor(tree, groundedTask(), answer([{ ...good, sha256: "a".repeat(64) }])));
    expect(verdict).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION", citations_checked: 1, citations_verified: 0 });
    expect(verdict.reasons[0]).toMatch(/^citation kernel\/dma\/mapping\.c:2-5 is stale or fabricated: the cited lines hash to [0-9a-f]{12}…, not aaaaaaaaaaaa…$/);
  });

  it("rejects a citation that went stale when the file changed after it was made", async () => {
    tree.write("kernel/dma/stale.c", "int a;\nint dma_map(void);\n");
    const cited = tree.cite("kernel/dma/stale.c", 2, 2);
    expect((await validateResponse(inputFor(tree, groundedTask(), answer([cited])))).status).toBe("accepted");
    tree.write("kernel/dma/stale.c", "int a;\nint dma_map(int dir);\n");
    const verdict = await validateResponse(inputFor(tree, groundedTask(), answer([cited])));
    expect(verdict).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION" });
    expect(verdict.reasons[0]).toMatch(/kernel\/dma\/stale\.c:2-2 is stale or fabricated/);
  });

  it("rejects lines beyond the end of the file and files that do not exist", async () => {
    const beyond = await validateResponse(inputFor(tree, groundedTask(), answer([{ ...good, line_start: 40, line_end: 41 }])));
    expect(beyond).toMatchObject({ code: "FABRICATED_CITATION" });
    expect(beyond.reasons[0]).toMatch(/mapping\.c:40-41 .*lines 40-41 do not exist \(the file has 5\)/);
    const ghost = await validateResponse(inputFor(tree, groundedTask(), answer([{ ...good, file_path: "kernel/dma/ghost.c" }])));
    expect(ghost.reasons[0]).toMatch(/ghost\.c:2-5 .*the file does not exist/);
  });

  it("reads each cited file once", async () => {
    const readFile = vi.fn(tree.readFile);
    const citations = [good, tree.cite("kernel/dma/mapping.c", 4, 4), pool];
    await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), answer(citations)), readFile });
    expect(readFile.mock.calls.map(([path]) => path).sort()).toEqual(["kernel/dma/mapping.c", "kernel/dma/pool.c"]);
  });
});

describe("scope", () => {
  it("rejects a real, correctly hashed citation from outside the worker's scope without reading it", async () => {
    const readFile = vi.fn(tree.readFile);
    const foreign = tree.cite("mm/page_alloc.c", 2, 2);
    const verdict = await validateResponse({ ...inputFor(tree, groundedTask(), answer([good, foreign])), readFile });
    expect(verdict).toMatchObject({ status: "rejected", code: "CITATION_OUT_OF_SCOPE" });
    expect(verdict.reasons[0]).toMatch(/mm\/page_alloc\.c:2-2 lies outside scope kernel: not under kernel\//);
    expect(readFile).not.toHaveBeenCalledWith("mm/page_alloc.c");
    expect(verdict.citations.map((c) => c.outcome)).toEqual(["verified", "out_of_scope"]);
  });

  it("rejects '..' escapes and absolute paths, even with a whole-root scope, and never opens them", async () => {
    const readFile = vi.fn(tree.readFile);
    const escape = { ...tree.cite("mm/page_alloc.c", 2, 2), file_path: "kernel/../mm/page_alloc.c" };
    const absolute = { ...good, file_path: `${tree.root}/kernel/dma/mapping.c` };
    const verdict = await validateResponse({ ...inputFor(tree, groundedTask(), unparsed([escape, absolute])), readFile, scope: { name: "all", paths: [""] } });
    expect(verdict.code).toBe("CITATION_OUT_OF_SCOPE");
    expect(verdict.reasons).toEqual([expect.stringMatching(/climbs out with '\.\.'/), expect.stringMatching(/the path is absolute/)]);
    expect(readFile).not.toHaveBeenCalled();
  });

  it("treats a prefix ending in '/' as a directory and any other prefix as one file", () => {
    expect(insideScope("kernel/dma/pool.c", ["kernel/"])).toBe(true);
    expect(insideScope("kernelx/a.c", ["kernel/"])).toBe(false);
    expect(insideScope("kernel/dma/mapping.c", ["kernel/dma/mapping.c"])).toBe(true);
    expect(insideScope("kernel/dma/mapping.cc", ["kernel/dma/mapping.c"])).toBe(false);
    expect(insideScope("anything/at/all.c", [])).toBe(true);
    expect(insideScope("anything/at/all.c", [""])).toBe(true);
    expect(outOfScopeProblem("a\\b.c", [])).toMatch(/'\\'/);
    expect(outOfScopeProblem("C:/x.c", [])).toMatch(/absolute/);
    expect(outOfScopeProblem("kernel/./x.c", ["kernel/"])).toMatch(/'\.' segment/);
  });
});

describe("remote verification", () => {
  it("asks another replica when the manager cannot read the root, and trusts its booleans per citation", async () => {
    const verifyRemote = vi.fn(async (cs: readonly Citation[]) => cs.map((c) => c.file_path.endsWith("mapping.c")));
    const verdict = await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), answer([good, pool])), readFile: null, verifyRemote });
    expect(verifyRemote).toHaveBeenCalledOnce();
    expect(verifyRemote.mock.calls[0]?.[0]).toEqual([good, pool]);
    expect(verdict).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION", citations_checked: 2, citations_verified: 1 });
    expect(verdict.reasons[0]).toMatch(/pool\.c:2-2 is stale or fabricated: another replica re-hashed/);
  });

  it("falls back to a replica for a file the manager fails to read", async () => {
    const readFile = async (path: string) => (path.endsWith("pool.c") ? Promise.reject(new Error("EACCES")) : tree.readFile(path));
    const verifyRemote = vi.fn(async (cs: readonly Citation[]) => cs.map(() => true));
    const verdict = await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), answer([good, pool])), readFile, verifyRemote });
    expect(verifyRemote.mock.calls[0]?.[0]).toEqual([pool]);
    expect(verdict).toMatchObject({ status: "accepted", citations_verified: 2 });
    expect(verdict.citations.map((c) => c.detail)).toEqual(["re-read by the manager", "re-hashed by another replica"]);
    const alone = await validateResponse({ ...inputFor(tree, groundedTask(), answer([pool])), readFile });
    expect(alone.warnings[0]).toMatch(/pool\.c:2-2 could not be checked: the manager could not read the file and no replica was asked/);
  });
});

describe("unverifiable citations", () => {
  it("warn on an ordinary task and reject a critical one when nobody can check them", async () => {
    const ordinary = await validateResponse({ ...inputFor(tree, groundedTask(), answer([good])), readFile: null });
    expect(ordinary).toMatchObject({ status: "accepted_with_warnings", citations_checked: 1, citations_verified: 0 });
    expect(ordinary.warnings[0]).toMatch(/could not be checked: the manager cannot read the root and no replica was asked/);
    const critical = await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), answer([good])), readFile: null });
    expect(critical).toMatchObject({ status: "rejected", code: "UNVERIFIABLE_CITATION" });
  });

  it("are what a failing or confused replica leaves behind", async () => {
    const down = async () => Promise.reject(new Error("no other replica of kernel"));
    const failing = await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), answer([good])), readFile: null, verifyRemote: down });
    expect(failing.reasons[0]).toMatch(/no replica could check it \(no other replica of kernel\)/);
    const short = async () => [];
    const confused = await validateResponse({ ...inputFor(tree, groundedTask({ critical: true }), answer([good, pool])), readFile: null, verifyRemote: short });
    expect(confused).toMatchObject({ code: "UNVERIFIABLE_CITATION" });
    expect(confused.reasons[0]).toMatch(/a replica answered 0 results for 2 citations/);
  });
});

describe("sampling", () => {
  const four = () => [good, tree.cite("kernel/dma/mapping.c", 1, 1), pool, { ...tree.cite("kernel/dma/pool.c", 4, 4), sha256: "b".repeat(64) }];

  it("checks sampleSize citations of an ordinary task, chosen by the seeded random source", async () => {
    const lucky = await validateResponse({ ...inputFor(tree, groundedTask(), answer(four())), random: sequence(0, 0) });
    expect(lucky).toMatchObject({ status: "accepted", citations_checked: 2, citations_verified: 2 });
    expect(lucky.citations.map((c) => c.outcome)).toEqual(["verified", "verified", "not_sampled", "not_sampled"]);
    const caught = await validateResponse({ ...inputFor(tree, groundedTask(), answer(four())), random: sequence(0.99, 0) });
    expect(caught).toMatchObject({ status: "rejected", code: "FABRICATED_CITATION", citations_checked: 2 });
    expect(caught.citations.map((c) => c.outcome)).toEqual(["not_sampled", "verified", "not_sampled", "fabricated"]);
    const again = await validateResponse({ ...inputFor(tree, groundedTask(), answer(four())), random: sequence(0.99, 0) });
    expect(again).toEqual(caught);
  });

  it("honours the policy's sampleSize and checks every citation of a critical task", async () => {
    expect((await validateResponse({ ...inputFor(tree, groundedTask(), answer(four())), policy: { sampleSize: 3 } })).citations_checked).toBe(3);
    const critical = await validateResponse(inputFor(tree, groundedTask({ critical: true }), answer(four())));
    expect(critical).toMatchObject({ code: "FABRICATED_CITATION", citations_checked: 4, citations_verified: 3 });
  });

  it("draws distinct sorted indices, every subset reachable, and stays in range when random returns 1", () => {
    expect(sampleIndices(3, 5, sequence(0))).toEqual([0, 1, 2]);
    expect(sampleIndices(4, 2, sequence(1, 1))).toEqual([0, 3]);
    const seen = new Set<string>();
    for (const a of [0, 0.3, 0.6, 0.9]) for (const b of [0, 0.4, 0.8]) seen.add(sampleIndices(4, 2, sequence(a, b)).join(","));
    expect([...seen].sort()).toEqual(["0,1", "0,2", "0,3", "1,2", "1,3", "2,3"]);
  });
});
