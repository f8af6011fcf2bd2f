// What each overlay (O1–O7) holds for the fixtures, document by document.
import { beforeAll, describe, expect, it } from "vitest";
import { extractScope, type ScopeExtractionResult } from "../../../agents/pgc/overlays/index.js";
import type { IndexDoc, Overlay } from "../../../agents/pgc/types.js";
import { C_KERNEL_DIR, PY_SMALL_DIR, TS_SMALL_DIR } from "../../fixtures/fixture-paths.js";

let kernel: ScopeExtractionResult;
let net: ScopeExtractionResult;
let ts: ScopeExtractionResult;
let py: ScopeExtractionResult;

beforeAll(async () => {
  [kernel, net, ts, py] = await Promise.all([
    extractScope({ root: C_KERNEL_DIR, gitHistory: false }),
    extractScope({ root: C_KERNEL_DIR, scopePaths: ["net/", "include/linux/skbuff.h", "include/linux/netdevice.h"], gitHistory: false }),
    extractScope({ root: TS_SMALL_DIR, gitHistory: false }),
    extractScope({ root: PY_SMALL_DIR, gitHistory: false }),
  ]);
});

const docsOf = (result: ScopeExtractionResult, overlay: Overlay, section?: string): IndexDoc[] =>
  result.docs.filter((doc) => doc.overlay === overlay && (section === undefined || doc.section === section));
const find = (result: ScopeExtractionResult, overlay: Overlay, predicate: (doc: IndexDoc) => boolean): IndexDoc => {
  const doc = docsOf(result, overlay).find(predicate);
  if (!doc) throw new Error(`no ${overlay} document matches`);
  return doc;
};

describe("O1 structural", () => {
  it("has one document per symbol, in the seed's one-line form", () => {
    expect(docsOf(kernel, "O1")).toHaveLength(kernel.symbols.length);
    const doc = find(kernel, "O1", (candidate) => candidate.symbol === "alloc_pages");
    expect(doc).toMatchObject({
      id: "O1:function:mm/page_alloc.c:68-87:alloc_pages",
      section: "function",
      file_path: "mm/page_alloc.c",
      line_start: 68,
      line_end: 87,
      text: "function:alloc_pages | params:2 | returns:struct page * | file:mm/page_alloc.c:68",
    });
    expect(doc.fields).toMatchObject({ name: "alloc_pages", signature: "struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)", path: "mm/page_alloc.c" });
    expect(doc.fields.doc).toMatch(/^alloc_pages - allocate a block of 2\^order contiguous pages/);
    expect(doc.fields.body?.split("\n")).toHaveLength(20);
    expect(doc.fields.body?.split("\n")[0]).toBe("struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)");
  });

  it("describes structs, macros, header inlines, methods and interfaces", () => {
    const texts = [...docsOf(kernel, "O1"), ...docsOf(ts, "O1"), ...docsOf(py, "O1")].map((doc) => doc.text);
    expect(texts).toContain("struct:e1000_ring | fields:7 | file:drivers/net/e1000/e1000.h:64");
    expect(texts).toContain("macro:MAX_ORDER | value:10 | file:include/linux/mm.h:18");
    expect(texts).toContain("macro:min | params:2 | file:include/linux/kernel.h:39");
    expect(texts).toContain("function:skb_put | params:2 | returns:u8 * | in_header | file:include/linux/skbuff.h:43");
    expect(texts).toContain("method:KeyValueStore.set | params:2 | returns:boolean | file:src/store.ts:29");
    expect(texts).toContain("interface:PutRequest | properties:2 | file:src/index.ts:8");
    expect(texts).toContain("method:Inventory.add | params:2 | returns:none | file:inventory/stock.py:19");
  });

  it("caps the body at the first 30 lines of a long definition", () => {
    const long = docsOf(py, "O1").find((doc) => doc.symbol === "Inventory");
    expect(long?.fields.body?.split("\n").length).toBeLessThanOrEqual(30);
  });
});

describe("O2 security", () => {
  it("reports each risky call with its reason, line and enclosing function", () => {
    const findings = (result: ScopeExtractionResult) =>
      docsOf(result, "O2").map((doc) => [doc.fields.name, doc.file_path, doc.line_start, doc.symbol]);
    expect(findings(kernel)).toEqual([
      ["strcpy", "drivers/net/e1000/e1000_ethtool.c", 31, "e1000_get_drvinfo"],
      ["sprintf", "drivers/net/e1000/e1000_ethtool.c", 32, "e1000_get_drvinfo"],
      ["memcpy", "drivers/net/e1000/e1000_main.c", 149, "e1000_xmit_frame"],
      ["memcpy", "kernel/printk.c", 20, "log_store"],
      ["sprintf", "kernel/printk.c", 32, "printk"],
      ["memcpy", "net/socket.c", 43, "sock_copy_payload"],
    ]);
    expect(findings(ts)).toEqual([
      ["eval", "src/format.ts", 14, "evaluateTemplate"],
      ["exec", "src/index.ts", 26, "reportStatus"],
    ]);
    expect(findings(py)).toEqual([
      ["subprocess.run", "inventory/pricing.py", 20, "print_report"],
      ["yaml.load", "inventory/stock.py", 32, "load_inventory"],
    ]);
    const strcpy = find(kernel, "O2", (doc) => doc.fields.name === "strcpy");
    expect(strcpy).toMatchObject({ section: "risky_call", fields: { body: "\tstrcpy(drvinfo->driver, e1000_driver_name);" } });
    expect(strcpy.text).toBe(
      "risky_call:strcpy | severity:high | in:e1000_get_drvinfo | copies without a bound on the destination size | file:drivers/net/e1000/e1000_ethtool.c:31",
    );
  });
});

describe("O3 lineage", () => {
  it("records call edges with where the callee is defined", () => {
    const edge = find(kernel, "O3", (doc) => doc.section === "call_chain" && doc.fields.signature === "e1000_setup_ring → dma_alloc_coherent");
    expect(edge).toMatchObject({ file_path: "drivers/net/e1000/e1000_main.c", line_start: 35, line_end: 35, symbol: "e1000_setup_ring" });
    expect(edge.text).toBe("call_chain: e1000_setup_ring → dma_alloc_coherent | file:drivers/net/e1000/e1000_main.c:35 | callee defined at kernel/dma/mapping.c:23");
  });

  it("marks calls leaving the scope and traces the chain that leads to them", () => {
    const leaving = find(net, "O3", (doc) => doc.text.startsWith("call_chain: dev_queue_xmit → e1000_xmit_frame"));
    expect(leaving.text).toContain("callee outside this scope");
    const chain = find(net, "O3", (doc) => doc.text.startsWith("Call chain:"));
    expect(chain).toMatchObject({ section: "call_chain", file_path: "net/core/dev.c", line_start: 32 });
    expect(chain.text).toBe("Call chain: net/socket.c:sock_sendmsg() → net/core/dev.c:dev_queue_xmit() → e1000_xmit_frame() [outside scope]");
  });

  it("records include and import edges and where they resolve", () => {
    const texts = [...docsOf(kernel, "O3"), ...docsOf(net, "O3"), ...docsOf(py, "O3")].map((doc) => doc.text);
    expect(texts).toContain("include: e1000.h | from:drivers/net/e1000/e1000_main.c:16 | resolves:drivers/net/e1000/e1000.h");
    expect(texts).toContain("include: linux/e1000.h | from:net/core/dev.c:10 | resolves:outside this scope (include/linux/e1000.h)");
    expect(texts).toContain("import: yaml | from:inventory/stock.py:2 | resolves:outside this scope");
    expect(texts).toContain("import: decimal | from:inventory/pricing.py:3 | resolves:standard library");
  });

  it("has no history documents when history is not asked for", () => {
    expect(docsOf(kernel, "O3", "history")).toEqual([]);
  });
});

describe("O4 mission", () => {
  it("indexes READMEs in heading-aligned chunks", () => {
    const chunks = docsOf(kernel, "O4", "readme").filter((doc) => doc.file_path === "drivers/README.md");
    expect(chunks.map((doc) => [doc.line_start, doc.line_end])).toEqual([[1, 11], [13, 23], [25, 28]]);
    expect(chunks[1]?.text).toBe("readme:drivers/README.md | Transmit path | lines:13-23");
    expect(docsOf(ts, "O4", "readme")).toHaveLength(1);
  });

  it("indexes module docs and doc comments with the lines they cover", () => {
    const moduleDoc = find(kernel, "O4", (doc) => doc.section === "module_doc" && doc.file_path === "drivers/net/e1000/e1000_main.c");
    expect(moduleDoc).toMatchObject({ line_start: 1, line_end: 8 });
    expect(moduleDoc.fields.doc).toMatch(/^drivers\/net\/e1000\/e1000_main.c - Intel PRO\/1000 network driver\./);
    expect(moduleDoc.fields.doc).not.toContain("SPDX");
    const docComment = find(kernel, "O4", (doc) => doc.section === "doc_comment" && doc.symbol === "e1000_xmit_frame");
    expect(docComment).toMatchObject({ line_start: 128, line_end: 137 });
    expect(find(py, "O4", (doc) => doc.section === "doc_comment" && doc.symbol === "Inventory")).toMatchObject({ line_start: 9, line_end: 13 });
    expect(find(py, "O4", (doc) => doc.section === "module_doc")).toMatchObject({ file_path: "inventory/__init__.py", line_start: 1, line_end: 4 });
  });
});

describe("O5 operational", () => {
  it("indexes Kconfig entries, kbuild objects and make targets", () => {
    const texts = docsOf(kernel, "O5").map((doc) => doc.text);
    expect(texts).toContain(
      'config:CONFIG_E1000 | tristate "Intel(R) PRO/1000 Gigabit Ethernet support" | depends on NETDEVICES && HAS_DMA | help: This driver supports Intel(R) PRO/1000 gigabit ethernet adapters. | file:drivers/net/Kconfig:9',
    );
    expect(texts).toContain("build_target:obj-$(CONFIG_E1000) | obj-$(CONFIG_E1000) += e1000/e1000_main.o e1000/e1000_ethtool.o | file:drivers/net/Makefile:4");
    const targets = docsOf(kernel, "O5", "build_target").filter((doc) => doc.file_path === "Makefile");
    expect(targets.map((doc) => [doc.fields.name, doc.line_start, doc.line_end])).toEqual([
      ["all", 7, 7], ["vmlinux", 9, 10], ["$(SUBDIRS)", 12, 13], ["clean", 15, 16],
    ]);
    expect(find(kernel, "O5", (doc) => doc.fields.name === "CONFIG_E1000")).toMatchObject({ line_start: 9, line_end: 15 });
  });

  it("indexes npm scripts and Python entry points", () => {
    expect(docsOf(ts, "O5", "script").map((doc) => [doc.fields.name, doc.fields.signature, doc.line_start])).toEqual([
      ["npm run build", "tsc -p .", 7],
      ["npm run start", "node dist/index.js", 8],
    ]);
    expect(find(py, "O5", (doc) => doc.section === "script")).toMatchObject({ fields: { name: "project.scripts" }, line_start: 6, line_end: 7 });
  });
});

describe("O6 mathematical", () => {
  it("indexes assertions, limits and bounds stated in comments and docstrings", () => {
    const texts = [...docsOf(kernel, "O6"), ...docsOf(ts, "O6"), ...docsOf(py, "O6")].map((doc) => doc.text);
    expect(texts).toContain("assertion:BUG_ON | BUG_ON(order > MAX_ORDER) | in:alloc_pages | file:mm/page_alloc.c:72");
    expect(texts).toContain("assertion:BUILD_BUG_ON | BUILD_BUG_ON(sizeof(struct e1000_tx_desc) != 16) | in:e1000_open | file:drivers/net/e1000/e1000_main.c:112");
    expect(texts).toContain("limit:MAX_ORDER | #define MAX_ORDER 10 | file:include/linux/mm.h:18");
    expect(texts).toContain("invariant:Invariant: next_to_use and next_to_clean are always < count. | file:drivers/net/e1000/e1000.h:62");
    expect(texts).toContain('assertion:console.assert | console.assert(this.entries.size <= MAX_ENTRIES, "store over capacity") | in:set | file:src/store.ts:32');
    expect(texts).toContain("limit:MAX_ENTRIES | export const MAX_ENTRIES = 1000; | file:src/store.ts:4");
    expect(texts).toContain('assertion:assert | assert len(self.items) < MAX_ITEMS, "inventory full" | in:add | file:inventory/stock.py:21');
    expect(texts).toContain("limit:MAX_ITEMS | MAX_ITEMS = 500 | file:inventory/stock.py:6");
    expect(texts).toContain("invariant:A bounded collection of items. Invariant: the inventory holds at most MAX_ITEMS items. | file:inventory/stock.py:10");
  });
});

describe("O7 coherence", () => {
  it("ties risky or asserted functions to the documents that describe them", () => {
    const ties = docsOf(kernel, "O7").map((doc) => [doc.symbol, /ties:(\S+)/.exec(doc.text)?.[1]]);
    expect(ties).toEqual([
      ["e1000_get_drvinfo", "O1+O2+O4"],
      ["e1000_xmit_frame", "O1+O2+O4+O6"],
      ["dma_alloc_coherent", "O1+O4+O6"],
      ["dma_map_single", "O1+O4+O6"],
      ["log_store", "O1+O2+O4"],
      ["printk", "O1+O2+O4"],
      ["queue_work", "O1+O4+O6"],
      ["alloc_pages", "O1+O4+O6"],
      ["sock_copy_payload", "O1+O2+O4"],
    ]);
    const xmit = find(kernel, "O7", (doc) => doc.symbol === "e1000_xmit_frame");
    expect(xmit).toMatchObject({ section: "coherence", file_path: "drivers/net/e1000/e1000_main.c", line_start: 137, line_end: 163 });
    expect(xmit.text).toContain("O2:memcpy@149");
    expect(xmit.text).toContain("O6:WARN_ON@146");
  });

  it("needs the documentation inside the scope: a scope without mentions ties nothing", () => {
    expect(docsOf(ts, "O7")).toEqual([]);
    expect(docsOf(net, "O7").map((doc) => doc.symbol)).toEqual([]);
  });
});
