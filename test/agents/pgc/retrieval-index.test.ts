import { describe, expect, it } from "vitest";
import {
  IndexFormatError,
  InvalidRetrievalOptionsError,
  LexicalIndex,
  type LexicalIndexJSON,
} from "../../../agents/pgc/retrieval/index.js";
import type { IndexDoc, Overlay } from "../../../agents/pgc/types.js";

function doc(id: string, fields: Partial<IndexDoc["fields"]>, overlay: Overlay = "O1", symbol?: string): IndexDoc {
  return {
    id,
    overlay,
    section: "function",
    file_path: fields.path ?? "src/x.c",
    line_start: 1,
    line_end: 10,
    ...(symbol === undefined ? {} : { symbol }),
    fields: { path: "src/x.c", ...fields },
    text: id,
  };
}

const DOCS: IndexDoc[] = [
  doc("alloc", { name: "dma_alloc_coherent", signature: "void *dma_alloc_coherent(struct device *dev, size_t size)", doc: "Allocate coherent DMA memory for a device.", body: "return ops->alloc(dev, size);", path: "kernel/dma/mapping.c" }, "O1", "dma_alloc_coherent"),
  doc("free", { name: "dma_free_coherent", signature: "void dma_free_coherent(struct device *dev, void *cpu_addr)", doc: "Free memory obtained from dma_alloc_coherent.", body: "ops->free(dev, cpu_addr);", path: "kernel/dma/mapping.c" }, "O1", "dma_free_coherent"),
  doc("xmit", { name: "e1000_xmit_frame", signature: "netdev_tx_t e1000_xmit_frame(struct sk_buff *skb, struct net_device *netdev)", doc: "Transmit a frame on the wire.", body: "tx_ring = adapter->tx_ring; e1000_tx_map(adapter, tx_ring, skb); /* uses DMA mapping */", path: "drivers/net/e1000/e1000_main.c" }, "O1", "e1000_xmit_frame"),
  doc("ring", { name: "e1000_setup_tx_resources", doc: "Allocate transmit descriptors; the ring memory comes from dma_alloc_coherent.", body: "txdr->desc = dma_alloc_coherent(&pdev->dev, txdr->size, &txdr->dma, GFP_KERNEL);", path: "drivers/net/e1000/e1000_main.c" }, "O1", "e1000_setup_tx_resources"),
  doc("readme", { doc: "The e1000 driver supports Intel gigabit adapters. Memory for rings is allocated with DMA helpers.", path: "drivers/net/e1000/README" }, "O4"),
  doc("upper", { name: "DMA_BIT_MASK", signature: "#define DMA_BIT_MASK(n)", doc: "Mask of the low n bits.", path: "include/linux/dma-mapping.h" }, "O1", "DMA_BIT_MASK"),
  doc("lower", { name: "dma_bit_mask", signature: "static inline u64 dma_bit_mask(int n)", doc: "Function form of the mask.", path: "include/linux/dma-mapping.h" }, "O1", "dma_bit_mask"),
  doc("pathonly", { body: "unrelated body text", path: "drivers/net/transmit/helpers.c" }, "O1"),
];

const index = LexicalIndex.build(DOCS);
const ids = (query: string, options = {}): string[] => index.search(query, options).hits.map((hit) => hit.doc_id);

describe("LexicalIndex ranking", () => {
  it("ranks a name match above a body mention", () => {
    expect(ids("dma_alloc_coherent")[0]).toBe("alloc");
    expect(ids("dma_alloc_coherent")).toContain("ring");
  });

  it("finds a document by the words of its doc comment", () => {
    expect(ids("transmit a frame")[0]).toBe("xmit");
  });

  it("matches inflections through the stemmer", () => {
    expect(ids("allocating coherent memory")[0]).toBe("alloc");
  });

  it("ranks a path-only match last", () => {
    const ranked = ids("transmit");
    expect(ranked.indexOf("pathonly")).toBeGreaterThan(ranked.indexOf("ring"));
  });

  it("reports matched terms, per-term coverage and features", () => {
    const result = index.search("free coherent memory", { topK: 3 });
    const top = result.hits[0];
    expect(top?.doc_id).toBe("free");
    expect(result.query_terms).toEqual(["free", "coher", "memori"]);
    expect(top?.matched_terms).toEqual(["free", "coher", "memori"]);
    for (const term of result.query_terms) expect(top?.term_coverage[term]).toBeGreaterThan(0);
    expect(top?.features.coverage).toBeCloseTo(1, 10);
    expect(top?.features.score_ratio).toBeGreaterThan(0);
    expect(top?.features.score_ratio).toBeLessThan(1);
    expect(top?.features.margin).toBeGreaterThan(0);
    expect(result.hits[1]?.features.margin).toBeLessThan(0);
  });

  it("counts a term the corpus lacks in the query's best possible score", () => {
    const known = index.search("transmit");
    const withUnknown = index.search("transmit zebra");
    expect(withUnknown.max_score).toBeGreaterThan(known.max_score);
    expect(withUnknown.hits[0]?.features.coverage).toBeLessThan(0.6);
    expect(withUnknown.hits[0]?.term_coverage["zebra"]).toBe(0);
  });

  it("filters by overlay", () => {
    expect(ids("e1000 driver adapters", { overlays: ["O4"] })).toEqual(["readme"]);
    expect(ids("e1000 driver adapters", { overlays: ["O1"] })).not.toContain("readme");
  });

  it("returns no hits for a query with no terms", () => {
    expect(index.search("the of and", { topK: 5 })).toEqual({ query_terms: [], max_score: 0, hits: [] });
  });

  it("honours topK and breaks ties by document order", () => {
    expect(ids("dma", { topK: 2 })).toHaveLength(2);
    const tied = LexicalIndex.build([doc("b", { body: "same words" }), doc("a", { body: "same words" })]);
    expect(tied.search("same words").hits.map((hit) => hit.doc_id)).toEqual(["b", "a"]);
  });

  it("rejects a bad topK or overlay with a named error", () => {
    expect(() => index.search("dma", { topK: 0 })).toThrow(InvalidRetrievalOptionsError);
    expect(() => index.search("dma", { topK: 1.5 })).toThrow(InvalidRetrievalOptionsError);
    expect(() => index.search("dma", { overlays: ["O9" as Overlay] })).toThrow(InvalidRetrievalOptionsError);
  });

  it("rejects duplicate document ids", () => {
    expect(() => LexicalIndex.build([doc("a", { body: "x" }), doc("a", { body: "y" })])).toThrow(IndexFormatError);
  });
});

describe("LexicalIndex exact look-ups", () => {
  it("finds a symbol case-sensitively, or case-insensitively when asked", () => {
    expect(index.findSymbol("DMA_BIT_MASK")).toEqual(["upper"]);
    expect(index.findSymbol("dma_bit_mask")).toEqual(["lower"]);
    expect(index.findSymbol("Dma_Bit_Mask")).toEqual([]);
    expect(index.findSymbol("Dma_Bit_Mask", { ignoreCase: true })).toEqual(["upper", "lower"]);
    expect(index.findSymbol("no_such_symbol", { ignoreCase: true })).toEqual([]);
  });

  it("resolves caller-supplied edges to documents the index holds", () => {
    const edges = new Map([["dma_alloc_coherent", ["ring", "xmit", "ring", "not-indexed"]]]);
    expect(index.lookupEdges("dma_alloc_coherent", edges)).toEqual([
      { doc_id: "ring", identifier: "dma_alloc_coherent", via: "edge" },
      { doc_id: "xmit", identifier: "dma_alloc_coherent", via: "edge" },
    ]);
    expect(index.lookupEdges("kfree", edges)).toEqual([]);
  });
});

describe("LexicalIndex JSON", () => {
  const roundTrip = (json: LexicalIndexJSON): LexicalIndex => LexicalIndex.fromJSON(JSON.parse(JSON.stringify(json)));

  it("searches identically after a JSON round trip", () => {
    const reloaded = roundTrip(index.toJSON());
    for (const query of ["dma_alloc_coherent", "transmit a frame", "e1000 driver", "mask bits", "zebra"]) {
      expect(reloaded.search(query, { topK: 8 })).toEqual(index.search(query, { topK: 8 }));
    }
    expect(reloaded.findSymbol("DMA_BIT_MASK")).toEqual(["upper"]);
    expect(reloaded.toJSON()).toEqual(index.toJSON());
  });

  it("patched from a previous index, is the same index a build from scratch gives", () => {
    // Removed, edited, reordered and new documents; one new term sorts before every stored one.
    const changed = [
      doc("aardvark", { name: "aardvark_probe", doc: "A brand-new zzz_word and aardvark.", path: "new/a.c" }),
      ...DOCS.slice(2, 5),
      doc("alloc", { ...DOCS[0]?.fields, body: "return ops->alloc(dev, size) ?: fallback_alloc(dev);" }, "O1", "dma_alloc_coherent"),
      ...DOCS.slice(6),
    ];
    const patched = LexicalIndex.build(changed, roundTrip(index.toJSON()));
    const scratch = LexicalIndex.build(changed);
    expect(patched.toJSON()).toEqual(scratch.toJSON());
    expect(patched.search("alloc fallback aardvark", { topK: 8 })).toEqual(scratch.search("alloc fallback aardvark", { topK: 8 }));
    expect(LexicalIndex.build([], index).toJSON()).toEqual(LexicalIndex.build([]).toJSON());
  });

  it("round-trips an empty index", () => {
    const empty = LexicalIndex.build([]);
    expect(roundTrip(empty.toJSON()).search("anything").hits).toEqual([]);
  });

  it("rejects a wrong format, a wrong version and inconsistent arrays", () => {
    const json = index.toJSON();
    expect(() => LexicalIndex.fromJSON({ ...json, format: "other" })).toThrow(IndexFormatError);
    expect(() => LexicalIndex.fromJSON({ ...json, version: 1 })).toThrow(IndexFormatError);
    expect(() => LexicalIndex.fromJSON({ ...json, doc_ids: json.doc_ids.slice(1) })).toThrow(IndexFormatError);
    expect(() => LexicalIndex.fromJSON({ ...json, posting_docs: json.posting_docs.slice(0, 8) })).toThrow(IndexFormatError);
    expect(() => LexicalIndex.fromJSON({ ...json, offsets: "AAA" })).toThrow(IndexFormatError);
    expect(() => LexicalIndex.fromJSON(null)).toThrow(IndexFormatError);
  });

  it("rejects a posting that names a document out of range", () => {
    const json = index.toJSON();
    const bytes = Buffer.from(json.posting_docs, "base64");
    const docs = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    docs[0] = 999;
    const corrupt = { ...json, posting_docs: Buffer.from(docs.buffer).toString("base64") };
    expect(() => LexicalIndex.fromJSON(corrupt)).toThrow(/out of range/);
  });
});
