// The cached reader of a code root: a changed file is read again, a file replaced by a
// symlink or a path escaping the root is refused, and the cache keeps at most its capacity.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SourceReader } from "../../../agents/pgc/scan/index.js";

let base: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "mesh-sources-"));
  root = join(base, "root");
  mkdirSync(join(root, "mm"), { recursive: true });
  writeFileSync(join(root, "mm", "page.c"), "int alloc_pages(void);\n");
  writeFileSync(join(base, "secret.c"), "int secret;\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("SourceReader", () => {
  it("reads a file under the root, and again after it changed", () => {
    const reader = new SourceReader(root);
    expect(reader.read("mm/page.c")).toBe("int alloc_pages(void);\n");
    writeFileSync(join(root, "mm", "page.c"), "int alloc_pages(int order);\n");
    utimesSync(join(root, "mm", "page.c"), new Date(), new Date(Date.now() + 5_000));
    expect(reader.read("mm/page.c")).toBe("int alloc_pages(int order);\n");
  });

  it("sees a file replaced by another of the same size and mtime (a new inode)", () => {
    const reader = new SourceReader(root);
    const file = join(root, "mm", "page.c");
    const when = new Date(1_700_000_000_000);
    utimesSync(file, when, when);
    expect(reader.read("mm/page.c")).toBe("int alloc_pages(void);\n");
    unlinkSync(file);
    writeFileSync(file, "int alloc_pages(char);\n");
    utimesSync(file, when, when);
    expect(reader.read("mm/page.c")).toBe("int alloc_pages(char);\n");
  });

  it("refuses paths that leave the root: .., absolute, and symlinks out, even after a cached read", () => {
    const reader = new SourceReader(root);
    expect(reader.read("../secret.c")).toBeNull();
    expect(reader.read(join(base, "secret.c"))).toBeNull();
    symlinkSync(join(base, "secret.c"), join(root, "mm", "link.c"));
    expect(reader.read("mm/link.c")).toBeNull();
    expect(reader.read("mm/page.c")).not.toBeNull();
    unlinkSync(join(root, "mm", "page.c"));
    symlinkSync(join(base, "secret.c"), join(root, "mm", "page.c"));
    expect(reader.read("mm/page.c")).toBeNull();
  });

  it("answers null for a missing file or a directory", () => {
    const reader = new SourceReader(root);
    expect(reader.read("mm/none.c")).toBeNull();
    expect(reader.read("mm")).toBeNull();
  });

  it("keeps at most its capacity, dropping the least recently used", () => {
    const reader = new SourceReader(root, { capacity: 2 });
    for (const name of ["a", "b", "c"]) writeFileSync(join(root, `${name}.c`), `int ${name};\n`);
    reader.read("a.c");
    reader.read("b.c");
    reader.read("a.c"); // a is now the most recent
    reader.read("c.c"); // evicts b
    unlinkSync(join(root, "a.c"));
    unlinkSync(join(root, "b.c"));
    // a was cached but is gone now (lstat fails): null; b was evicted and is gone: null; c is cached.
    expect(reader.read("a.c")).toBeNull();
    expect(reader.read("b.c")).toBeNull();
    expect(reader.read("c.c")).toBe("int c;\n");
  });

  it("keeps at most its byte bound of text, dropping the oldest, but always returns the file just read", () => {
    const reader = new SourceReader(root, { capacity: 100, maxBytes: 100 });
    writeFileSync(join(root, "a.c"), "a".repeat(60));
    writeFileSync(join(root, "b.c"), "b".repeat(60));
    writeFileSync(join(root, "big.c"), "c".repeat(500));
    expect(reader.read("a.c")).toHaveLength(60);
    expect(reader.bytes).toBe(60);
    expect(reader.read("b.c")).toHaveLength(60); // a is dropped: 120 > 100
    expect(reader.bytes).toBe(60);
    expect(reader.read("big.c")).toHaveLength(500); // larger than the bound: kept alone until the next read
    expect(reader.bytes).toBe(500);
    expect(reader.read("a.c")).toHaveLength(60);
    expect(reader.bytes).toBe(60);
  });

  it("judges a file with accept once per version: refused reads as null, and is judged again when it changes", () => {
    let judged = 0;
    const reader = new SourceReader(root, { accept: (_path, text) => (judged++, !text.includes("evil")) });
    writeFileSync(join(root, "x.c"), "int evil;\n");
    expect(reader.read("x.c")).toBeNull();
    expect(reader.read("x.c")).toBeNull();
    expect(judged).toBe(1);
    writeFileSync(join(root, "x.c"), "int good_one;\n");
    expect(reader.read("x.c")).toBe("int good_one;\n");
    expect(reader.read("x.c")).toBe("int good_one;\n");
    expect(judged).toBe(2);
  });
});
