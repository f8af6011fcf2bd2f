// C calls through struct fields in one scope's call graph, over code parsed for real: a call through
// `ops->f(…)` links to the functions the scope stores into `f`, with the line that stored each, and is also
// an exit (another scope may store one); the search follows such an edge only to an implementation the
// question names; the scope's facts list the fields it stores functions into.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph, fieldCalled } from "../../../agents/pgc/callgraph/call-graph.js";
import { picksImplementation } from "../../../agents/pgc/callgraph/local-search.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { matchTerms } from "../../../agents/search/relevance.js";
import { citationHash } from "../../../agents/protocol/index.js";
import { writeCorpus } from "../../helpers/corpus.js";

const SOURCES: Record<string, string> = {
  "fs/read_write.c": [
    "/* vfs_read - read from a file through its file operations */",
    "ssize_t vfs_read(struct file *file, char *buf, size_t count)",
    "{",
    "\treturn file->f_op->read(file, buf, count);",
    "}",
    "",
    "int vfs_open(struct file *file)",
    "{",
    "\treturn (*file->f_op->open)(file);",
    "}",
    "",
  ].join("\n"),
  "fs/pipe.c": [
    "static ssize_t pipe_read(struct file *file, char *buf, size_t count)",
    "{",
    "\treturn copy_page_to_iter(file, buf, count);",
    "}",
    "",
    "const struct file_operations pipefifo_fops = {",
    "\t.read\t\t= pipe_read,",
    "\t.llseek\t\t= no_llseek,",
    "};",
    "",
  ].join("\n"),
  "fs/null.c": [
    "static ssize_t read_null(struct file *file, char *buf, size_t count)",
    "{",
    "\treturn 0;",
    "}",
    "",
    "void null_init(struct file_operations *ops)",
    "{",
    "\tops->read = read_null;",
    "}",
    "",
    "int open_null(struct file *file)",
    "{",
    "\treturn 0;",
    "}",
    "",
    "void null_open_init(struct file_operations *ops)",
    "{",
    "\tops->open = open_null;",
    "}",
    "",
  ].join("\n"),
};

let root: string;
let cache: string;
let pgc: Pgc;

beforeAll(async () => {
  root = writeCorpus("field-calls-", SOURCES);
  cache = mkdtempSync(join(tmpdir(), "field-calls-cache-"));
  const opened = await openPgc({ scope: "fs", root, scopePaths: ["fs/"], cacheRoot: cache, logger: pino({ level: "silent" }) });
  pgc = new Pgc("fs", ["fs/"], opened);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

describe("C calls through struct fields", () => {
  it("knows the field a C call goes through, and only in C", () => {
    expect(fieldCalled({ callee: "file->f_op->read", file_path: "fs/read_write.c" })).toBe("read");
    expect(fieldCalled({ callee: "(*file->f_op->open)", file_path: "fs/read_write.c" })).toBe("open");
    expect(fieldCalled({ callee: "dev.ops.xmit", file_path: "include/x.h" })).toBe("xmit");
    expect(fieldCalled({ callee: "read_null", file_path: "fs/null.c" })).toBeNull();
    expect(fieldCalled({ callee: "self.read", file_path: "io.py" })).toBeNull();
  });

  it("links a call through a field to every function the scope stores into it, with where, and makes it an exit", () => {
    const graph = new CallGraph(pgc.data);
    const [read] = graph.named("vfs_read");
    const edges = graph.callsOf(read!.id).map((e) => ({ to: graph.nodes[e.to]?.name, bound: e.bound }));
    expect(edges).toEqual([
      { to: "read_null", bound: { field: "read", file_path: "fs/null.c", line: 8 } },
      { to: "pipe_read", bound: { field: "read", file_path: "fs/pipe.c", line: 7 } },
    ]);
    expect(graph.exitsOf(read!.id)).toEqual([expect.objectContaining({ target: "read", via: "field", line: 4 })]);
    // `no_llseek` is no function of the scope: nothing is bound to `llseek`.
    expect(graph.boundFields()).toEqual(["open", "read"]);
    expect(pgc.facts().fields).toEqual(["open", "read"]);
    expect(pgc.facts().field_calls).toEqual({ open: 1, read: 1 });
  });

  it("says where an entry is stored into fields, and lists only the calls through a field as its callers", async () => {
    const question = parseQuestion("Who calls pipe_read?");
    const own = await pgc.search().expand({ question, mode: "forward", from: { symbol: "pipe_read" }, covered: {}, max_depth: 0 });
    expect(own.entry_fields).toEqual([expect.objectContaining({ field: "read", file_path: "fs/pipe.c", line: 7, text: "\t.read\t\t= pipe_read," })]);
    const callers = await pgc.search().expand({ question, mode: "callers", from: { symbol: "read", field: true }, covered: {}, max_depth: 0 });
    expect(callers.leads.map((l) => [callers.steps[l.path[0] ?? -1]?.symbol, l.exit?.call_site.text])).toEqual([["vfs_read", "\treturn file->f_op->read(file, buf, count);"]]);
  });

  it("follows the field to the implementation the question names, and to none when it names none", async () => {
    const named = parseQuestion("How does vfs_read read from a pipe?");
    const result = await pgc.search().expand({ question: named, mode: "forward", from: { symbol: "vfs_read" }, covered: {} });
    const path = result.leads.map((l) => l.path.map((i) => result.steps[i]?.symbol).join(" > "));
    expect(path).toContain("vfs_read > pipe_read");
    const lead = result.leads.find((l) => l.path.length === 2);
    const bound = lead?.call_sites[0]?.bound_at;
    expect(bound).toMatchObject({ field: "read", file_path: "fs/pipe.c", line: 7 });
    const line = readFileSync(join(root, "fs/pipe.c"), "utf8").split("\n")[6] ?? "";
    expect(bound?.sha256).toBe(citationHash(line));
    const unnamed = parseQuestion("How does vfs_read read from a file?");
    const plain = await pgc.search().expand({ question: unnamed, mode: "forward", from: { symbol: "vfs_read" }, covered: {} });
    expect(plain.leads.every((l) => l.path.length === 1)).toBe(true);
  });

  it("enters a scope through a field at the function it stores there that the question names", async () => {
    const question = parseQuestion("How is a read from a pipe answered?");
    const result = await pgc.search().expand({ question, mode: "forward", from: { symbol: "read", field: true, called: true }, covered: {} });
    expect(result.steps[0]?.symbol).toBe("pipe_read");
    expect(result.bound_at).toMatchObject({ field: "read", file_path: "fs/pipe.c", line: 7, text: "\t.read\t\t= pipe_read," });
    const none = await pgc.search().expand({ question: parseQuestion("How is a file read?"), mode: "forward", from: { symbol: "read", field: true }, covered: {} });
    expect(none.resolved).toBe(false);
  });

  it("enters through a field at the one function stored there when no other scope stores one (sole), named or not", async () => {
    const question = parseQuestion("How is a file opened?");
    const unnamed = await pgc.search().expand({ question, mode: "forward", from: { symbol: "open", field: true, called: true }, covered: {} });
    expect(unnamed.resolved).toBe(false);
    const sole = await pgc.search().expand({ question, mode: "forward", from: { symbol: "open", field: true, sole: true, called: true }, covered: {} });
    expect(sole.steps[0]?.symbol).toBe("open_null");
    expect(sole.bound_at).toMatchObject({ field: "open", file_path: "fs/null.c", line: 18, text: "\tops->open = open_null;" });
    // Two functions stored into `read`: which one runs is still the question's to say.
    const two = await pgc.search().expand({ question: parseQuestion("How is a file read?"), mode: "forward", from: { symbol: "read", field: true, sole: true }, covered: {} });
    expect(two.resolved).toBe(false);
  });

  it("counts only words of the implementation's own name that the field's name lacks", () => {
    const question = parseQuestion("How does the pipe read data?");
    const matches = (name: string) => matchTerms(question, { name: new Set([name]) });
    expect(picksImplementation(question, matches("pipe"), "read")).toBe(true);
    expect(picksImplementation(question, matches("read"), "read")).toBe(false);
  });
});
