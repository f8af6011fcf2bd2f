// What one search request cites: functions (whole, or their head when long) and call lines, each hashed
// from the file's text. One citer serves one request and reads each file once for it: an expansion cites
// some 40 lines, most of them in two or three files, and each read of the worker's reader checks the file
// on disk again (an lstat, and its path against the scope).
import { citationHash, dispatchPrefix, MAX_CALL_SITE_CHARS, sliceLines, type CallSiteRef, type EntryCandidate, type SearchStep } from "../../protocol/index.js";
import type { TermMatch } from "../../search/relevance.js";
import type { BindingSite, GraphNode } from "./call-graph.js";
import type { AliasSite } from "./reexports.js";

/** A function longer than this is cited by its head, not whole (the call line is cited on its own). */
export const MAX_CITED_LINES = 80;
/** Lines of a long function's head that are cited: its signature and first statements. */
export const HEAD_LINES = 12;
/** Lines of decorators looked past for the line a nested function is defined on. */
const MAX_DECORATOR_LINES = 8;

export interface SourceText {
  /** The file's text as indexed, or null when it changed or is gone (then nothing of it is cited). */
  read(path: string): Promise<string | null>;
}

export type CitedLine = Omit<CallSiteRef, "bound_at">;

/** Where a function is: its names, kind and lines, as a step or an entry candidate names it. */
export function placeOf(node: GraphNode): Omit<EntryCandidate, "matches"> {
  return {
    symbol: node.name,
    qualified: node.qualified,
    kind: node.kind,
    file_path: node.file_path,
    line_start: node.line_start,
    line_end: node.line_end,
    ...(node.address_taken ? { address_taken: true as const } : {}),
    ...(node.class_bases ? { class_bases: node.class_bases } : {}),
  };
}

export class LineCiter {
  private readonly texts = new Map<string, Promise<string | null>>();

  constructor(private readonly source: SourceText) {}

  private read(path: string): Promise<string | null> {
    let text = this.texts.get(path);
    if (!text) this.texts.set(path, (text = this.source.read(path)));
    return text;
  }

  /** A function as a step: its lines (its head past MAX_CITED_LINES), hashed; null when its file cannot be cited. */
  async step(node: GraphNode, matches: TermMatch[]): Promise<SearchStep | null> {
    const text = await this.read(node.file_path);
    if (text === null) return null;
    const lines = node.line_end - node.line_start + 1;
    const end = lines <= MAX_CITED_LINES ? node.line_end : node.line_start + HEAD_LINES - 1;
    try {
      const sha256 = citationHash(sliceLines(text, node.line_start, end));
      return { ...placeOf(node), cite: { line_start: node.line_start, line_end: end, sha256 }, matches };
    } catch {
      return null;
    }
  }

  /**
   * A call line, cited; through a C struct field, with the line that stored the callee into it; by a name
   * a re-export or an import gave the callee, with the line renaming it.
   */
  async callSite(file: string, line: number, via: { bound?: BindingSite; alias?: AliasSite; defines?: true } = {}): Promise<CallSiteRef | null> {
    const site = await this.line(file, line);
    if (!site) return null;
    const bound = via.bound ? await this.line(via.bound.file_path, via.bound.line) : null;
    const alias = via.alias ? await this.line(via.alias.file_path, via.alias.line) : null;
    if ((via.bound && !bound) || (via.alias && !alias)) return null;
    return { ...site, ...(via.bound && bound ? { bound_at: { field: via.bound.field, ...bound } } : {}), ...(via.alias && alias ? { alias_at: { name: via.alias.name, ...alias } } : {}), ...(via.defines ? { defines: true as const } : {}) };
  }

  /** The line naming a function where it is defined: its first, or the `def` under its decorators (`@functools.wraps(func)`). */
  async definitionLine(node: GraphNode): Promise<number> {
    const text = await this.read(node.file_path);
    if (text === null) return node.line_start;
    const lines = text.split("\n");
    const names = new RegExp(`(^|[^\\w$])${node.name.replace(/[$]/g, "\\$")}([^\\w$]|$)`);
    for (let line = node.line_start; line <= Math.min(node.line_end, node.line_start + MAX_DECORATOR_LINES); line++) if (names.test(lines[line - 1] ?? "")) return line;
    return node.line_start;
  }

  /**
   * The line a binding is cited at: where a C function was stored into the field, or, for a Python
   * dispatch's pseudo-field, where the dispatched method is defined (its `def`, under any decorators).
   */
  async bindingLine(site: BindingSite, node: GraphNode): Promise<number> {
    return dispatchPrefix(site.field) === null ? site.line : this.definitionLine(node);
  }

  /**
   * Of the lines a caller calls one callee on, the one bearing most on the question (`bears` of its text):
   * requests' `Response.text` reads `self.content` in a test and in `str(self.content, encoding, …)`, and
   * a question about the encoding is cited the second. The first of equals; `first` alone when the file
   * cannot be read.
   */
  async bestLine(file: string, first: number, also: readonly number[] | undefined, bears: (text: string) => number): Promise<number> {
    if (!also?.length) return first;
    const text = await this.read(file);
    if (text === null) return first;
    // One line at a time through the memoized line table: a kernel file is not split for each call.
    const lineText = (line: number) => {
      try {
        return sliceLines(text, line, line);
      } catch {
        return "";
      }
    };
    let best = first;
    let bestScore = bears(lineText(first));
    for (const line of also) {
      const score = bears(lineText(line));
      if (score > bestScore) [best, bestScore] = [line, score];
    }
    return best;
  }

  /** One line, cited: its text (cut at MAX_CALL_SITE_CHARS) and the hash of the whole line. */
  async line(file: string, line: number): Promise<CitedLine | null> {
    const text = await this.read(file);
    if (text === null) return null;
    try {
      const whole = sliceLines(text, line, line);
      return { file_path: file, line, text: whole.slice(0, MAX_CALL_SITE_CHARS), sha256: citationHash(whole) };
    } catch {
      return null;
    }
  }
}
