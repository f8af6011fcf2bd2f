// O4 mission: what the code is for, in its authors' words: READMEs, docs, module docs and doc comments.
import type { ParsedFile } from "../parse/parsed-file.js";
import { type DocDraft, draft } from "./doc-draft.js";
import type { TextRole } from "./file-roles.js";
import { firstLine, type SourceLines } from "./source-lines.js";
import { displayName } from "./structural-overlay.js";

/** Sections of O4 documents written in prose (as opposed to doc comments tied to one symbol). */
export const PROSE_SECTIONS: ReadonlySet<string> = new Set(["readme", "doc_file", "module_doc", "text"]);
const PROSE_ROLES: ReadonlySet<TextRole> = new Set(["readme", "doc_file", "text"]);

function moduleDocs(parsed: ParsedFile, source: SourceLines): DocDraft[] {
  const doc = parsed.module_doc;
  if (!doc) return [];
  const text = `module_doc:${parsed.path} | ${firstLine(doc.text)}`;
  return [draft("O4", "module_doc", parsed.path, doc, text, { name: parsed.path, doc: doc.text, body: source.text(doc.line_start, doc.line_end) })];
}

function docCommentDocs(parsed: ParsedFile): DocDraft[] {
  return parsed.symbols
    .filter((symbol) => symbol.doc !== "" && symbol.doc_line_start !== undefined)
    .map((symbol) => {
      const lines = {
        line_start: Math.min(symbol.doc_line_start ?? symbol.line_start, symbol.line_start),
        line_end: Math.max(symbol.doc_line_end ?? symbol.line_start, symbol.line_start),
      };
      const text = `doc_comment:${displayName(symbol)} | ${firstLine(symbol.doc)} | file:${parsed.path}:${lines.line_start}`;
      return draft("O4", "doc_comment", parsed.path, lines, text, {
        name: displayName(symbol),
        signature: symbol.signature,
        doc: symbol.doc,
      }, symbol.name);
    });
}

function proseDocs(parsed: ParsedFile, source: SourceLines, role: TextRole): DocDraft[] {
  return parsed.chunks.map((chunk) => {
    const body = source.text(chunk.line_start, chunk.line_end, Number.MAX_SAFE_INTEGER);
    const title = chunk.heading ?? firstLine(body, 80);
    const text = `${role}:${parsed.path} | ${title} | lines:${chunk.line_start}-${chunk.line_end}`;
    return draft("O4", role, parsed.path, chunk, text, { name: title, body });
  });
}

/** `role` is the text role for text files and null for code files. */
export function missionDocs(parsed: ParsedFile, source: SourceLines, role: TextRole | null): DocDraft[] {
  const prose = role !== null && PROSE_ROLES.has(role) ? proseDocs(parsed, source, role) : [];
  return [...moduleDocs(parsed, source), ...docCommentDocs(parsed), ...prose];
}
