// Import resolution with a per-file memory: a file's imports resolve the same way while its content
// (sha256) and the scope's set of files are unchanged, so a rebuild resolves only the changed files'
// imports (each unresolved candidate costs a file-system check) and reuses the rest.
import { createHash } from "node:crypto";
import { linkImports, type ImportOutcome, type LinkedImports } from "../parse/link-imports.js";
import type { CrossScopeReference, ImportEdge } from "../types.js";
import type { FileExtraction } from "./extract-file.js";

/** How one file's imports resolved. */
export interface FileImportLinks {
  path: string;
  sha256: string;
  imports: ImportEdge[];
  references: CrossScopeReference[];
  /** [`${file}\0${target}`, outcome] in the order linkImports set them. */
  outcomes: [string, ImportOutcome][];
}

/** The per-file resolutions of a build, valid for the scope file set `scope_key` names. */
export interface ImportLinkMemory {
  scope_key: string;
  files: FileImportLinks[];
}

export interface LinkImportsReusingInput {
  root: string;
  extractions: readonly FileExtraction[];
  includeDirs?: readonly string[];
  previous?: ImportLinkMemory | null;
}

function scopeKey(paths: readonly string[], includeDirs: readonly string[] | undefined): string {
  return createHash("sha256").update(paths.join("\0")).update("\u0001").update((includeDirs ?? []).join("\0")).digest("hex").slice(0, 32);
}

/** One file's share of a linkImports result (every edge and reference names the file it comes from). */
function splitByFile(linked: LinkedImports): Map<string, Omit<FileImportLinks, "path" | "sha256">> {
  const byFile = new Map<string, Omit<FileImportLinks, "path" | "sha256">>();
  const of = (path: string) => {
    let entry = byFile.get(path);
    if (!entry) byFile.set(path, (entry = { imports: [], references: [], outcomes: [] }));
    return entry;
  };
  for (const edge of linked.imports) of(edge.file_path).imports.push(edge);
  for (const reference of linked.references) of(reference.from_file).references.push(reference);
  for (const [key, outcome] of linked.outcomes) of(key.slice(0, key.indexOf("\0"))).outcomes.push([key, outcome]);
  return byFile;
}

/** linkImports over the whole scope, resolving only files whose sha256 (or the scope's file set) changed. */
export async function linkImportsReusing(input: LinkImportsReusingInput): Promise<{ linked: LinkedImports; memory: ImportLinkMemory }> {
  const paths = input.extractions.map((extraction) => extraction.file.path);
  const key = scopeKey(paths, input.includeDirs);
  const before = new Map(input.previous?.scope_key === key ? input.previous.files.map((links) => [links.path, links]) : []);
  const changed = input.extractions.filter((extraction) => before.get(extraction.file.path)?.sha256 !== extraction.file.sha256);
  const fresh = splitByFile(
    await linkImports({ root: input.root, parsed: changed.map((extraction) => extraction.parsed), scopeFiles: new Set(paths), ...(input.includeDirs ? { includeDirs: input.includeDirs } : {}) }),
  );
  const linked: LinkedImports = { imports: [], references: [], outcomes: new Map() };
  const files = input.extractions.map(({ file }): FileImportLinks => {
    const reused = before.get(file.path);
    const links = reused && reused.sha256 === file.sha256 ? reused : { path: file.path, sha256: file.sha256, imports: [], references: [], outcomes: [], ...fresh.get(file.path) };
    linked.imports.push(...links.imports);
    linked.references.push(...links.references);
    for (const [outcomeKey, outcome] of links.outcomes) linked.outcomes.set(outcomeKey, outcome);
    return links;
  });
  return { linked, memory: { scope_key: key, files } };
}
