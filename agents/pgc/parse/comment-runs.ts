// Groups adjacent comments into runs so a definition can claim the run right above it as its doc.
import type { Node } from "web-tree-sitter";
import { stripCommentMarkers } from "./comment-text.js";
import { endLine, startLine, startsItsLine } from "./node-text.js";
import type { NoteSpan } from "./parsed-file.js";

/** The first comment run counts as the module's description only if it starts this close to the top. */
const MODULE_DOC_MAX_START_LINE = 3;

interface CommentRun {
  texts: string[];
  line_start: number;
  line_end: number;
  claimed: boolean;
}

export class CommentRuns {
  private current: CommentRun | null = null;
  private first: CommentRun | null = null;

  constructor(private readonly content: string) {}

  /** Adds a comment; a comment after code on the same line ends the run instead of joining it. */
  add(node: Node): void {
    if (!startsItsLine(this.content, node)) {
      this.current = null;
      return;
    }
    const from = startLine(node);
    const to = endLine(node);
    if (this.current && from <= this.current.line_end + 1) {
      this.current.texts.push(node.text);
      this.current.line_end = to;
      return;
    }
    this.current = { texts: [node.text], line_start: from, line_end: to, claimed: false };
    this.first ??= this.current;
  }

  /** The run ending on the line just above `definitionLine`, stripped; it is claimed and not offered again. */
  claimFor(definitionLine: number): NoteSpan | null {
    const run = this.current;
    if (!run || run.claimed || run.line_end !== definitionLine - 1) return null;
    run.claimed = true;
    const text = run.texts.map(stripCommentMarkers).filter((part) => part !== "").join("\n");
    return text === "" ? null : { text, line_start: run.line_start, line_end: run.line_end };
  }

  /** The file's opening comment when no definition claimed it (a file header, not a function's doc). */
  moduleDoc(): NoteSpan | null {
    const run = this.first;
    if (!run || run.claimed || run.line_start > MODULE_DOC_MAX_START_LINE) return null;
    const text = run.texts.map(stripCommentMarkers).filter((part) => part !== "").join("\n");
    return text === "" ? null : { text, line_start: run.line_start, line_end: run.line_end };
  }
}
