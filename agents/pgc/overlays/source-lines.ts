// A file's lines, for quoting the source a document cites.
import { MAX_BODY_LINES } from "./doc-draft.js";

export class SourceLines {
  private readonly lines: string[];

  constructor(content: string) {
    this.lines = content.split("\n");
  }

  /** Line `n` (1-based), "" past the end. */
  line(n: number): string {
    return this.lines[n - 1] ?? "";
  }

  /** Lines `from`..`to` inclusive, at most `max` of them. */
  text(from: number, to: number, max = MAX_BODY_LINES): string {
    return this.lines.slice(from - 1, Math.min(to, from + max - 1)).join("\n");
  }
}

/** The first non-empty line of a text, cut to `max` characters: a summary for a document's one-liner. */
export function firstLine(text: string, max = 160): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "")?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
