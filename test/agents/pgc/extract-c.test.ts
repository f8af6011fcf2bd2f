// C and C++ extraction on the demo kernel: golden symbols, docs, includes and calls.
import { beforeAll, describe, expect, it } from "vitest";
import { extractFile, extractScope, type ScopeExtractionResult } from "../../../agents/pgc/overlays/index.js";
import type { CodeSymbol } from "../../../agents/pgc/types.js";
import { C_KERNEL_DIR } from "../../fixtures/fixture-paths.js";

let kernel: ScopeExtractionResult;

beforeAll(async () => {
  kernel = await extractScope({ root: C_KERNEL_DIR, gitHistory: false });
});

const symbolsOf = (file: string): CodeSymbol[] => kernel.symbols.filter((symbol) => symbol.file_path === file);
const symbolNamed = (name: string, file?: string): CodeSymbol => {
  const found = kernel.symbols.find((symbol) => symbol.name === name && (file === undefined || symbol.file_path === file));
  if (!found) throw new Error(`no symbol ${name}`);
  return found;
};

describe("C symbols", () => {
  it("finds every function of e1000_main.c with its lines", () => {
    const functions = symbolsOf("drivers/net/e1000/e1000_main.c")
      .filter((symbol) => symbol.kind === "function")
      .map((symbol) => [symbol.name, symbol.line_start, symbol.line_end]);
    expect(functions).toEqual([
      ["e1000_setup_ring", 29, 43],
      ["e1000_setup_tx_resources", 49, 52],
      ["e1000_setup_rx_resources", 58, 61],
      ["e1000_free_tx_resources", 67, 73],
      ["e1000_alloc_rx_buffers", 80, 99],
      ["e1000_open", 107, 126],
      ["e1000_xmit_frame", 137, 163],
      ["e1000_clean_tx_irq", 169, 184],
      ["e1000_clean_rx_irq", 191, 203],
      ["e1000_intr", 210, 218],
    ]);
  });

  it("finds macros, structs and header inline functions of mm.h, but no include guard", () => {
    expect(symbolsOf("include/linux/mm.h").map((symbol) => [symbol.kind, symbol.name, symbol.line_start])).toEqual([
      ["macro", "PAGE_SHIFT", 13],
      ["macro", "PAGE_SIZE", 14],
      ["macro", "PAGE_OFFSET", 15],
      ["macro", "MAX_ORDER", 18],
      ["struct", "page", 26],
      ["function", "page_address", 36],
      ["function", "virt_to_phys", 45],
      ["function", "get_order", 54],
    ]);
  });

  it("reads signature, parameters, return type and the kernel-doc comment without markers", () => {
    const xmit = symbolNamed("e1000_xmit_frame");
    expect(xmit).toMatchObject({
      signature: "netdev_tx_t e1000_xmit_frame(struct sk_buff *skb, struct net_device *netdev)",
      params: 2,
      returns: "netdev_tx_t",
      doc_line_start: 128,
      doc_line_end: 136,
    });
    expect(xmit.doc.split("\n")[0]).toBe("e1000_xmit_frame - queue a frame for transmission");
    expect(xmit.doc).toContain("@skb: the frame");
    expect(xmit.doc).not.toMatch(/\/\*|\*\/|^\s*\*/m);
    expect(symbolNamed("dma_direct_alloc")).toMatchObject({ returns: "void *", params: 3 });
    expect(symbolNamed("skb_pool_init")).toMatchObject({ params: 0, doc: "" });
  });

  it("marks functions defined in headers, static inline included", () => {
    const inHeader = kernel.symbols.filter((symbol) => symbol.in_header).map((symbol) => symbol.name).sort();
    expect(inHeader).toEqual([
      "dma_mapping_error", "e1000_desc_unused", "get_order", "kzalloc", "netdev_priv", "page_address", "skb_put", "virt_to_phys",
    ]);
    expect(symbolNamed("e1000_xmit_frame").in_header).toBeUndefined();
  });

  it("does not take prototypes for definitions", () => {
    for (const [name, file] of [
      ["dma_alloc_coherent", "kernel/dma/mapping.c"],
      ["alloc_pages", "mm/page_alloc.c"],
      ["e1000_xmit_frame", "drivers/net/e1000/e1000_main.c"],
      ["queue_work", "kernel/workqueue.c"],
    ]) {
      expect(kernel.symbols.filter((symbol) => symbol.name === name).map((symbol) => symbol.file_path)).toEqual([file]);
    }
  });

  it("reads macros, typedefs, enums and unions", () => {
    expect(symbolNamed("min")).toMatchObject({ kind: "macro", params: 2, line_start: 39 });
    expect(symbolNamed("MAX_ORDER")).toMatchObject({ signature: "#define MAX_ORDER 10" });
    expect(symbolNamed("BUG_ON").doc).toContain("stop the kernel when an invariant no longer holds");
    expect(symbolNamed("work_func_t")).toMatchObject({ kind: "typedef", signature: "typedef void (*work_func_t)(struct work_struct *work);" });
    expect(symbolNamed("netdev_tx_t")).toMatchObject({ kind: "typedef", line_start: 17 });
    expect(symbolNamed("dma_data_direction")).toMatchObject({ kind: "enum", members: 3, line_start: 14, line_end: 18 });
    expect(symbolNamed("page")).toMatchObject({ kind: "struct", members: 3 });
    expect(kernel.symbols.some((symbol) => symbol.name.startsWith("_LINUX_"))).toBe(false);
  });
});

describe("C includes and calls", () => {
  it("resolves includes against the file's directory and include/", () => {
    const includes = kernel.imports.filter((edge) => edge.file_path === "drivers/net/e1000/e1000_main.c");
    expect(includes.map((edge) => [edge.line, edge.target, edge.resolved_path])).toEqual([
      [9, "linux/types.h", "include/linux/types.h"],
      [10, "linux/kernel.h", "include/linux/kernel.h"],
      [11, "linux/device.h", "include/linux/device.h"],
      [12, "linux/dma-mapping.h", "include/linux/dma-mapping.h"],
      [13, "linux/netdevice.h", "include/linux/netdevice.h"],
      [14, "linux/skbuff.h", "include/linux/skbuff.h"],
      [15, "linux/e1000.h", "include/linux/e1000.h"],
      [16, "e1000.h", "drivers/net/e1000/e1000.h"],
    ]);
    expect(kernel.imports.every((edge) => edge.kind === "include" && edge.resolved_path !== undefined)).toBe(true);
  });

  it("records each call with the callee as written and its enclosing function", () => {
    const calls = kernel.calls.filter((call) => call.caller === "e1000_setup_ring");
    expect(calls.map((call) => [call.line, call.callee])).toEqual([
      [32, "devm_kzalloc"],
      [35, "dma_alloc_coherent"],
      [37, "pr_err"],
    ]);
    expect(kernel.calls).toContainEqual({ callee: "e1000_xmit_frame", caller: "dev_queue_xmit", file_path: "net/core/dev.c", line: 32 });
  });

  it("knows parameters and local function pointers are not calls to other code", async () => {
    const content = [
      "int apply(int (*cb)(int), int x)",
      "{",
      "\tint (*fallback)(int) = pick();",
      "\treturn cb(x) + (*fallback)(x) + fallback(x) + helper(x);",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "apply.c", content });
    expect(parsed.calls.map((call) => [call.callee, call.plain, call.local])).toEqual([
      ["pick", true, false],
      ["cb", true, true],
      ["(*fallback)", false, false],
      ["fallback", true, true],
      ["helper", true, false],
    ]);
  });

  it("takes a function handed by name to a capitals macro as a call of it, at the line naming it", async () => {
    const content = [
      "void deliver(struct sk_buff *skb, int (*handler)(struct sk_buff *))",
      "{",
      "\tINDIRECT_CALL_2(handler, tcp_v4_rcv,",
      "\t\t\tudp_rcv, skb);",
      "\tNF_HOOK(NFPROTO_IPV4, skb, ip_local_deliver_finish);",
      "\tcallback(skb, other_fn);",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "deliver.c", content });
    expect(parsed.calls.map((call) => [call.callee, call.line])).toEqual([
      ["INDIRECT_CALL_2", 3],
      ["tcp_v4_rcv", 3],
      ["udp_rcv", 4],
      ["NF_HOOK", 5],
      ["ip_local_deliver_finish", 5],
      ["callback", 6],
    ]);
  });

  it("takes a file-level capitals macro followed by a block as a function named by its first argument (SYSCALL_DEFINE)", async () => {
    const content = [
      "/* The write system call. */",
      "SYSCALL_DEFINE3(write, unsigned int, fd, const char __user *, buf,",
      "\t\tsize_t, count)",
      "{",
      "\treturn ksys_write(fd, buf, count);",
      "}",
      "EXPORT_SYMBOL(ksys_write);",
      "static int other(void) { return helper(); }",
    ].join("\n");
    const { parsed } = await extractFile({ path: "fs/read_write.c", content });
    expect(parsed.symbols.map((s) => [s.kind, s.name, s.line_start, s.line_end, s.doc])).toEqual([
      ["function", "write", 2, 6, "The write system call."],
      ["function", "other", 8, 8, ""],
    ]);
    // The macro's own call is the definition's head; EXPORT_SYMBOL (no block follows) stays a file-level call.
    expect(parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["ksys_write", "write", 5],
      ["EXPORT_SYMBOL", null, 7],
      ["helper", "other", 8],
    ]);
  });

  it("finds such macro functions in #ifdef blocks at file level, and with one argument (SYSCALL_DEFINE0(fork))", async () => {
    const content = [
      "#ifdef __ARCH_WANT_SYS_FORK",
      "SYSCALL_DEFINE0(fork)",
      "{",
      "\treturn kernel_clone(&args);",
      "}",
      "#endif",
      "#ifdef CONFIG_KILL",
      "SYSCALL_DEFINE2(kill, pid_t, pid, int, sig)",
      "{",
      "\treturn kill_something_info(sig, pid);",
      "}",
      "#else",
      "SYSCALL_DEFINE0(pause)",
      "{",
      "\treturn -EINTR;",
      "}",
      "#endif",
      "static int run(void)",
      "{",
      "#ifdef CONFIG_X",
      "\tLOCK(fork);",
      "#endif",
      "\t{ helper(); }",
      "\treturn 0;",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "kernel/fork.c", content });
    expect(parsed.symbols.map((s) => [s.kind, s.name, s.line_start, s.line_end])).toEqual([
      ["function", "fork", 2, 5],
      ["function", "kill", 8, 11],
      ["function", "pause", 13, 16],
      ["function", "run", 18, 25],
    ]);
    // A capitals macro in a function's body, even before a block, stays a call.
    expect(parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["kernel_clone", "fork", 4],
      ["kill_something_info", "kill", 10],
      ["LOCK", "run", 21],
      ["helper", "run", 23],
    ]);
  });

  it("finds a function of no parameters whose attribute macros the grammar stumbles on (asmlinkage __visible void __sched schedule(void))", async () => {
    const content = [
      "asmlinkage __visible void __sched schedule(void)",
      "{",
      "\tsched_submit_work(current);",
      "\t__schedule(SM_NONE);",
      "}",
      "static int __init sched_init_debug(void)",
      "{",
      "\treturn 0;",
      "}",
      "int __sched yield_to(struct task_struct *p, bool preempt)",
      "{",
      "\treturn yield();",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "kernel/sched/core.c", content });
    expect(parsed.symbols.map((s) => [s.kind, s.name, s.line_start, s.line_end, s.params, s.signature])).toEqual([
      ["function", "schedule", 1, 5, 0, "asmlinkage __visible void __sched schedule(void)"],
      ["function", "sched_init_debug", 6, 9, 0, "static int __init sched_init_debug(void)"],
      ["function", "yield_to", 10, 13, 2, "int __sched yield_to(struct task_struct *p, bool preempt)"],
    ]);
    expect(parsed.calls.map((c) => [c.callee, c.caller, c.line])).toEqual([
      ["sched_submit_work", "schedule", 3],
      ["__schedule", "schedule", 4],
      ["yield", "yield_to", 12],
    ]);
  });

  it("keeps the names C stores into struct fields, in initializers and in bodies, through & and casts", async () => {
    const content = [
      "static const struct net_device_ops veth_ops = {",
      "\t.ndo_open       = veth_open,",
      "\t.ndo_start_xmit = &veth_xmit,",
      "\t.mtu = 1500,",
      "};",
      "void setup(struct packet_sock *po, struct rtable *rth)",
      "{",
      "\tpo->prot_hook.func = packet_rcv;",
      "\trth->dst.input = (dst_input_t)ip_local_deliver;",
      "\tpo->count = other;",
      "\tlocal = packet_rcv;",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "veth.c", content });
    expect(parsed.bindings.map((b) => [b.field, b.target, b.line])).toEqual([
      ["ndo_open", "veth_open", 2],
      ["ndo_start_xmit", "veth_xmit", 3],
      ["func", "packet_rcv", 8],
      ["input", "ip_local_deliver", 9],
      ["count", "other", 10],
    ]);
  });

  it("marks the functions a file uses as values — stored into a field, passed as an argument, exported — and not those it only calls", async () => {
    const content = [
      "static int foo_open(struct inode *i, struct file *f) { return foo_helper(f); }",
      "static int foo_helper(struct file *f) { return 0; }",
      "static void foo_work(struct work_struct *w) { }",
      "static irqreturn_t foo_irq(int irq, void *d) { return IRQ_HANDLED; }",
      "int foo_lookup(int id) { return id; }",
      "EXPORT_SYMBOL_GPL(foo_lookup);",
      "static const struct file_operations foo_fops = { .open = foo_open };",
      "static int __init foo_init(void) { INIT_WORK(&work, foo_work); return request_irq(1, &foo_irq, 0, \"foo\", NULL); }",
      "module_init(foo_init);",
    ].join("\n");
    const { parsed } = await extractFile({ path: "foo.c", content });
    expect(parsed.symbols.filter((s) => s.kind === "function").map((s) => [s.name, s.address_taken ?? false])).toEqual([
      ["foo_open", true],
      ["foo_helper", false],
      ["foo_work", true],
      ["foo_irq", true],
      ["foo_lookup", true],
      ["foo_init", true],
    ]);
  });

  it("reads the calls in a function-like macro's body as the macro's, at their lines, but not its parameters or C keywords", async () => {
    const content = [
      "#define journal_start(inode, type, n) \\",
      "\t__journal_start((inode), __LINE__, (type), sizeof(n))",
      "#define wrap(fn, x) fn(x) + helper_call(x)",
    ].join("\n");
    const { parsed } = await extractFile({ path: "j.h", content });
    expect(parsed.calls.map((call) => [call.callee, call.caller, call.line])).toEqual([
      ["__journal_start", "journal_start", 2],
      ["helper_call", "wrap", 3],
    ]);
  });

  it("reads C++ classes, methods and namespace-qualified definitions", async () => {
    const content = [
      "#include <vector>",
      "namespace net {",
      "/// A ring of buffers.",
      "class Ring : public Base {",
      " public:",
      "  int size() const { return n_; }",
      "  void grow(int k);",
      " private:",
      "  int n_;",
      "};",
      "void Ring::grow(int k) { n_ += k; rebalance(k); std::sort(a, b); }",
      "template <typename T> T largest(T a, T b) { return a > b ? a : b; }",
      "}",
    ].join("\n");
    const { parsed } = await extractFile({ path: "ring.cc", content });
    expect(parsed.symbols.map((symbol) => [symbol.kind, symbol.name, symbol.container, symbol.line_start])).toEqual([
      ["class", "Ring", "net", 4],
      ["method", "size", "net::Ring", 6],
      ["method", "grow", "net::Ring", 11],
      ["function", "largest", "net", 12],
    ]);
    expect(parsed.symbols[0]?.doc).toBe("A ring of buffers.");
    expect(parsed.calls.map((call) => [call.callee, call.caller])).toEqual([["rebalance", "grow"], ["std::sort", "grow"]]);
    expect(parsed.imports.map((edge) => [edge.target, edge.system])).toEqual([["vector", true]]);
  });

  it("is pure: the same path and content give the same extraction", async () => {
    const input = { path: "apply.c", content: "/** Doc. */\nint f(int x) { return g(x); }\n" };
    expect(await extractFile(input)).toEqual(await extractFile(input));
  });
});
