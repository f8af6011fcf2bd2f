import { describe, expect, it } from "vitest";
import { porterStem, splitIdentifier, tokenize } from "../../../agents/pgc/retrieval/index.js";

describe("splitIdentifier", () => {
  it.each([
    ["e1000_xmit_frame", ["e1000", "xmit", "frame"]],
    ["dmaAllocCoherent", ["dma", "Alloc", "Coherent"]],
    ["HTTPServer", ["HTTP", "Server"]],
    ["getHTTPResponseCode", ["get", "HTTP", "Response", "Code"]],
    ["utf8Decode", ["utf8", "Decode"]],
    ["md5sum", ["md5", "sum"]],
    ["pgc-retrieval-probe", ["pgc", "retrieval", "probe"]],
    ["__init__", ["init"]],
    ["MAX_HEADER_SIZE", ["MAX", "HEADER", "SIZE"]],
  ])("splits %s", (identifier, parts) => {
    expect(splitIdentifier(identifier)).toEqual(parts);
  });
});

describe("tokenize", () => {
  it("keeps the parts and the whole identifier, lowercased", () => {
    expect(tokenize("e1000_xmit_frame")).toEqual(["e1000", "xmit", "frame", "e1000_xmit_frame"]);
    expect(tokenize("dmaAllocCoherent")).toEqual(["dma", "alloc", "coher", "dmaalloccoherent"]);
  });

  it("gives inflections of one word one stem", () => {
    const stems = tokenize("allocates allocation allocating allocated allocator");
    expect(new Set(stems)).toEqual(new Set(["alloc"]));
  });

  it("reads an irregular verb's past forms as its base, as code names the act", () => {
    // "how is the parent woken up" asks about `__wake_up_parent`; "where is the error thrown", `throwError`.
    expect(tokenize("woken woke wake waking")).toEqual(["wake", "wake", "wake", "wake"]);
    expect(tokenize("the error is thrown")).toEqual(["error", "throw"]);
    expect(tokenize("throwError").slice(0, 2)).toEqual(["throw", "error"]);
    expect(tokenize("written rewritten sent built")).toEqual([...tokenize("write"), ...tokenize("rewrite"), ...tokenize("send"), ...tokenize("build")]);
    expect(new Set(tokenize("__wake_up_parent"))).toContain(tokenize("woken")[0]);
    // "how is the memory freed" asks about `free_pages`: the stemmer alone keeps "freed" whole.
    expect(tokenize("freed frees freeing")).toEqual(["free", "free", "free"]);
    // Forms whose common meaning in code is not the verb keep their own stems.
    expect(tokenize("left bound led done")).toEqual(["left", "bound", "led", "done"]);
  });

  it("drops English and code stopwords", () => {
    expect(tokenize("Return the size of this buffer, or None if it is empty")).toEqual(["size", "buffer", "empti"]);
    expect(tokenize("self.value")).toEqual(["valu"]);
    // Prepositions a question uses ("validated against it") name nothing in code; code's own words stay.
    expect(tokenize("validated against the schema during the request because itself")).toEqual(["valid", "schema", "request"]);
    expect(tokenize("shut down now to")).toEqual(["shut", "down", "now", "to"]);
  });

  it("drops numeric literals and one-letter parts but keeps digits inside names", () => {
    expect(tokenize("x = 0xff + 1e5 + 42; int32_t i")).toEqual(["int32", "int32_t"]);
    expect(tokenize("x86_64")).toEqual(["x86", "x86_64"]);
  });

  it("keeps a number of three digits or more as a term: a model number names a thing", () => {
    // "the 8250 driver" asks about drivers/tty/serial/8250/8250_core.c and its `serial8250_*` functions.
    expect(tokenize("8250")).toEqual(["8250"]);
    expect(tokenize("drivers/tty/serial/8250/8250_core.c")).toEqual(["driver", "tty", "serial", "8250", "8250", "core", "8250_core"]);
    expect(tokenize("serial8250_interrupt")).toEqual(["serial8250", "serial", "8250", "interrupt", "serial8250_interrupt"]);
    expect(tokenize("16550A rtl8139")).toEqual(["16550", "16550a", "rtl8139", "rtl", "8139"]);
    // Short numbers, numbers led by 0 (octal modes, hex) and names with a short word before the digits stay as they were.
    expect(tokenize("42 0644 0x1000 e1000 utf8 x86_64")).toEqual(["e1000", "utf8", "x86", "x86_64"]);
  });

  it("keeps a word whose letters follow its digits whole: I2C is `i2c`, not only `i2`", () => {
    // Found on Linux's I2C stack: "I2C" in a question gave the term i2c, which no function's name had (`i2c_transfer` gave i2, transfer).
    expect(tokenize("I2C")).toEqual(["i2", "i2c"]);
    expect(tokenize("i2c_transfer")).toEqual(["i2", "transfer", "i2c", "i2c_transfer"]);
    expect(tokenize("/dev/i2c-N")).toEqual(["dev", "i2", "i2c", "i2c-n"]);
    expect(tokenize("l2cap_sock_sendmsg K8s e1000e")).toEqual(["l2", "cap", "sock", "sendmsg", "l2cap", "l2cap_sock_sendmsg", "k8", "k8s", "e1000", "e1000e"]);
    // Not a word with letters before its digits only (`utf8`, `http2`), nor camel case around digits (`getValue2x`: its parts).
    expect(tokenize("utf8 http2 getValue2x")).toEqual(["utf8", "http2", "get", "value2", "getvalue2x"]);
  });

  it("does not add a whole-identifier token for a plain word", () => {
    expect(tokenize("Buffer buffer BUFFER")).toEqual(["buffer", "buffer", "buffer"]);
  });

  it("is the same on every call (the run cache changes nothing)", () => {
    const text = "struct sk_buff *skb = netdev_alloc_skb(dev, len); // allocate a receive buffer";
    expect(tokenize(text)).toEqual(tokenize(text));
    expect(tokenize(text)).toEqual([
      "struct", "sk", "buff", "sk_buff", "skb", "netdev", "alloc", "skb", "netdev_alloc_skb", "dev", "len",
      "alloc", "receiv", "buffer",
    ]);
  });

  it("returns nothing for text without words", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize("{ } ( ) ; 1 2 3 == !=")).toEqual([]);
  });
});

describe("porterStem", () => {
  // Pairs from Porter's published vocabulary/output lists.
  it.each([
    ["caresses", "caress"], ["ponies", "poni"], ["agreed", "agre"], ["plastered", "plaster"], ["motoring", "motor"],
    ["hopping", "hop"], ["falling", "fall"], ["filing", "file"], ["happy", "happi"], ["relational", "relat"],
    ["conditional", "condit"], ["digitizer", "digit"], ["operator", "oper"], ["generalizations", "gener"],
    ["oscillators", "oscil"], ["electrical", "electr"], ["adjustment", "adjust"], ["adoption", "adopt"],
    ["controll", "control"], ["sky", "sky"],
  ])("stems %s to %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it("leaves short words and non-letters alone", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("e1000")).toBe("e1000");
  });
});
