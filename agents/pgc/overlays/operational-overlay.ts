// O5 operational: how the code is built, configured, scripted and run in CI.
import type { ParsedFile, TextChunk } from "../parse/parsed-file.js";
import { chunkText } from "../parse/text-chunks.js";
import { type DocDraft, draft } from "./doc-draft.js";
import { isBuildScript, type TextRole } from "./file-roles.js";
import { kconfigItems } from "./operational/kconfig-items.js";
import { makefileItems } from "./operational/makefile-items.js";
import type { OperationalItem } from "./operational/operational-item.js";
import { packageJsonItems } from "./operational/package-json-items.js";
import { cmakeItems, sectionedConfigItems } from "./operational/sectioned-config-items.js";
import { workflowItems } from "./operational/workflow-items.js";
import { firstLine, type SourceLines } from "./source-lines.js";
import path from "node:path";

/** Licence tags say nothing about what a file does, so they never make its summary. */
const LICENCE_LINE = /^.*SPDX-License-Identifier.*$/gm;

type ChunkSection = OperationalItem["section"];

/** Files indexed whole, in chunks, under one section. */
const CHUNKED_ROLES: ReadonlyMap<TextRole, ChunkSection> = new Map([
  ["dockerfile", "build_target"],
  ["shell", "script"],
  ["config", "config"],
]);

function chunkItems(filePath: string, chunks: readonly TextChunk[], section: ChunkSection, source: SourceLines): OperationalItem[] {
  const base = path.posix.basename(filePath);
  return chunks.map((chunk) => ({
    section,
    name: chunks.length > 1 ? `${base}:${chunk.line_start}` : base,
    summary: firstLine(source.text(chunk.line_start, chunk.line_end).replace(LICENCE_LINE, ""), 120),
    line_start: chunk.line_start,
    line_end: chunk.line_end,
  }));
}

function itemsFor(parsed: ParsedFile, content: string, role: TextRole | null, source: SourceLines): OperationalItem[] {
  const lines = content.split("\n");
  if (role === null) {
    return isBuildScript(parsed.path) ? chunkItems(parsed.path, chunkText(content), "build_target", source) : [];
  }
  const structured =
    role === "makefile" ? makefileItems(lines)
    : role === "kconfig" ? kconfigItems(lines)
    : role === "package_json" ? packageJsonItems(content, lines)
    : role === "workflow" ? workflowItems(lines)
    : role === "cmake" ? cmakeItems(lines)
    : role === "ini_like" ? sectionedConfigItems(lines)
    : null;
  if (structured && structured.length > 0) return structured;
  const chunkSection = CHUNKED_ROLES.get(role) ?? (structured ? "config" : null);
  return chunkSection ? chunkItems(parsed.path, parsed.chunks, chunkSection, source) : [];
}

/** `role` is the text role for text files and null for code files. */
export function operationalDocs(parsed: ParsedFile, content: string, role: TextRole | null, source: SourceLines): DocDraft[] {
  return itemsFor(parsed, content, role, source).map((item) => {
    const text = `${item.section}:${item.name} | ${item.summary} | file:${parsed.path}:${item.line_start}`;
    return draft("O5", item.section, parsed.path, item, text, {
      name: item.name,
      signature: item.summary,
      body: source.text(item.line_start, item.line_end),
    });
  });
}
