// Index documents before they get ids, and the allocator that makes ids unique within a build.
import type { IndexDoc, Overlay } from "../types.js";

/** Body text of a document is cut to this many lines of source. */
export const MAX_BODY_LINES = 30;

export type DocDraft = Omit<IndexDoc, "id">;

/** Ids read `O1:function:mm/page_alloc.c:40-72:alloc_pages`; a repeat gets `#2`, `#3`… in build order. */
export class DocIdAllocator {
  private readonly seen = new Map<string, number>();

  assign(draft: DocDraft): IndexDoc {
    const base = `${draft.overlay}:${draft.section}:${draft.file_path}:${draft.line_start}-${draft.line_end}${
      draft.symbol ? `:${draft.symbol}` : ""
    }`;
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return { id: count === 1 ? base : `${base}#${count}`, ...draft };
  }
}

/** Shorthand for a draft; `path` is filled from the file. */
export function draft(
  overlay: Overlay,
  section: string,
  file: string,
  lines: { line_start: number; line_end: number },
  text: string,
  fields: Omit<IndexDoc["fields"], "path">,
  symbol?: string,
): DocDraft {
  return {
    overlay,
    section,
    file_path: file,
    line_start: lines.line_start,
    line_end: lines.line_end,
    ...(symbol ? { symbol } : {}),
    fields: { ...fields, path: file },
    text,
  };
}
