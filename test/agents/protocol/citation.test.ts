import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CitationRangeError,
  CitationSchema,
  citationHash,
  citationMatches,
  clampCitations,
  codePointLength,
  countLines,
  MAX_CITATION_CHARS,
  MAX_CITATIONS,
  sliceLines,
  TRUNCATION_MARKER,
  truncateText,
} from "../../../agents/protocol/index.js";
import { DMA_FILE, repeat, validCitation } from "./fixtures.js";
import { LINE_TABLE_MIN_CHARS } from "../../../agents/protocol/citation-hash.js";

describe("citationHash", () => {
  it("matches a known SHA-256 value", () => {
    expect(citationHash("hello\nworld")).toBe("26c60a61d01db5836ca70fefd44a6a016620413c8ef5f259a6c5612d4f79d3b8");
    expect(citationHash("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("hashes the UTF-8 bytes, as node:crypto does on an explicit buffer", () => {
    const text = "/* größe */\r\n\tμ = 1; // 😀";
    const expected = createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
    expect(citationHash(text)).toBe(expected);
  });

  it("matches the worked examples of docs/DELEGATION.md", () => {
    expect(sliceLines(DMA_FILE, 2, 3)).toBe("int dma_alloc(int n)\n{");
    expect(Buffer.from(sliceLines(DMA_FILE, 2, 3), "utf8")).toHaveLength(22);
    expect(citationHash(sliceLines(DMA_FILE, 2, 3))).toBe("7cd284f1649ed39279896f0fb34235fe38759ad81c31d894aded0d76a91edb58");
    expect(citationHash(sliceLines("a\r\nb\r\n", 1, 2))).toBe("464c8c7baee96c964ae5d50b87cbc47ec4b8e8f836d6cb43d412da227eb15c9a");
    expect(citationHash(sliceLines("a\n\nb", 2, 2))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("sliceLines and countLines", () => {
  it("numbers lines from 1, inclusive at both ends", () => {
    const file = "one\ntwo\nthree\nfour";
    expect(sliceLines(file, 1, 1)).toBe("one");
    expect(sliceLines(file, 2, 3)).toBe("two\nthree");
    expect(sliceLines(file, 4, 4)).toBe("four");
    expect(sliceLines(file, 1, 4)).toBe(file);
  });

  it("does not count the empty segment after a final newline", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a")).toBe(1);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\n\n")).toBe(2);
    expect(countLines("\n")).toBe(1);
    expect(sliceLines("a\n\n", 2, 2)).toBe("");
    expect(() => sliceLines("a\n", 2, 2)).toThrow(CitationRangeError);
  });

  it("keeps carriage returns, tabs, trailing spaces and a BOM as they are", () => {
    expect(sliceLines("a\r\nb \r\nc", 1, 2)).toBe("a\r\nb \r");
    expect(sliceLines("\uFEFFfirst\n\tsecond", 1, 2)).toBe("\uFEFFfirst\n\tsecond");
  });

  it("slices a long file (its line offsets kept in a table) exactly as a short one is sliced line by line", () => {
    // Past LINE_TABLE_MIN_CHARS a file's line starts are worked out once; the lines must come out the same.
    const lines = Array.from({ length: 3_000 }, (_, i) => (i % 7 === 0 ? "" : `line ${i}\tx = ${"y".repeat(i % 13)}\r`));
    for (const file of [lines.join("\n"), `${lines.join("\n")}\n`, `${lines.join("\n")}\n\n`]) {
      expect(file.length).toBeGreaterThan(LINE_TABLE_MIN_CHARS);
      const count = countLines(file);
      const split = file.split("\n");
      for (const [start, end] of [[1, 1], [1, 3], [500, 500], [1_234, 1_300], [count, count], [1, count]] as const) {
        expect(sliceLines(file, start, end)).toBe(split.slice(start - 1, end).join("\n"));
      }
      expect(() => sliceLines(file, count + 1, count + 1)).toThrow(CitationRangeError);
      expect(() => sliceLines(file, count, count + 1)).toThrow(expect.objectContaining({ lineCount: count }));
      // The table is kept: a second file of the same length but other lines is not sliced by the first's.
      const other = file.replace(/line 5\t/g, "line 5 moved\n\t");
      expect(sliceLines(other, 6, 7)).toBe(other.split("\n").slice(5, 7).join("\n"));
    }
  });

  it("throws CitationRangeError for ranges the file does not have", () => {
    for (const [start, end] of [
      [0, 1],
      [3, 2],
      [1, 6],
      [6, 6],
      [1.5, 2],
    ] as const) {
      expect(() => sliceLines(DMA_FILE, start, end)).toThrow(CitationRangeError);
    }
    expect(sliceLines(DMA_FILE, 5, 5)).toBe("}");
    expect(() => sliceLines(DMA_FILE, 1, 9)).toThrow(
      expect.objectContaining({ name: "CitationRangeError", code: "citation_range", retryable: false, lineCount: 5 }),
    );
  });
});

describe("citationMatches", () => {
  it("confirms a citation against the file and rejects a changed file or range", () => {
    const citation = validCitation();
    expect(citationMatches(DMA_FILE, citation)).toBe(true);
    expect(citationMatches(DMA_FILE.replace("int n", "long n"), citation)).toBe(false);
    expect(citationMatches(DMA_FILE, { ...citation, line_end: 4 })).toBe(false);
    expect(citationMatches(DMA_FILE, { ...citation, line_start: 40, line_end: 41 })).toBe(false);
  });
});

describe("CitationSchema", () => {
  it("accepts a checkable citation", () => {
    expect(CitationSchema.parse(validCitation())).toEqual(validCitation());
  });

  it("requires file, lines and a lowercase hex hash", () => {
    const { file_path: _path, ...withoutPath } = validCitation();
    expect(CitationSchema.safeParse(withoutPath).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ sha256: validCitation().sha256.toUpperCase() })).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ sha256: "abc" })).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ line_start: 0 })).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ line_start: 4, line_end: 3 })).success).toBe(false);
  });

  it("rejects paths that could escape the scope", () => {
    for (const file_path of ["/etc/passwd", "../x.c", "mm/../../x.c", "mm//x.c", "./x.c", "mm\\x.c", "C:/x.c", "mm/x.c/"]) {
      expect(CitationSchema.safeParse(validCitation({ file_path })).success, file_path).toBe(false);
    }
    expect(CitationSchema.safeParse(validCitation({ file_path: "drivers/net/e1000/e1000_main.c" })).success).toBe(true);
  });

  it("ties similarity to its kind: exact is 1, none is 0, all in [0, 1]", () => {
    expect(CitationSchema.safeParse(validCitation({ similarity: 0.9, similarity_kind: "exact" })).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ similarity: 0.1, similarity_kind: "none" })).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ similarity: 0, similarity_kind: "none" })).success).toBe(true);
    expect(CitationSchema.safeParse(validCitation({ similarity: 1.2, similarity_kind: "external" })).success).toBe(false);
    expect(CitationSchema.safeParse(validCitation({ similarity: Number.NaN, similarity_kind: "coverage" })).success).toBe(false);
  });

  it("rejects overlays outside O1..O7, such as the seed's 'error' pseudo-citation", () => {
    expect(CitationSchema.safeParse({ ...validCitation(), overlay: "error" }).success).toBe(false);
  });
});

describe("clampCitations", () => {
  it("keeps the MAX_CITATIONS most similar, ties in their original order", () => {
    const citations = Array.from({ length: 14 }, (_, index) =>
      validCitation({ similarity: (index % 7) / 10, similarity_kind: "calibrated_lexical", relevance: `r${index}` }),
    );
    const clamped = clampCitations(citations);
    expect(clamped).toHaveLength(MAX_CITATIONS);
    expect(clamped.map((citation) => citation.relevance)).toEqual(["r6", "r13", "r5", "r12", "r4", "r11", "r3", "r10", "r2", "r9"]);
  });

  it("cuts content to exactly MAX_CITATION_CHARS code points ending in the marker", () => {
    const long = validCitation({ content: repeat("😀", 700), relevance: repeat("r", 600) });
    const [clamped] = clampCitations([long]);
    expect(codePointLength(clamped!.content)).toBe(MAX_CITATION_CHARS);
    expect(clamped!.content.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(clamped!.content.startsWith(repeat("😀", 499))).toBe(true);
    expect(codePointLength(clamped!.relevance)).toBe(500);
    expect(CitationSchema.safeParse(clamped).success).toBe(true);
  });

  it("leaves short content alone and never mutates its input", () => {
    const citations = [validCitation({ content: repeat("x", 900) }), validCitation()];
    const before = structuredClone(citations);
    const clamped = clampCitations(citations);
    expect(citations).toEqual(before);
    expect(clamped[1]!.content).toBe(validCitation().content);
  });
});

describe("truncateText", () => {
  it("never splits a surrogate pair and rejects a non-positive limit", () => {
    expect(truncateText("ab😀cd", 4)).toBe(`ab😀${TRUNCATION_MARKER}`);
    expect(truncateText("abc", 3)).toBe("abc");
    expect(truncateText("abcd", 1)).toBe(TRUNCATION_MARKER);
    expect(() => truncateText("abc", 0)).toThrow(RangeError);
  });
});
