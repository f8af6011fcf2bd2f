// Turning retrieved documents into checkable citations: the cited lines are re-read from the file,
// hashed (citationHash of sliceLines), and a file that changed since indexing is never cited. A file
// that is not valid UTF-8 is not cited either (its decoded text no longer hashes as its bytes did).
import { readFile } from "node:fs/promises";
import { citationHash, sliceLines, truncateText, MAX_CITATION_CHARS, type Citation } from "../protocol/index.js";
import type { RetrievedHit } from "./retrieval/index.js";
import { resolveInsideScope, SourceReader } from "./scan/index.js";
import { sha256Hex } from "./store/blobs.js";

/** Lines of the cited text shown in a citation's content after its one-line summary. */
export const EXCERPT_LINES = 6;

export class FileReader {
  private readonly sources: SourceReader;

  constructor(
    root: string,
    /** sha256 of each file at indexing time, by root-relative path. */
    indexed: ReadonlyMap<string, string>,
  ) {
    // Judged once per version of a file: an edit made while the worker runs is seen at the next read.
    this.sources = new SourceReader(root, { accept: (path, text) => sha256Hex(Buffer.from(text, "utf8")) === indexed.get(path) });
  }

  /** The file's text, or null when it is gone, escapes the scope, or differs from what was indexed. */
  read(path: string): Promise<string | null> {
    return Promise.resolve(this.sources.read(path));
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
