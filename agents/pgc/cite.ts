// Turning retrieved documents into checkable citations: the cited lines are re-read from the file,
// hashed (citationHash of sliceLines), and a file that changed since indexing is never cited.
import { readFile } from "node:fs/promises";
import { citationHash, sliceLines, truncateText, MAX_CITATION_CHARS, type Citation } from "../protocol/index.js";
import type { RetrievedHit } from "./retrieval/index.js";
import { resolveInsideScope } from "./scan/index.js";
import { sha256Hex } from "./store/blobs.js";

/** Lines of the cited text shown in a citation's content after its one-line summary. */
export const EXCERPT_LINES = 6;

export class FileReader {
  private readonly cache = new Map<string, Promise<string | null>>();

  constructor(
    private readonly root: string,
    /** sha256 of each file at indexing time, by root-relative path. */
    private readonly indexed: ReadonlyMap<string, string>,
  ) {}

  /** The file's text, or null when it is gone, escapes the scope, or changed since it was indexed. */
  read(path: string): Promise<string | null> {
    let pending = this.cache.get(path);
    if (!pending) {
      pending = this.load(path);
      this.cache.set(path, pending);
    }
    return pending;
  }

  private async load(path: string): Promise<string | null> {
    try {
      const absolute = await resolveInsideScope(this.root, path);
      const bytes = await readFile(absolute);
      if (sha256Hex(bytes) !== this.indexed.get(path)) return null;
      return bytes.toString("utf8");
    } catch {
      return null;
    }
  }
}

function relevanceOf(hit: RetrievedHit): string {
  if (hit.similarity_kind === "exact") return `names ${hit.matched_terms.join(", ")} exactly`;
  return `matches ${hit.matched_terms.slice(0, 6).join(", ")}`;
}

export async function citeHit(hit: RetrievedHit, reader: FileReader): Promise<Citation | null> {
  const text = await reader.read(hit.doc.file_path);
  if (text === null) return null;
  const { line_start: start, line_end: end } = hit.doc;
  let cited: string;
  try {
    cited = sliceLines(text, start, end);
  } catch {
    return null; // the document names lines the file does not have: never cite them
  }
  const excerpt = cited.split("\n").slice(0, EXCERPT_LINES).join("\n");
  return {
    overlay: hit.doc.overlay,
    content: truncateText(`${hit.doc.text}\n${excerpt}`, MAX_CITATION_CHARS),
    relevance: relevanceOf(hit),
    file_path: hit.doc.file_path,
    line_start: start,
    line_end: end,
    sha256: citationHash(cited),
    similarity: hit.similarity,
    similarity_kind: hit.similarity_kind,
  };
}

/** True when the file's current text at the cited lines hashes to the citation's sha256. */
export async function verifyCitation(root: string, citation: Pick<Citation, "file_path" | "line_start" | "line_end" | "sha256">): Promise<boolean> {
  try {
    const text = await readFile(await resolveInsideScope(root, citation.file_path), "utf8");
    return citationHash(sliceLines(text, citation.line_start, citation.line_end)) === citation.sha256;
  } catch {
    return false;
  }
}
