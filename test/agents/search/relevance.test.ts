// The one scoring model of the search: how a question is parsed, and how a place in the code scores.
import { describe, expect, it } from "vitest";
import { tokenize } from "../../../agents/pgc/retrieval/index.js";
import { EXAMPLE_PRIOR, fragmentTerms, NAME_TERM_PRIOR, parseQuestion, positionPrior } from "../../../agents/search/question.js";
import { destinationTerms, settingTerms } from "../../../agents/search/question-roles.js";
import { anchored } from "../../../agents/manager/answer/start-choice.js";
import { cover, coverageShare, explainMatches, FIELD_STRENGTH, gain, matchTerms, PARTIAL_MATCH, placePrior, relevance, stepScore, TEST_CODE_PRIOR, unexplainedWords, wordMatch } from "../../../agents/search/relevance.js";
import { asStartQuestion, DESTINATION_START_PRIOR, withRarity } from "../../../agents/manager/entry/entry-round.js";
import { namedByQuestion } from "../../../agents/manager/search/named-start.js";

const words = (...list: string[]) => new Set(list);

describe("parseQuestion", () => {
  it("keeps the terms that say what the question is about, in order, and drops the ones that say what kind of answer it wants", () => {
    const q = parseQuestion("What path does a packet take from the e1000 driver to the network stack?");
    expect(q.terms.map((t) => t.term)).toEqual(["packet", "e1000", "driver", "network", "stack"]);
    expect(q.intent).toBe("how");
  });

  it("weighs the subject first and a written code name double; the words of a longer name as plain words", () => {
    const q = parseQuestion("How does tcp_sendmsg queue data?");
    const weight = (term: string) => q.terms.find((t) => t.term === term)?.weight;
    // The name's words come first, then the whole name, which weighs double where it stands.
    expect(q.terms.map((t) => t.term).slice(0, 3)).toEqual(["tcp", "sendmsg", "tcp_sendmsg"]);
    expect(q.terms.find((t) => t.term === "tcp_sendmsg")).toMatchObject({ name: true, weight: positionPrior(2) * 2 });
    // `tcp` and `sendmsg` are the name's words: the whole name carries its weight, not each word again.
    expect(weight("tcp")).toBe(positionPrior(0));
    expect(weight("sendmsg")).toBe(positionPrior(1));
    expect(q.terms.filter((t) => t.term !== "tcp_sendmsg").every((t) => (t.weight ?? 0) < (weight("tcp_sendmsg") ?? 0))).toBe(true);
    // Only the words match in part: the whole name matches a function named so, or a body using it.
    const flag = parseQuestion("How is E1000_COPYBREAK used?");
    const matches = matchTerms(flag, { name: new Set(["e1000", "clean", "rx", "irq", "e1000_clean_rx_irq"]), body: new Set(["e1000_copybreak"]) });
    expect(matches.map((m) => [m.term, m.field, m.matched])).toEqual(expect.arrayContaining([["e1000", "name", "e1000"], ["e1000_copybreak", "body", "e1000_copybreak"]]));
    // A one-word name (`write()`) is its own word: double.
    const called = parseQuestion("How does write() reach the page cache?");
    expect(called.terms.find((t) => t.term === "write")).toMatchObject({ name: true, weight: positionPrior(0) * 2 });
  });

  it("matches a called name whole by a function stored into a struct field of that name, below its own name", () => {
    const q = parseQuestion("When a program calls read() on the device, how are the bytes copied out?");
    const read = (fields: Parameters<typeof matchTerms>[1]) => matchTerms(q, fields).find((m) => m.term === "read");
    // `.read = spidev_read`: the name a call through the field gives it; the word of its own name counts as a part of the call's name.
    expect(read({ bound: words("read"), name: words("spidev", "read") })).toMatchObject({ field: "bound", strength: FIELD_STRENGTH.bound });
    expect(read({ name: words("spidev", "read") })).toMatchObject({ field: "name", strength: FIELD_STRENGTH.name * PARTIAL_MATCH });
    expect(read({ symbol: words("read"), bound: words("read") })).toMatchObject({ field: "symbol", strength: FIELD_STRENGTH.symbol });
    expect(FIELD_STRENGTH.bound).toBeLessThan(FIELD_STRENGTH.symbol);
    // A prose word matching both a word of the name and the field says the name: as before there were fields.
    expect(matchTerms(parseQuestion("How does the driver read the device?"), { bound: words("read"), name: words("spidev", "read") }).find((m) => m.term === "read")).toMatchObject({ field: "name" });
    // Only whole: a field `read_iter` is not `read`.
    expect(read({ bound: words("read_iter") })).toBeUndefined();
  });

  it("reads what someone outside the code does to it as a call: \"a program reads /dev/mtd0\" calls read", () => {
    const q = parseQuestion("A program reads /dev/mtd0. How does the read reach the flash driver?");
    const read = (fields: Parameters<typeof matchTerms>[1]) => matchTerms(q, fields).find((m) => m.term === "read");
    // mtdchar_read, stored into `.read`, is what the system call runs; spi_nor_read_data only has the word.
    expect(read({ bound: words("read"), name: words("mtdchar", "read") })).toMatchObject({ field: "bound", strength: FIELD_STRENGTH.bound });
    expect(read({ name: words("spi", "nor", "read", "data") })).toMatchObject({ field: "name", strength: FIELD_STRENGTH.name * PARTIAL_MATCH });
    // Only an outside actor's verb: the code's own reading is a word like any other.
    const own = parseQuestion("How does the flash driver read a page?");
    expect(matchTerms(own, { name: words("spi", "nor", "read", "data") }).find((m) => m.term === "read")).toMatchObject({ strength: FIELD_STRENGTH.name });
  });

  it("reads the words of someone outside the code who sets the path going as noise, not as the subject", () => {
    const terms = (question: string) => parseQuestion(question).terms.map((t) => t.term);
    // "a program" is no code: the subject is what it does, write() (a code name, double).
    const program = parseQuestion("When a program write()s text to a serial port, how do the bytes reach the UART?");
    expect(program.terms.map((t) => t.term)).not.toContain("program");
    expect(program.terms[0]).toMatchObject({ term: "write", weight: positionPrior(0) * NAME_TERM_PRIOR });
    expect(terms("When a user-space tool queries an algorithm over netlink, how is the reply filled?")).toEqual(expect.not.arrayContaining(["user", "space", "tool"]));
    expect(terms("When user space reads an EEPROM through sysfs, how does the driver fetch the bytes?")[0]).toBe("read");
    expect(terms("When the user moves the caret with the arrow keys, how does the view notice?")[0]).toBe("move");
    expect(terms("A program reads /dev/mtd0, an SPI NOR flash. How does the read reach the flash?")[0]).toBe("read");
    expect(terms("How is the flash read? An application opens /dev/mtd0 first.")).not.toContain("applic");
    // Only such actors: a client, a driver or a process of the code base is what the question asks about.
    expect(terms("When the client parses a response's headers, how are they stored?")[0]).toBe("client");
    expect(terms("When a driver adds a new disk, how is its partition table read?")[0]).toBe("driver");
    // The same words elsewhere in the question are its own.
    expect(terms("How does the kernel load a program's ELF headers?")).toContain("program");
  });

  it("takes a code-shaped word after \"such as\", \"like\", \"e.g.\" or \"for example\" for an example, not a name the path runs through", () => {
    const q = parseQuestion("When a program reads random bytes from an HMAC DRBG such as drbg_nopr_hmac_sha256, how does the read reach the DRBG's generate function?");
    const weight = (term: string) => q.terms.find((t) => t.term === term)?.weight ?? 0;
    expect(q.names).not.toContain("drbg_nopr_hmac_sha256");
    for (const term of ["drbg_nopr_hmac_sha256", "sha256", "nopr"]) expect(weight(term), term).toBeLessThan(0.5);
    // A word the question writes outside the example too keeps its own weight.
    expect(weight("drbg")).toBeGreaterThan(1);
    expect(parseQuestion("How are long options like --name=value recognised?").terms.find((t) => t.term === "name")?.weight).toBeLessThan(0.5);
    expect(parseQuestion("When a skcipher such as cbc(aes) is self-tested, how?").names).not.toContain("cbc");
    // A plain word after "such as" is a word of the question.
    expect(parseQuestion("How does Sphinx read sources such as Markdown files?").terms.find((t) => t.term === "markdown")?.weight).toBeGreaterThan(1);
  });

  it("weighs a written code name's whole name where the question writes it, not after every other word", () => {
    const q = parseQuestion("How does requests.get end up sending the request through urllib3's connection pool?");
    const weight = (term: string) => q.terms.find((t) => t.term === term)?.weight;
    // The qualified name weighs as the subject the name opens the question with.
    expect(weight("requests.get")).toBe(2 * (weight("request") ?? 0));
    expect(weight("requests.get")).toBeGreaterThan(weight("urllib3") ?? 0);
  });

  it("keeps a qualified code name as one term that a function of that name matches in full only where its owner is", () => {
    const q = parseQuestion("When I call collection.update(id, changes), how does it work out what changed?");
    expect(q.terms.map((t) => t.term)).toContain("collection.update");
    // The bare last part is the qualified name's, not a term of its own.
    expect(q.terms.filter((t) => t.term === "update")).toEqual([]);
    const place = (symbol: string, container: string, dir: string) => ({ symbol: new Set([symbol]), name: new Set([symbol]), container: new Set(tokenize(container)), dir: new Set(tokenize(dir)) });
    const strength = (fields: ReturnType<typeof place>) => matchTerms(q, fields).find((m) => m.term === "collection.update")?.strength ?? 0;
    expect(strength(place("update", "CollectionImpl", "src collection"))).toBe(FIELD_STRENGTH.symbol);
    expect(strength(place("update", "BasicIndex", "src indexes"))).toBeCloseTo(FIELD_STRENGTH.symbol * PARTIAL_MATCH);
    expect(strength(place("updateMany", "CollectionImpl", "src collection"))).toBe(0);
    // A package as the owner: `requests.get` is requests/api.py's `get`.
    const get = parseQuestion("How does requests.get send a request?");
    expect(matchTerms(get, { symbol: new Set(["get"]), dir: new Set(["request"]) }).find((m) => m.term === "requests.get")?.strength).toBe(FIELD_STRENGTH.symbol);
    // Not a method in a file of that package, whose class and file are another's (`Session.get`).
    expect(matchTerms(get, { symbol: new Set(["get"]), container: new Set(["session"]), file: new Set(["session"]), dir: new Set(["request"]) }).find((m) => m.term === "requests.get")?.strength).toBeCloseTo(FIELD_STRENGTH.symbol * PARTIAL_MATCH);
  });

  it("takes a one-word function the question writes as a call for that function: as a word of a longer name it counts as a part", () => {
    const q = parseQuestion("How does fsync() on an ext4 file wait for the journal commit?");
    const fsync = (fields: Record<string, Set<string>>) => matchTerms(q, fields).find((m) => m.term === "fsync")?.strength ?? 0;
    expect(fsync({ symbol: new Set(["fsync"]), name: new Set(["fsync"]) })).toBe(FIELD_STRENGTH.symbol);
    expect(fsync({ symbol: new Set(["ext4_fsync_journal"]), name: new Set(["ext4", "fsync", "journal"]) })).toBeCloseTo(FIELD_STRENGTH.name * PARTIAL_MATCH);
    // Written as a word, not a call, it is a word like any other.
    const prose = parseQuestion("How does an fsync on an ext4 file wait for the journal commit?");
    expect(matchTerms(prose, { name: new Set(["ext4", "fsync", "journal"]) }).find((m) => m.term === "fsync")?.strength).toBe(FIELD_STRENGTH.name);
  });

  it("gives each term the spellings code uses for it, from the tokenizer's table", () => {
    const q = parseQuestion("How is a received packet handled?");
    expect(q.terms.find((t) => t.term === "receiv")?.forms).toEqual(expect.arrayContaining(["rcv", "rx"]));
    expect(q.terms.find((t) => t.term === "packet")?.forms).toContain("skb");
    // Habits of code in any language: "asynchronous" is `aio` in the kernel's loop driver (`lo_rw_aio_complete`)
    // and `async` in Python's; a "template" is `tmpl` or `tpl`, a "callback" `cb`.
    const io = parseQuestion("When an asynchronous write completes, how is the template's callback run?");
    const asynchronous = io.terms.find((t) => t.term.startsWith("asynchron"));
    expect(asynchronous?.forms).toEqual(expect.arrayContaining(["aio", "async"]));
    expect(matchTerms(io, { name: new Set(["lo", "rw", "aio", "complet"]) }).map((m) => m.matched)).toEqual(expect.arrayContaining(["aio", "complet"]));
    expect(io.terms.find((t) => t.term.startsWith("templat"))?.forms).toEqual(expect.arrayContaining(["tmpl", "tpl"]));
    expect(io.terms.find((t) => t.term === "callback")?.forms).toContain("cb");
    // A "keyboard" is `kbd` (atkbd, usbkbd), a "controller" `ctrl`, a "maximum" `max`.
    const key = parseQuestion("How does the AT keyboard driver reach the controller's maximum?");
    expect(matchTerms(key, { name: new Set(["atkbd", "interrupt"]) }).map((m) => m.matched)).toEqual(["atkbd"]);
    expect(key.terms.find((t) => t.term === "control")?.forms).toContain("ctrl");
    expect(key.terms.find((t) => t.term === "maximum")?.forms).toContain("max");
  });

  it("reads a number after a name as a version, spelled as code spells it (Zod 4 → v4), and no other number", () => {
    const terms = parseQuestion("How does a Zod 4 schema parse, in Python 3, with 5 args?").terms.map((t) => t.term);
    expect(terms).toEqual(expect.arrayContaining(["zod", "v4", "python", "v3"]));
    expect(terms).not.toContain("v5");
  });

  it("keeps the parts of a hyphenated word as words of their own (JIT-compile: jit, compile)", () => {
    const terms = parseQuestion("How does Zod JIT-compile a parser?").terms;
    expect(terms.filter((t) => t.term === "jit" || t.term === "compil").map((t) => t.fragment ?? false)).toEqual([false, false]);
  });

  it("keeps the words and model numbers a slash joins as words of their own (8250/16550: both)", () => {
    const terms = parseQuestion("When an 8250/16550 UART raises an interrupt, how is a read/write split?").terms;
    expect(terms.filter((t) => ["8250", "16550", "read", "write"].includes(t.term)).map((t) => [t.term, t.fragment ?? false])).toEqual([
      ["8250", false],
      ["16550", false],
      ["read", false],
      ["write", false],
    ]);
  });

  it("weighs the words of an example path low and gives them no place: they say what the data looks like", () => {
    const q = parseQuestion("When the URL changes to something like /posts/123/comments, how does the router match the pathname?");
    const weight = (term: string) => q.terms.find((t) => t.term === term)?.weight;
    expect(weight("comment")).toBeCloseTo(positionPrior(2) * EXAMPLE_PRIOR);
    expect(weight("123")).toBeCloseTo(positionPrior(2) * EXAMPLE_PRIOR);
    // The words after the example keep the places they would have without it, and so do the names.
    expect(weight("router")).toBeCloseTo(positionPrior(2));
    const named = parseQuestion("When /posts/123 is opened, how does router.navigate match it?");
    expect(named.terms.find((t) => t.term === "router.navigate")?.weight).toBeCloseTo(positionPrior(1) * NAME_TERM_PRIOR);
    // A word the question also writes outside the example is its own (`login` of /login and "the login page").
    const login = parseQuestion("When a loader redirects to /login, how is the login page's location built?");
    expect(login.terms.find((t) => t.term === "login")?.weight).toBeGreaterThanOrEqual(1);
    // A device file is an example too: the prose says which driver.
    const usb = parseQuestion("When a program writes to /dev/ttyUSB0 on an FTDI adapter, how are the bytes sent?");
    expect(usb.terms.find((t) => t.term === "ttyusb0")?.weight).toBeLessThan(0.5);
    expect(usb.terms.find((t) => t.term === "ftdi")?.weight).toBeGreaterThanOrEqual(1);
  });

  it("takes a string literal holding more than letters for an example, and no code name ('page.html' is data)", () => {
    const q = parseQuestion('The first time a handler calls self.render("page.html", ...), how does Tornado read the template?');
    expect(q.names).toEqual(["self.render", "render"]);
    expect(q.terms.find((t) => t.term === "html")?.weight).toBeLessThan(0.5);
    const hello = parseQuestion("If I call router.navigate({ params: { postId: 'hello world' } }), how is the path built?");
    expect(hello.terms.find((t) => t.term === "world")?.weight).toBeLessThan(0.5);
    // A one-word literal may be a value the code compares against; an apostrophe opens no literal.
    expect(parseQuestion("In the 'eager' sync mode, how does a collection load?").terms[0]).toMatchObject({ term: "eager", weight: 2 });
    const owned = parseQuestion("How does the router's core match the serial core's 'path'?").terms.map((t) => t.term);
    expect(owned).toEqual(expect.arrayContaining(["router", "core", "serial"]));
  });

  it("gives a hyphenated prose word the forms code closes it into (keep-alive: keepalive, keepal; URL-encoded: urlencoded)", () => {
    const terms = parseQuestion("How does the client reuse a keep-alive connection for a URL-encoded body?").terms;
    expect(terms.find((t) => t.term === "keep-alive")?.forms).toEqual(expect.arrayContaining(["keepalive", "keepal"]));
    expect(terms.find((t) => t.term === "url-encoded")?.forms).toEqual(expect.arrayContaining(["urlencoded"]));
  });

  it("drops conversational fillers (something, like, actually): they are not what the question is about", () => {
    const terms = parseQuestion("Where is something like the session cookie actually signed?").terms.map((t) => t.term);
    expect(terms).toEqual(["session", "cooki", "sign"]);
  });

  it("drops quantifiers (one, several, every): how many says nothing of what, and `one` would match every `*_one` as `on`", () => {
    const terms = parseQuestion("How are several requests multiplexed over one connection, each one a stream?").terms.map((t) => t.term);
    expect(terms).toEqual(["request", "multiplex", "connect", "stream"]);
  });

  it("knows a who-calls question", () => {
    expect(parseQuestion("Who calls kmalloc?").intent).toBe("callers");
    expect(parseQuestion("Where is dma_map_single called from?").intent).toBe("callers");
    expect(parseQuestion("How does kmalloc work?").intent).toBe("how");
  });

  it("knows a who-calls question whose callers are a noun phrase, and not a question about what a function calls", () => {
    // Tried on Linux's TTY layer: "Which serial drivers call …" had been answered as a forward path.
    const drivers = parseQuestion("Which serial drivers call uart_handle_dcd_change when the carrier-detect line changes?");
    expect([drivers.intent, drivers.names[0]]).toEqual(["callers", "uart_handle_dcd_change"]);
    expect(parseQuestion("Which functions call kmalloc?").intent).toBe("callers");
    // A longer noun phrase names the callers too.
    expect(parseQuestion("Which drivers and which parts of the USB core call usb_clear_halt to clear a stalled endpoint?").intent).toBe("callers");
    expect(parseQuestion("What path from the syscall to the driver uses the page cache?").intent).toBe("how");
    expect(parseQuestion("What code uses netif_rx?").intent).toBe("callers");
    expect(parseQuestion("What does do_exit call?").intent).toBe("how");
    expect(parseQuestion("What do the drivers call to free a buffer?").intent).toBe("how");
    expect(parseQuestion("What happens when I call queryOnce, and how does it wait?").intent).toBe("how");
    // A relative clause with a subject of its own: the device uses the BARs (tried on Linux's PCI core: the
    // question had been answered with the callers of pci_enable_device).
    expect(parseQuestion("When a driver calls pci_enable_device in its probe, how does the PCI core work out which BARs the device uses?").intent).toBe("how");
    expect(parseQuestion("Which of the key-exchange implementations call into the transport?").intent).toBe("callers");
    // "Which call" is a noun phrase: the question asks for a path whose last call does something.
    const which = parseQuestion("How is the host name resolved, and which call finally performs the DNS lookup?");
    expect([which.intent, which.names]).toEqual(["how", []]);
    expect(parseQuestion("What calls tcp_sendmsg?").intent).toBe("callers");
    // Taking a lock is calling the function that takes it (tried on Linux's driver core: the question had
    // been traced forward from the lock function).
    const lock = parseQuestion("Which functions take device_pm_lock, the mutex that protects the PM core's list of devices?");
    expect([lock.intent, lock.names[0]]).toEqual(["callers", "device_pm_lock"]);
    expect(parseQuestion("What acquires rtnl_lock?").intent).toBe("callers");
    expect(parseQuestion("Which path does a packet take through the bridge?").intent).toBe("how");
    expect(parseQuestion("Which route the packet takes depends on what?").intent).toBe("how");
    // "… by calling X", the means, however long the callers' description (tried on TanStack Query's core:
    // it had been traced forward from scheduleGc); not when the "what" is no subject, nor in a "how".
    const means = parseQuestion("Which code starts or restarts the garbage-collection countdown of a query or mutation by calling scheduleGc?");
    expect([means.intent, means.names[0]]).toEqual(["callers", "scheduleGc"]);
    expect(parseQuestion("What functions in the block layer end a request by invoking blk_mq_end_request?").intent).toBe("callers");
    expect(parseQuestion("What does the worker do by calling ack?").intent).toBe("how");
    expect(parseQuestion("How does the observer start a fetch by calling executeFetch?").intent).toBe("how");
  });

  it("takes the word after `calls` as the name called, unless it begins a description", () => {
    expect(parseQuestion("Who calls clone?").names).toEqual(["clone"]);
    const described = parseQuestion("Who calls the function that serialises a cookie into a Set-Cookie header string?");
    expect(described.intent).toBe("callers");
    expect(described.names).toEqual([]);
    expect(described.terms.map((t) => t.term)).not.toContain("the");
  });

  it("knows the terms that are only fragments of a word the question writes, and does not start a chain on them alone", () => {
    const text = "How are 3D scenes rendered with OpenGL shaders?";
    const fragments = fragmentTerms(text);
    expect(fragments.has("open")).toBe(true);
    expect(fragments.has("shader")).toBe(false);
    const q = parseQuestion(text);
    expect(q.terms.map((t) => t.term)).not.toContain("pv4");
    const onFragment = { matches: matchTerms(q, { name: words("e1000", "open") }) };
    expect(anchored(onFragment, fragments)).toBe(false);
    expect(anchored({ matches: matchTerms(q, { name: words("shader", "compile") }) }, fragments)).toBe(true);
    expect(parseQuestion("How does IPv4 route a packet?").terms.map((t) => t.term)).not.toContain("pv4");
  });

  it("counts test code less as a start, unless the question is about tests", () => {
    const q = parseQuestion("How does extend build a new object schema?");
    expect(placePrior("src/v4/classic/tests/object.test.ts", q)).toBe(TEST_CODE_PRIOR);
    expect(placePrior("tests/test_parser.py", q)).toBe(TEST_CODE_PRIOR);
    expect(placePrior("src/v4/core/util.ts", q)).toBe(1);
    expect(placePrior("src/v4/classic/tests/object.test.ts", parseQuestion("How does the object test check extend?"))).toBe(1);
  });

  it("matches two words written apart with the name part code closes them into, whole", () => {
    // Tried as a new user would on Pygments: "… for a file name" started at `guess_lexer`, not `guess_lexer_for_filename`.
    const q = parseQuestion("How does pygments guess which lexer to use for a file name?");
    const name = q.terms.find((t) => t.term === "name");
    expect(name && wordMatch(name, tokenize("filename")[0] as string)).toBe(1);
    const queue = parseQuestion("How is the woken task put on the run queue?").terms.find((t) => t.term === "queue");
    expect(queue && wordMatch(queue, tokenize("runqueue")[0] as string)).toBe(1);
    expect(relevance(q, matchTerms(q, { name: words("guess", "lexer", "for", "filename") }))).toBeGreaterThan(relevance(q, matchTerms(q, { name: words("guess", "lexer") })));
    // Punctuation between the words, or a stop word, closes nothing.
    expect(parseQuestion("Which name, queue or lock, does it take?").terms.find((t) => t.term === "name")?.forms).toEqual([]);
    expect(parseQuestion("How does it time out?").terms.find((t) => t.term === "time")?.forms).toEqual([]);
  });

  it("matches a snake-case name the question writes with the name part code closes it into, whole", () => {
    // The null_blk question's "the bio's end_io" is `req_bio_endio`'s and `bio_endio`'s `endio`; `sk_buff` is skbuff.c's.
    const q = parseQuestion("How does the completion travel back to the bio's end_io?");
    expect(q.terms.find((t) => t.term === "end_io")?.forms).toEqual(["endio"]);
    expect(parseQuestion("How is an sk_buff freed?").terms.find((t) => t.term === "sk_buff")?.forms).toEqual(["skbuff"]);
    const endio = matchTerms(q, { name: words("req", "bio", "endio") }).find((m) => m.term === "end_io");
    expect(endio).toEqual({ term: "end_io", field: "name", matched: "endio", strength: endio?.strength });
    expect(endio?.strength).toBeGreaterThan(0.8);
    // Only its words run together: `end` or `endian` alone is no `end_io`, nor is a camel-case name closed.
    expect(matchTerms(q, { name: words("end", "request") }).some((m) => m.term === "end_io")).toBe(false);
    expect(matchTerms(q, { name: words("endian") }).some((m) => m.term === "end_io")).toBe(false);
    expect(parseQuestion("How does sortComparer order them?").terms.find((t) => t.term === "sortcomparer")?.forms).toEqual([]);
  });

  it("takes the thing a who-calls question names as a code name, whatever its shape", () => {
    const q = parseQuestion("Who calls clone, the helper that copies a schema?");
    expect(q.names[0]).toBe("clone");
    expect(q.terms.find((t) => t.term === "clone")?.name).toBe(true);
  });
});

describe("the relevance model", () => {
  const q = parseQuestion("How does the e1000 driver allocate DMA buffers?");

  it("matches a question's past forms with the names of the act (`woken` with `__wake_up_parent`), in full", () => {
    const woken = parseQuestion("When a process calls exit(), how is its parent, blocked in wait(), woken up?");
    const matches = matchTerms(woken, { name: new Set(tokenize("__wake_up_parent")) });
    expect(matches.map((m) => [m.term, m.strength])).toEqual(expect.arrayContaining([["parent", FIELD_STRENGTH.name], ["wake", FIELD_STRENGTH.name]]));
  });

  it("matches a term by its strongest field, and a spelling or a prefix for less", () => {
    const matches = matchTerms(q, { name: words("e1000", "alloc", "rx", "buffer"), dir: words("driver", "net"), doc: words("dma") });
    const byTerm = Object.fromEntries(matches.map((m) => [m.term, m]));
    expect(byTerm["e1000"]?.strength).toBe(FIELD_STRENGTH.name);
    expect(byTerm["driver"]?.field).toBe("dir");
    expect(byTerm["dma"]?.strength).toBe(FIELD_STRENGTH.doc);
    const prefix = matchTerms(parseQuestion("the parser"), { name: words("pars") });
    expect(prefix[0]?.strength).toBeCloseTo(FIELD_STRENGTH.name * PARTIAL_MATCH);
    expect(explainMatches(matches)).toContain("driver (dir)");
  });

  it("does not match a term inside a word that negates it: unsubscribe is not subscribe, disconnect not connect, indirect not direct", () => {
    const subscribe = parseQuestion("How does subscribe work?").terms.find((t) => t.term.startsWith("subscrib"))!;
    expect(wordMatch(subscribe, "objectunsubscribederror")).toBe(0);
    expect(wordMatch(subscribe, "resubscrib")).toBe(PARTIAL_MATCH);
    const connect = parseQuestion("How does it connect?").terms.find((t) => t.term === "connect")!;
    expect(wordMatch(connect, "disconnect")).toBe(0);
    expect(wordMatch(connect, "reconnect")).toBe(PARTIAL_MATCH);
    // "O_DIRECT" is not the indirect-block code.
    const direct = parseQuestion("How does a direct read work?").terms.find((t) => t.term === "direct")!;
    expect(wordMatch(direct, "indirect")).toBe(0);
    expect(wordMatch(direct, "redirect")).toBe(PARTIAL_MATCH);
  });

  it("ranks a function named exactly as the question's name above one that has it as a word of its name", () => {
    const who = parseQuestion("Who calls clone?");
    const exact = relevance(who, matchTerms(who, { symbol: words("clone"), name: words("clone") }));
    const part = relevance(who, matchTerms(who, { symbol: words("objectclone"), name: words("object", "clone", "objectclone") }));
    expect(exact).toBeGreaterThan(part);
    // The whole name matches only itself: `subscribe` is not the symbol `createoperatorsubscriber`.
    const sub = parseQuestion("What does subscribe() do?");
    expect(matchTerms(sub, { symbol: words("createoperatorsubscriber") })).toEqual([]);
  });

  it("matches a name the question writes whole only where the code spells it alike: CLIENT is not Client", () => {
    // Tried on httpx: h11's `CLIENT` had been taken for `httpx.Client`, the name the question writes.
    const q = parseQuestion("When a synchronous httpx.Client sends a request with a body, how is it framed?");
    const fields = (cased: string) => ({ symbol: words("client"), name: words("client"), cased: words(cased) });
    const client = matchTerms(q, fields("Client"));
    const constant = matchTerms(q, fields("CLIENT"));
    expect(client.map((m) => [m.term, m.field])).toEqual([["client", "symbol"], ["httpx.client", "symbol"]]);
    expect(constant.map((m) => [m.term, m.field])).toEqual([["client", "name"]]);
    expect(relevance(q, client)).toBeGreaterThan(relevance(q, constant));
    // A name written in prose's lower case spells the function alike.
    const open = parseQuestion("What does `open` do with its flags?");
    expect(matchTerms(open, { symbol: words("open"), cased: words("open") }).map((m) => m.field)).toEqual(["symbol"]);
  });

  it("lets one whole word of the code answer one term of the question, the heavier term first", () => {
    const sent = parseQuestion("How is a frame sent by the transmit path?");
    const matches = matchTerms(sent, { name: words("e1000", "tx", "irq") });
    expect(matches.filter((m) => m.matched === "tx")).toHaveLength(1);
    // A compound matched in part may serve two terms: `sendmsg` holds "message" and "sent" (read as `send`).
    const msg = parseQuestion("How is a message sent on a socket?");
    const both = matchTerms(msg, { name: words("sock", "sendmsg") });
    expect(both.map((m) => m.term).sort()).toEqual(["messag", "send", "socket"].sort());
    // But not a word the question writes and a fragment of that same word: `post` answers "PostgreSQL" once.
    const postgres = parseQuestion("How does Flask pool connections to a PostgreSQL database?");
    expect(postgres.terms.filter((t) => t.term.startsWith("postgr")).map((t) => [t.term, t.fragment === true])).toEqual([["postgr", true], ["postgresql", false]]);
    expect(matchTerms(postgres, { name: words("post") }).map((m) => m.term)).toHaveLength(1);
  });

  it("scores a function that names the question above one that only sits near it, and nothing for no match", () => {
    const named = relevance(q, matchTerms(q, { name: words("e1000", "alloc", "rx", "buffer"), dir: words("driver") }));
    const near = relevance(q, matchTerms(q, { dir: words("driver", "e1000") }));
    expect(named).toBeGreaterThan(near);
    expect(near).toBeGreaterThan(0);
    expect(relevance(q, matchTerms(q, { name: words("spin", "lock") }))).toBe(0);
  });

  it("counts only what a step adds to the coverage, plus half its relevance", () => {
    const first = matchTerms(q, { name: words("e1000", "alloc") });
    const covered = cover(new Map(), first);
    expect(gain(q, first, covered)).toBe(0);
    expect(stepScore(q, first, covered)).toBeCloseTo(0.5 * relevance(q, first));
    const dma = matchTerms(q, { name: words("dma", "map") });
    expect(gain(q, dma, covered)).toBeGreaterThan(0);
    expect(coverageShare(q, cover(covered, dma))).toBeGreaterThan(coverageShare(q, covered));
  });

  it("scales weights by how rare each term is across the fleet, never to zero", () => {
    const scaled = withRarity(q, [{ nodes: 1000, df: { e1000: 5, driver: 900, alloc: 50, dma: 40, buffer: 100 } }]);
    const weight = (term: string) => scaled.terms.find((t) => t.term === term)?.weight ?? 0;
    const prior = (term: string) => q.terms.find((t) => t.term === term)?.weight ?? 0;
    expect(weight("e1000") / prior("e1000")).toBeGreaterThan(weight("driver") / prior("driver"));
    expect(weight("driver")).toBeGreaterThan(0);
  });

  it("gives a hyphenated compound of the prose no weight when no function matches it: its words say it", () => {
    // Found on paramiko: "key-exchange" matched nothing (code writes `kex`), so every chain covered less of the question.
    const kex = parseQuestion("How does the key-exchange reply derive the keys for outgoing packets, as a user-space tool sees it?");
    const scaled = withRarity(kex, [{ nodes: 500, df: { kei: 40, exchang: 12, repli: 9, deriv: 3, outgo: 2, packet: 30, user: 20, space: 5, "user-space": 1, tool: 4, see: 0 } }]);
    const weight = (term: string) => scaled.terms.find((t) => t.term === term)?.weight ?? -1;
    expect(weight("key-exchange")).toBe(0);
    expect(weight("kei")).toBeGreaterThan(0);
    // One some function matches keeps its weight, and so does a plain word no function has (the code may not do it).
    expect(weight("user-space")).toBeGreaterThan(0);
    expect(weight("see")).toBe(kex.terms.find((t) => t.term === "see")?.weight);
  });

  it("counts the words of a name the question does not ask about, for a tie between equal scores", () => {
    const q = parseQuestion("How does the e1000 driver pass received packets up to GRO?");
    const jumbo = words("e1000", "clean", "jumbo", "rx", "irq");
    const plain = words("e1000", "clean", "rx", "irq");
    const at = (name: ReadonlySet<string>) => matchTerms(q, { name, dir: words("driver") });
    expect(relevance(q, at(jumbo))).toBe(relevance(q, at(plain)));
    expect(unexplainedWords(jumbo, at(jumbo))).toBe(3);
    expect(unexplainedWords(plain, at(plain))).toBe(2);
  });
});

describe("where a question says its path ends", () => {
  const destination = (text: string) => [...destinationTerms(parseQuestion(text))];

  it("is the phrase after its last `to` that names a thing and ends the question", () => {
    expect(destination("After routing, how is an incoming IPv4 packet handed to TCP's receive function?")).toEqual(["tcp", "receiv", "function"]);
    expect(destination("How does interval() schedule its emissions, all the way down to setInterval?")).toEqual(["set", "setinterval"]);
    // A word the question also uses before it is not only the end's.
    expect(destination("When a packet socket receives a frame, how is it added to the socket's receive queue?")).toEqual(["queue"]);
    // A possessive names a thing as a capital does: a package written in lower case.
    expect(destination("How is the request handed to httpcore's connection pool?")).toEqual(["httpcore", "connect", "pool"]);
  });

  it("is nothing for an infinitive, a phrase that does not end the question, or no `to` at all", () => {
    expect(destination("How does the parser manage to send its result?")).toEqual([]);
    expect(destination("What happens when the callback I passed to subscribe() throws — where does the error end up?")).toEqual([]);
    expect(destination("How does ProcessPoolExecutor start worker processes?")).toEqual([]);
  });

  it("weighs its terms less for choosing the start, and leaves the rest of the question as it is", () => {
    const question = parseQuestion("How does smtplib connect to the mail server?");
    const start = asStartQuestion(question);
    const weight = (q: typeof question, term: string) => q.terms.find((t) => t.term === term)?.weight ?? 0;
    expect(weight(start, "mail")).toBeCloseTo(weight(question, "mail") * DESTINATION_START_PRIOR);
    expect(weight(start, "server")).toBeCloseTo(weight(question, "server") * DESTINATION_START_PRIOR);
    expect(weight(start, "connect")).toBe(weight(question, "connect"));
  });
});


describe("where a question says how the user set things up", () => {
  const setting = (text: string) => [...settingTerms(parseQuestion(text))];

  it("is a code name written after a verb of setting up that the user did, or its participle with `with`", () => {
    expect(setting("When my code fetches /users/42 and I registered http.get('/users/:id', resolver), how is the id pulled out?")).toEqual(["http.get", "http", "get"]);
    expect(setting("How does Sphinx pick the parser: the built-in one, or one an extension registered with app.add_source_parser?")).toEqual(["app.add_source_parser", "app", "add", "sourc", "add_source_parser"]);
    expect(setting("If I call server.use() inside a callback wrapped with server.boundary(), where are the handlers stored?")).toEqual(["server.boundary", "boundari"]);
    // Its words the question also writes elsewhere stay the question's own.
    expect(setting("I registered a parser with app.add_parser(); how does the app pick a parser?")).toEqual(["app.add_parser", "add", "add_parser"]);
    // Any participle with `with` says how the thing asked about was made (found on paramiko: "a command started with exec_command").
    expect(setting("When a POSIX timer created with timer_create() expires, how is its signal queued?")).toEqual(["timer_create", "creat"]);
    expect(setting("If I write to the stdin of a command started with exec_command, where does my write block?")).toEqual(["exec_command", "exec"]);
  });

  it("is a call an `after` or `once` clause says is over", () => {
    expect(setting("After exec_command returns, how does calling stdout.read() on the returned file object pull the output?")).toEqual(["exec_command", "exec", "command"]);
    expect(setting("Once connect() has completed, where does the socket start reading?")).toEqual(["connect"]);
    // A call the clause does not say is over may be where the path begins.
    expect(setting("After I call transport.set_keepalive(30), where does paramiko send a keepalive?")).toEqual([]);
    expect(setting("After a navigation finishes loading, how does router.load() commit the matches?")).toEqual([]);
    expect(setting("How does it get collected after gcTime and end up calling the cleanup function my sync returned?")).toEqual([]);
  });

  it("is a leading clause with `with` when a `when` or `if` clause says what sets the path off", () => {
    expect(setting("With setupServer() in my tests, when my code fetches a URL, how is the handler matched?")).toEqual(["setupserver", "setup", "server"]);
    expect(setting("With reaction(expression, effect), how does MobX record which observables the expression read?")).toEqual([]);
    // A sentence of its own says what the path reads, not where the code runs.
    expect(setting("I created an Editor with an extension whose addAttributes() declares attributes. When content is loaded, how are they read?")).toEqual([]);
  });

  it("is not what the code does: a passive, a verb whose subject is code, or a name written outside the setting too", () => {
    expect(setting("When a program creates a uinput device, how does it get registered with the input core?")).toEqual([]);
    expect(setting("When the driver registers an interrupt handler with request_irq(), how is the line enabled?")).toEqual([]);
    expect(setting("How is a socket created with socket() bound to its port?")).toEqual([]);
    // The "i" of "i.MX" is not the user.
    expect(setting("On an i.MX board whose driver registers its host with mmc_add_host(), how is the card found?")).toEqual([]);
    expect(setting("I registered a handler with server.use(); when server.use() is called again, what happens?")).toEqual([]);
  });

  it("names no start and weighs as the destination does when choosing one", () => {
    const question = parseQuestion("One an extension registered with app.add_source_parser: how does Sphinx pick the parser for a document?");
    const start = asStartQuestion(question);
    const weight = (q: typeof question, term: string) => q.terms.find((t) => t.term === term)?.weight ?? 0;
    expect(weight(start, "add_source_parser")).toBeCloseTo(weight(question, "add_source_parser") * DESTINATION_START_PRIOR);
    expect(weight(start, "parser")).toBe(weight(question, "parser"));
    const symbolMatch = [{ term: "app.add_source_parser", field: "symbol" as const, matched: "add_source_parser", strength: 1 }];
    expect(namedByQuestion(question, symbolMatch)).toBe(false);
    expect(namedByQuestion(parseQuestion("How does app.add_source_parser store the parser?"), symbolMatch)).toBe(true);
  });
});

describe("a qualified name the question writes", () => {
  const symbol = (term: string, matched: string, strength: number) => [{ term, field: "symbol" as const, matched, strength }];

  it("names a function whose class, file or directory is its owner, not another of the same last name", () => {
    const question = parseQuestion("How does ws.link('/chat') resolve the URL?");
    expect(namedByQuestion(question, symbol("ws.link", "link", FIELD_STRENGTH.symbol))).toBe(true);
    // `graphql.link` for `ws.link`: the owner is not its place's, and the last part alone names nothing.
    expect(namedByQuestion(question, symbol("ws.link", "link", FIELD_STRENGTH.symbol * PARTIAL_MATCH))).toBe(false);
    expect(namedByQuestion(question, symbol("link", "link", FIELD_STRENGTH.symbol))).toBe(false);
    // A file name written like one is no function's: `HttpResponse.json` for "my package.json".
    expect(namedByQuestion(parseQuestion("How is the directory recorded in my package.json?"), symbol("package.json", "json", FIELD_STRENGTH.symbol * PARTIAL_MATCH))).toBe(false);
    // `self.flush()` is the method's own class.
    expect(namedByQuestion(parseQuestion("How does a later self.flush() reach the socket?"), symbol("self.flush", "flush", FIELD_STRENGTH.symbol * PARTIAL_MATCH))).toBe(true);
  });

  it("is owned by the words of a compound owner (`my_task.delay` by `Task.delay`)", () => {
    const question = parseQuestion("When I call my_task.delay(), where is the queue chosen?");
    const term = question.terms.find((t) => t.term === "my_task.delay");
    expect(term).toBeDefined();
    const matches = matchTerms({ ...question, terms: [term as (typeof question.terms)[number]] }, { symbol: words("delay"), container: words("task"), file: words("task"), dir: words("celeri", "app") });
    expect(matches).toEqual([{ term: "my_task.delay", field: "symbol", matched: "delay", strength: FIELD_STRENGTH.symbol }]);
  });

  it("names no function defined inside another one's body (a closure is no attribute of anything)", () => {
    // Tried on SQLAlchemy's Core: "engine.connect()" had started at the `connect` create_engine defines
    // inside itself, whose directory is engine/, instead of `Engine.connect`.
    const question = parseQuestion("When engine.connect() takes a connection out of the pool, where is it pinged?");
    const term = question.terms.find((t) => t.term === "engine.connect");
    expect(term).toBeDefined();
    const only = { ...question, terms: [term as (typeof question.terms)[number]] };
    const fields = { symbol: words("connect"), file: words("creat"), dir: words("sqlalchemi", "engin") };
    expect(matchTerms(only, fields)).toEqual([{ term: "engine.connect", field: "symbol", matched: "connect", strength: FIELD_STRENGTH.symbol }]);
    expect(matchTerms(only, { ...fields, nested: true })).toEqual([]);
  });
});
