// Per-file extraction: parse one file and build the overlays that need nothing but that file (O1, O2, O4–O6).
import { createHash } from "node:crypto";
import { parseFile } from "../parse/parse-file.js";
import type { ParsedFile } from "../parse/parsed-file.js";
import { countLines } from "../scan/read-scope-file.js";
import { languageForPath } from "../scan/detect-language.js";
import type { FileRecord, IndexDoc, Language } from "../types.js";
import { DocIdAllocator } from "./doc-draft.js";
import { textRole } from "./file-roles.js";
import { mathematicalDocs } from "./mathematical-overlay.js";
import { missionDocs } from "./mission-overlay.js";
import { operationalDocs } from "./operational-overlay.js";
import { securityDocs } from "./security-overlay.js";
import { SourceLines } from "./source-lines.js";
import { structuralDocs } from "./structural-overlay.js";

export interface ExtractFileInput {
  /** Scope-relative POSIX path. */
  path: string;
  content: string;
  language?: Language;
  /** From the scanner (hash of the raw bytes); computed from `content` when absent. */
  sha256?: string;
  bytes?: number;
}

/** Everything one file contributes to its scope's PGC; reusable as long as its sha256 is unchanged. */
export interface FileExtraction {
  file: FileRecord;
  parsed: ParsedFile;
  /** O1, O2, O4, O5 and O6 documents of this file. */
  docs: IndexDoc[];
}

/** Pure given its input: the same path and content always give the same extraction. */
export async function extractFile(input: ExtractFileInput): Promise<FileExtraction> {
  const language = input.language ?? languageForPath(input.path);
  const parsed = await parseFile({ path: input.path, content: input.content, language });
  const file: FileRecord = {
    path: input.path,
    language,
    sha256: input.sha256 ?? createHash("sha256").update(input.content).digest("hex"),
    lines: countLines(input.content),
    bytes: input.bytes ?? Buffer.byteLength(input.content),
  };
  const source = new SourceLines(input.content);
  const role = language === "text" ? textRole(input.path, input.content) : null;
  const ids = new DocIdAllocator();
  const drafts = [
    ...structuralDocs(parsed, source),
    ...securityDocs(parsed, source),
    ...missionDocs(parsed, source, role),
    ...operationalDocs(parsed, input.content, role, source),
    ...mathematicalDocs(parsed, source, file.lines),
  ];
  return { file, parsed, docs: drafts.map((draft) => ids.assign(draft)) };
}
