// How a multi-hop question moves between scopes, on hand-made ownership: where it starts, which scope the
// evidence points to next, and what the next hop is asked.
import { describe, expect, it } from "vitest";
import { mentionedSymbols, namedElsewhere, nextScope, pointers, quotedCode, refineQuestion } from "../../../agents/manager/hop-planning.js";
import { relevantLeads } from "../../../agents/manager/lead-relevance.js";
import type { Ownership } from "../../../agents/manager/question-names.js";
import { scopeOfEntities } from "../../../agents/manager/start-scope.js";
import type { Citation } from "../../../agents/protocol/index.js";
import { pathMatch } from "../../../agents/manager/scope-map.js";

function ownership(owners: Record<string, string[]>): Ownership {
  return { ownersOf: (symbol) => owners[symbol] ?? [] };
}

function cite(content: string): Citation {
  return { overlay: "O3", content, relevance: "call", file_path: "a.ts", line_start: 1, line_end: 1, sha256: "0".repeat(64), similarity: 1, similarity_kind: "exact" };
}

const scopes = ["v3", "v4-classic", "v4-core"];

describe("scopeOfEntities", () => {
  it("starts where the names only one scope defines live; a name defined in several counts as a share", () => {
    const map = ownership({ ZodString: ["v3", "v4-classic"], $ZodCheckMinLength: ["v4-core"] });
    expect(scopeOfEntities("How does ZodString use $ZodCheckMinLength?", map, scopes)).toBe("v4-core");
  });

  it("breaks a tie by the scope the question names, not by the alphabet", () => {
    const map = ownership({ ZodString: ["v3", "v4-classic"] });
    expect(scopeOfEntities("How is ZodString built in the classic API?", map, scopes)).toBe("v4-classic");
    expect(scopeOfEntities("How is ZodString built?", map, scopes)).toBe("v3");
  });

  it("ignores owners that no worker serves, and gives null for a question naming nothing known", () => {
    const map = ownership({ kmalloc: ["mm"], ZodString: ["v4-classic"] });
    expect(scopeOfEntities("Who calls kmalloc() and ZodString?", map, scopes)).toBe("v4-classic");
    expect(scopeOfEntities("How does the allocator work?", map, scopes)).toBeNull();
  });
});

describe("pointers and mentionedSymbols", () => {
  it("reads the code a citation quotes, not the paths and template words the index wrote around it", () => {
    expect(quotedCode("call_chain: e1000_alloc_rx_buffers → dma_map_single | file:drivers/net/e1000/e1000_main.c:4412 | callee defined at kernel/dma/mapping.c:10")).toBe(
      "e1000_alloc_rx_buffers → dma_map_single",
    );
    expect(quotedCode("call_chain: ZodString → core.$constructor | file:v4/classic/schemas.ts:529 | callee not in this scope (library, builtin or indirect)")).toBe("ZodString → core.$constructor");
    expect(quotedCode("function:parsedType | params:1 | returns:errors.$ZodInvalidTypeExpected | file:v4/core/util.ts:1024 — v4/core/util.ts:1024-1045")).toBe(
      "parsedType | 1 | errors.$ZodInvalidTypeExpected",
    );
    // The cited source after the first line is the code itself: kept whole.
    expect(quotedCode("assertion:BUG_ON | BUG_ON(!page) | in:(file scope) | file:mm/page_alloc.c:7\n\tBUG_ON(!page);\n\tfree_pages(page);")).toBe(
      "BUG_ON | BUG_ON(!page)\n\tBUG_ON(!page);\n\tfree_pages(page);",
    );
    // A path in the evidence is not a lead: "mapping" and "kernel" would be, if another scope defined them.
    const map = ownership({ mapping: ["other"], kernel: ["other"], dma_map_single: ["dma"] });
    const leads = pointers([cite("call_chain: e1000_xmit → dma_map_single | file:drivers/e1000.c:1 | callee defined at kernel/dma/mapping.c:10")], [], map, "drivers");
    expect([...leads]).toEqual([["dma", ["dma_map_single"]]]);
    // A call in the cited source leads too.
    const fromBody = pointers([cite("function:e1000_alloc_rx_buffers | file:drivers/e1000.c:10\n\tbuffer_info->dma = dma_map_single(&pdev->dev, data, len, DMA_FROM_DEVICE);")], [], map, "drivers");
    expect([...fromBody]).toEqual([["dma", ["dma_map_single"]]]);
  });

  it("counts names in citations and findings, \"$\" included, most mentioned first", () => {
    expect(mentionedSymbols([cite("inst.$ZodCheck calls core.$constructor(def)")], ["$ZodCheck runs first"])).toEqual(["$ZodCheck", "$constructor"]);
  });

  it("takes a name that reads as an English word only where the evidence calls it", () => {
    const evidence = [cite("call_chain: e1000_setup → kmalloc | file:e1000.c:3\n\tlist_add(&entry->chain, head);\n\tprintk (\"reserved\");")];
    // kmalloc is called (a call chain's callee) and printk too; entry, chain, head and "reserved" are not.
    expect(mentionedSymbols(evidence, [])).toEqual(["e1000_setup", "kmalloc", "list_add", "printk"]);
  });

  it("points to the other scopes that alone own a mentioned name, never back home", () => {
    const map = ownership({ $constructor: ["v4-core"], clone: ["v4-core", "v3"], ZodType: ["v4-classic"], parse: ["v3"] });
    const leads = pointers([cite("ZodType calls core.$constructor(def) and clone(x), then parse(y)")], [], map, "v4-classic");
    expect([...leads]).toEqual([
      ["v4-core", ["$constructor"]],
      ["v3", ["parse"]],
    ]);
  });
});

describe("nextScope and refineQuestion", () => {
  const leads = new Map([
    ["mm", ["alloc_pages", "kmalloc"]],
    ["dma", ["dma_map_single"]],
  ]);

  it("prefers the target when the evidence leads there, else the scope with the most leads, never a visited one", () => {
    expect(nextScope(leads, new Set(), "dma")).toEqual({ scope: "dma", focus: ["dma_map_single"] });
    expect(nextScope(leads, new Set())).toEqual({ scope: "mm", focus: ["alloc_pages", "kmalloc"] });
    expect(nextScope(leads, new Set(["mm"]))).toEqual({ scope: "dma", focus: ["dma_map_single"] });
    expect(nextScope(leads, new Set(["mm", "dma"]))).toBeNull();
  });

  it("narrows the question to the symbols that led to the scope", () => {
    expect(refineQuestion("How is DMA set up?", null, [])).toBe("How is DMA set up?");
    expect(refineQuestion("How is DMA set up?", "drivers", ["dma_map_single"])).toBe("How is DMA set up? (continuing from drivers: how is dma_map_single implemented here?)");
    expect(refineQuestion("How is DMA set up?", "drivers", ["dma_map_single", "dma_unmap_single"])).toMatch(/how are dma_map_single, dma_unmap_single implemented here\?\)$/);
  });
});

describe("relevantLeads", () => {
  const none = ownership({});
  const keep = (leads: Record<string, string[]>, question: string, visited: string[] = []) => Object.fromEntries(relevantLeads(new Map(Object.entries(leads)), question, none, new Set(visited)));

  it("keeps a lead whose name shares a term with the question, and drops calls every type has", () => {
    expect(keep({ dma: ["dma_alloc_coherent"], collections: ["startswith"], traceback: ["print"] }, "How does the e1000 driver allocate DMA buffers?")).toEqual({ dma: ["dma_alloc_coherent"] });
    // Generic words (module, use) and the words of a visited scope's name ask for nothing.
    expect(keep({ importlib: ["module"], distutils: ["Log"] }, "How does the logging module use handlers?", ["logging"])).toEqual({});
  });

  it("knows how code abbreviates a question's words (received: rcv, transmitted: xmit, find: lookup)", () => {
    const leads = { ipv4: ["ip_rcv"], core: ["dev_queue_xmit"], hash: ["__inet_lookup_skb"], mm: ["kfree"], sched: ["qdisc_destroy"] };
    expect(keep(leads, "How is a frame received, and how does the stack find its socket before it is transmitted?")).toEqual({
      ipv4: ["ip_rcv"],
      core: ["dev_queue_xmit"],
      hash: ["__inet_lookup_skb"],
    });
    // The abbreviation is compared as the tokenizer keeps it: "destroy" is stemmed like the name's part.
    expect(keep(leads, "What happens when a discipline is deleted?")).toEqual({ sched: ["qdisc_destroy"] });
  });

  it("keeps every lead into a scope the question names by all its meaningful words", () => {
    const leads = { "net-core": ["netif_rx"], "internal-scheduler": ["AsyncAction"], "v4-classic-tests-3": ["Shape"] };
    expect(keep(leads, "How does e1000 hand packets to the net core, and the scheduler to the classic API?")).toEqual({ "net-core": ["netif_rx"], "internal-scheduler": ["AsyncAction"] });
  });
});

describe("namedElsewhere", () => {
  it("goes on to the unvisited scope owning names the question still asks about, focused on them", () => {
    const map = ownership({ ZodString: ["v3", "v4-classic"], $ZodCheckMinLength: ["v4-core"], ZodType: ["v4-classic"] });
    const question = "How does ZodString in the classic API use ZodType and $ZodCheckMinLength?";
    expect(namedElsewhere(question, map, scopes, new Set(["v4-core"]))).toEqual({ scope: "v4-classic", focus: ["ZodString", "ZodType"] });
    // ZodString is answered for once v4-classic was visited: its other owner, v3, is not chased.
    expect(namedElsewhere(question, map, scopes, new Set(["v4-core", "v4-classic"]))).toBeNull();
    expect(namedElsewhere(question, map, scopes, new Set(["v4-core", "v3"]))).toEqual({ scope: "v4-classic", focus: ["ZodType"] });
  });
});

describe("modules and paths a question names", () => {
  // Scope paths as a fleet's facts give them; the most specific owner wins, as in ScopeMap.ownersOfPath.
  const paths: Record<string, string[]> = { json_urllib: ["json/", "urllib/"], asyncio_email_http: ["asyncio/", "email/", "http/"], mm: ["mm/"], "mm-2": ["mm/slab.c"] };
  const map: Ownership = {
    ownersOf: (symbol) => ({ request: ["asyncio_email_http"] })[symbol] ?? [],
    ownersOfPath: (path) => {
      const matches = Object.entries(paths).flatMap(([scope, owned]) => owned.map((p) => [scope, pathMatch(p, path)] as const)).filter(([, n]) => n > 0);
      const best = Math.max(0, ...matches.map(([, n]) => n));
      return matches.filter(([, n]) => n === best).map(([scope]) => scope);
    },
  };
  const all = Object.keys(paths);

  it("takes a dotted module name to the scope owning its file, and goes on to the other module named", () => {
    const question = "How does urllib.request open an HTTP connection with http.client?";
    // urllib.request → json_urllib; request (a method) and http.client → asyncio_email_http.
    expect(scopeOfEntities(question, map, all)).toBe("asyncio_email_http");
    expect(namedElsewhere(question, map, all, new Set(["asyncio_email_http"]))).toEqual({ scope: "json_urllib", focus: ["urllib.request"] });
  });

  it("takes a dotted name that is no module to its longest module prefix, and guesses nothing from names many scopes define", () => {
    // json.dumps: no json/dumps module, but json/ is json_urllib's.
    expect(scopeOfEntities("Who calls json.dumps?", map, all)).toBe("json_urllib");
    const join: Ownership = { ownersOf: (symbol) => (symbol === "join" ? ["json_urllib", "asyncio_email_http", "mm"] : []) };
    expect(scopeOfEntities("How does `join` work?", join, all)).toBeNull();
  });

  it("takes a path to its most specific scope", () => {
    expect(scopeOfEntities("What does mm/slab.c free?", map, all)).toBe("mm-2");
    expect(scopeOfEntities("What is in mm/page_alloc.c and net/ipv4/?", map, all)).toBe("mm");
    expect(pathMatch("mm/", "mm")).toBe(3);
    expect(pathMatch("mm/slab.c", "mm/slab")).toBe(9);
    expect(pathMatch("", "mm/slab")).toBe(0);
    expect(pathMatch("mm/", "mmap/x")).toBe(0);
  });
});
