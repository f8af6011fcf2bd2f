// State shared by one language extractor while it walks one file's captures.
import type { Node } from "web-tree-sitter";
import type { CodeSymbol } from "../types.js";
import { CommentRuns } from "./comment-runs.js";
import { DefinitionStack } from "./definition-stack.js";
import { endLine, startLine } from "./node-text.js";
import { boundNote } from "./bound-notes.js";
import type { NoteSpan, ParsedFile } from "./parsed-file.js";

export class ExtractContext {
  readonly comments: CommentRuns;
  readonly stack = new DefinitionStack();
  private lastClaim: { line: number; doc: NoteSpan | null } = { line: -1, doc: null };

  constructor(
    readonly content: string,
    readonly out: ParsedFile,
  ) {
    this.comments = new CommentRuns(content);
  }

  get path(): string {
    return this.out.path;
  }

  /** Records a comment for doc attachment and, when it states a bound, as an O6 note. */
  addComment(node: Node): void {
    this.comments.add(node);
    const note = boundNote(node.text, startLine(node));
    if (note) this.out.bounds.push(note);
  }

  /** The doc comment above `line`; definitions starting on the same line (typedef + struct) share it. */
  docAbove(line: number): NoteSpan | null {
    if (this.lastClaim.line === line) return this.lastClaim.doc;
    const doc = this.comments.claimFor(line);
    this.lastClaim = { line, doc };
    return doc;
  }

  /** Adds a symbol spanning `outer`, with the doc comment above it unless `doc` is given. */
  addSymbol(outer: Node, symbol: Omit<CodeSymbol, "file_path" | "line_start" | "line_end" | "doc">, doc?: NoteSpan | null): CodeSymbol {
    const lineStart = startLine(outer);
    const attached = doc === undefined ? this.docAbove(lineStart) : doc;
    const full: CodeSymbol = {
      ...symbol,
      doc: attached?.text ?? "",
      file_path: this.out.path,
      line_start: lineStart,
      line_end: endLine(outer),
    };
    if (attached) {
      full.doc_line_start = attached.line_start;
      full.doc_line_end = attached.line_end;
    }
    this.out.symbols.push(full);
    return full;
  }

  /** The enclosing function's name, or null at file level. */
  caller(): string | null {
    return this.stack.enclosingFunction()?.name ?? null;
  }

  /**
   * A function defined inside another (a closure a builder returns, Python's nested `def`) is reached from
   * it: the enclosing function's body holds the definition, so the definition's first line stands as a call
   * from the enclosing function. Call before the new definition is pushed; nothing at file level.
   */
  definedInside(name: string, node: Node): void {
    const caller = this.caller();
    if (caller === null) return;
    this.out.calls.push({ callee: name, caller, file_path: this.out.path, line: startLine(node), plain: true, local: false });
  }

  /** Findings recorded out of source order (resolved after the pass) are put back in line order. */
  finish(): void {
    this.out.module_doc ??= this.comments.moduleDoc();
    // Calls found at different times of the pass (definitions, then the resolved calls, then property reads) in line order.
    this.out.calls.sort((a, b) => a.line - b.line);
    this.out.risks.sort((a, b) => a.line_start - b.line_start);
    this.out.assertions.sort((a, b) => a.line_start - b.line_start);
  }
}
