import { describe, expect, it } from "vitest";
import {
  COVERAGE_CEILING,
  EXACT_SIMILARITY,
  fitCalibration,
  identifiersInQuery,
  IndexMismatchError,
  InvalidRetrievalOptionsError,
  LexicalIndex,
  moduleNames,
  retrieve,
  type RetrievalPgc,
} from "../../../agents/pgc/retrieval/index.js";
import type { IndexDoc, Overlay } from "../../../agents/pgc/types.js";

function doc(id: string, symbol: string | undefined, fields: Partial<IndexDoc["fields"]>, overlay: Overlay = "O1"): IndexDoc {
  return {
    id,
    overlay,
    section: symbol === undefined ? "readme" : "function",
    file_path: "drivers/net/e1000/e1000_main.c",
    line_start: 1,
    line_end: 20,
    ...(symbol === undefined ? {} : { symbol }),
    fields: { path: "drivers/net/e1000/e1000_main.c", ...(symbol === undefined ? {} : { name: symbol }), ...fields },
    text: id,
  };
}

const DOCS: IndexDoc[] = [
  doc("xmit", "e1000_xmit_frame", { doc: "Transmit a frame: map the buffers for DMA and queue them.", body: "e1000_tx_map(adapter, skb);" }),
  doc("txmap", "e1000_tx_map", { doc: "Map socket buffer fragments for DMA.", body: "dma_map_single(&pdev->dev, skb->data, len, DMA_TO_DEVICE);" }),
  doc("alloc", "dma_alloc_coherent", { doc: "Allocate coherent memory for DMA.", body: "return ops->alloc(dev, size);" }),
  doc("setup", "e1000_setup_tx_resources", { doc: "Allocate the transmit descriptor ring.", body: "dma_alloc_coherent(&pdev->dev, size, &dma, GFP_KERNEL);" }),
  doc("readme", undefined, { doc: "The e1000 driver transmits frames using DMA descriptor rings." }, "O4"),
  doc("Upper", "HTTPConnection", { doc: "A connection to an HTTP server." }),
];

function pgcOf(docs: readonly IndexDoc[], edges?: RetrievalPgc["edges"]): RetrievalPgc {
  const index = LexicalIndex.build(docs);
  return {
    index,
    calibration: fitCalibration(index, docs),
    docs: new Map(docs.map((d) => [d.id, d])),
    ...(edges === undefined ? {} : { edges }),
  };
}

const pgc = pgcOf(DOCS);

describe("identifiersInQuery", () => {
  it("picks out code-shaped words and leaves English alone", () => {
    expect(identifiersInQuery("how does e1000_xmit_frame map buffers for DMA?")).toEqual(["e1000_xmit_frame"]);
    expect(identifiersInQuery("who calls dmaAllocCoherent() and kmalloc()")).toEqual(["dmaAllocCoherent", "kmalloc"]);
    expect(identifiersInQuery("what does `open` do with the File")).toEqual(["open"]);
    expect(identifiersInQuery("is os.path.join safe, e.g. here")).toEqual(["os.path.join", "join"]);
    expect(identifiersInQuery("std::vector and dev->ops")).toEqual(["std::vector", "vector", "dev->ops", "ops"]);
    expect(identifiersInQuery("allocate a buffer")).toEqual([]);
    expect(identifiersInQuery("does SMTPHandler use HTTPConnection for URLs over HTTP")).toEqual(["SMTPHandler", "HTTPConnection"]);
  });

  it("reads a word called with arguments as code, whatever its shape, and not a plural's ending in parentheses", () => {
    // Tried on MobX: "When I call observe(store, listener) …" had not named `observe`.
    expect(identifiersInQuery("When I call observe(store, listener) on an object")).toEqual(["observe"]);
    expect(identifiersInQuery("With reaction(expression, effect), how does it track?")).toEqual(["reaction"]);
    expect(identifiersInQuery("Which driver(s) and function(es) handle a packet (and why)?")).toEqual([]);
  });

  it("reads a product's acronym after one lower-case letter as prose (xHCI, tRPC), not a name; a call or a longer name stays one", () => {
    expect(identifiersInQuery("When a driver submits an URB to the xHCI controller with usb_submit_urb")).toEqual(["usb_submit_urb"]);
    expect(identifiersInQuery("How does a tRPC procedure reach resolveResponse?")).toEqual(["resolveResponse"]);
    expect(identifiersInQuery("Who calls isFSA and xHCI() on the e1000?")).toEqual(["isFSA", "xHCI", "e1000"]);
  });

  it("reads a backticked directive as its name, without the markup around it", () => {
    expect(identifiersInQuery("When the parser meets an `.. image::` directive")).toEqual(["image"]);
  });

  it("reads a backticked expression calling something with arguments for what it calls, not as one name", () => {
    // Tried on redis-py: "`await r.lpush('jobs', payload)`" was one name no function has.
    expect(identifiersInQuery("In a service I do `await r.lpush('jobs', payload)` with redis.asyncio.")).toEqual(["r.lpush", "lpush", "redis.asyncio", "asyncio"]);
    expect(identifiersInQuery("Run `flush()` then `os.path.join(a, b)`")).toEqual(["flush", "os.path.join", "join"]);
  });

  it("keeps the \"$\" of JavaScript names, and leaves prices alone", () => {
    expect(identifiersInQuery("What does $ZodCheckMinLength check?")).toEqual(["$ZodCheckMinLength"]);
    expect(identifiersInQuery("who subscribes to source$ and core.$constructor()")).toEqual(["source$", "core.$constructor", "$constructor"]);
    expect(identifiersInQuery("it costs $5 a month")).toEqual([]);
  });
});

describe("retrieve", () => {
  it("puts exact symbol matches first with similarity 1.0 and does not repeat them", () => {
    const result = retrieve(pgc, "how does e1000_xmit_frame map buffers for DMA?", { topK: 4 });
    expect(result.hits[0]?.doc.id).toBe("xmit");
    expect(result.hits[0]?.similarity).toBe(EXACT_SIMILARITY);
    expect(result.hits[0]?.similarity_kind).toBe("exact");
    expect(result.hits[0]?.score).toBeNull();
    expect(result.exact_matches).toEqual([{ doc_id: "xmit", identifier: "e1000_xmit_frame", via: "symbol" }]);
    const ids = result.hits.map((hit) => hit.doc.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(4);
    expect(result.query_terms).toContain("e1000_xmit_frame");
  });

  it("scores lexical hits with the calibration's kind (coverage on a tiny scope, capped)", () => {
    const result = retrieve(pgc, "allocate coherent memory", { topK: 3 });
    expect(result.exact_matches).toEqual([]);
    expect(result.hits[0]?.doc.id).toBe("alloc");
    for (const hit of result.hits) {
      expect(hit.similarity_kind).toBe("coverage");
      expect(hit.similarity).toBeLessThanOrEqual(COVERAGE_CEILING);
      expect(hit.matched_terms.length).toBeGreaterThan(0);
    }
    const similarities = result.hits.map((hit) => hit.similarity);
    expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
  });

  it("falls back to a case-insensitive symbol match only when no exact-case match exists", () => {
    const result = retrieve(pgc, "what is httpConnection", { topK: 2 });
    expect(result.exact_matches).toEqual([{ doc_id: "Upper", identifier: "httpConnection", via: "symbol_ignore_case" }]);
  });

  it("adds caller-supplied edge documents as exact facts", () => {
    const withEdges = pgcOf(DOCS, new Map([["dma_alloc_coherent", ["setup"]]]));
    const result = retrieve(withEdges, "who calls dma_alloc_coherent()", { topK: 5 });
    expect(result.exact_matches).toEqual([
      { doc_id: "alloc", identifier: "dma_alloc_coherent", via: "symbol" },
      { doc_id: "setup", identifier: "dma_alloc_coherent", via: "edge" },
    ]);
    expect(result.hits.slice(0, 2).map((hit) => [hit.doc.id, hit.similarity_kind])).toEqual([
      ["alloc", "exact"],
      ["setup", "exact"],
    ]);
  });

  it("respects overlays for exact and lexical hits alike", () => {
    const result = retrieve(pgc, "e1000_xmit_frame transmits frames with DMA rings", { topK: 5, overlays: ["O4"] });
    expect(result.exact_matches).toEqual([]);
    expect(result.hits.map((hit) => hit.doc.id)).toEqual(["readme"]);
  });

  it("rejects invalid options", () => {
    expect(() => retrieve(pgc, "dma", { topK: 0 })).toThrow(InvalidRetrievalOptionsError);
    expect(() => retrieve(pgc, "dma", { overlays: ["O8" as Overlay] })).toThrow(InvalidRetrievalOptionsError);
  });

  it("reports a document store that does not match the index", () => {
    const broken: RetrievalPgc = { ...pgc, docs: new Map() };
    expect(() => retrieve(broken, "transmit a frame")).toThrow(IndexMismatchError);
  });

  it("returns nothing for a query of stopwords", () => {
    expect(retrieve(pgc, "what is the")).toEqual({ hits: [], query_terms: [], exact_matches: [] });
  });
});

describe("a module the question names by its dotted name", () => {
  const at = (id: string, file: string, section: string, symbol: string, fields: Partial<IndexDoc["fields"]>): IndexDoc => ({
    id,
    overlay: section === "import" ? "O3" : "O1",
    section,
    file_path: file,
    line_start: 1,
    line_end: 5,
    symbol,
    fields: { path: file, name: symbol, ...fields },
    text: id,
  });
  const docs = [
    at("imported-by-robotparser", "urllib/robotparser.py", "import", "urllib.request", { doc: "urllib/request.py" }),
    at("Request", "urllib/request.py", "class", "Request", { doc: "A class to encapsulate a URL request." }),
    at("do_open", "urllib/request.py", "method", "AbstractHTTPHandler.do_open", { doc: "Return an HTTPResponse object for the request, using http_class to open an HTTP connection." }),
    at("imports-http-client", "urllib/request.py", "import", "http.client", { doc: "outside this scope (http/client.py)" }),
  ];

  it("takes a query of one bare name as that name, whatever its shape (a manager's focus symbol SMTP)", () => {
    const mail = [
      at("SMTP", "smtplib.py", "class", "SMTP", { doc: "This class manages a connection to an SMTP or ESMTP server.", body: "def sendmail(self): ..." }),
      at("SMTPDataError", "smtplib.py", "class", "SMTPDataError", { doc: "The SMTP server didn't accept the data." }),
    ];
    const hits = retrieve(pgcOf(mail), "SMTP", { topK: 2 }).hits;
    expect(hits[0]).toMatchObject({ doc: { id: "SMTP" }, similarity_kind: "exact" });
    // In a sentence, an all-capitals word is an acronym, not a claim about a symbol.
    expect(retrieve(pgcOf(mail), "how does SMTP work", { topK: 2 }).hits.every((h) => h.similarity_kind !== "exact")).toBe(true);
  });

  it("cites one place importing another scope's module, not every one, so the code using it has room", () => {
    const email = [
      at("imp-a", "email/_encoded_words.py", "import", "base64", { doc: "outside this scope (base64.py)" }),
      at("imp-b", "email/base64mime.py", "import", "base64", { doc: "outside this scope (base64.py)" }),
      at("imp-c", "email/encoders.py", "import", "base64", { doc: "outside this scope (base64.py)" }),
      at("decode_b", "email/_encoded_words.py", "call_chain", "decode_b", { signature: "decode_b → base64.b64decode", doc: "decode a base64 encoded word" }),
      at("get_payload", "email/message.py", "method", "Message.get_payload", { doc: "Return the payload, decoded from base64 or quoted-printable when decode is true." }),
    ];
    const ids = retrieve(pgcOf(email), "How does the email parser decode base64 payloads?", { topK: 4 }).hits.map((h) => h.doc.id);
    expect(ids.filter((id) => id.startsWith("imp-"))).toEqual(["imp-a"]);
    expect(ids).toEqual(expect.arrayContaining(["decode_b", "get_payload"]));
  });

  it("names the modules files can be imported as, with shorter dotted suffixes", () => {
    expect([...moduleNames(["urllib/request.py", "email/__init__.py", "src/util/index.ts", "src/util/strings.ts", "README.md"])].sort()).toEqual([
      "email",
      "src.util",
      "src.util.strings",
      "urllib.request",
      "util.strings",
    ]);
  });

  it("is about the module's own code when the scope owns it: not the places importing it, nor every Request", () => {
    const question = "How does urllib.request open an HTTP connection with http.client?";
    const owning = { ...pgcOf(docs), modules: moduleNames(["urllib/request.py", "urllib/robotparser.py"]) };
    const hits = retrieve(owning, question, { topK: 3 }).hits;
    const ids = hits.map((h) => h.doc.id);
    expect(ids).not.toContain("imported-by-robotparser");
    // "request" is the module's last part, not a claim about a symbol: Request may match by words only.
    expect(hits.filter((h) => h.similarity_kind === "exact").map((h) => h.doc.id)).toEqual(["imports-http-client"]);
    // http.client is another scope's module: that urllib/request.py imports it stays a fact.
    expect(ids.slice(0, 2)).toEqual(["imports-http-client", "do_open"]);
    // Without knowing its modules, a scope treats the name as before: every exact match counts.
    const unaware = retrieve(pgcOf(docs), question, { topK: 3 }).hits.map((h) => h.doc.id);
    expect(unaware).toEqual(expect.arrayContaining(["imported-by-robotparser", "Request"]));
  });
});

describe("retrieve with a stale calibration", () => {
  it("refuses a calibration fitted on another index", () => {
    const other = pgcOf(DOCS.slice(0, 3));
    expect(() => retrieve({ ...pgc, calibration: other.calibration }, "transmit a frame")).toThrow(IndexMismatchError);
  });
});
