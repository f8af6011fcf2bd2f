// Resolves every include/import of a scope against the scope's files; the rest become cross-scope references.
import { stat } from "node:fs/promises";
import { resolveInsideScope } from "../scan/resolve-inside-scope.js";
import type { CrossScopeReference, ImportEdge } from "../types.js";
import { ForeignModules } from "./foreign-modules.js";
import type { ParsedFile, ParsedImport } from "./parsed-file.js";
import { importCandidates, isRelativeSpec, isStandardLibrary, referenceTarget } from "./resolve-imports.js";

/**
 * How one file's import of a module ended: inside the scope, in a standard library, in another package
 * than the code base (`foreign`: foreign-modules.ts), or outside the scope (another scope's, or unknown).
 */
export type ImportOutcome = "inside" | "standard" | "foreign" | "outside";

/** Whether an import's names are none of the code base's: a standard library's, or a foreign package's. */
export function beyondCodeBase(outcome: ImportOutcome | undefined): boolean {
  return outcome === "standard" || outcome === "foreign";
}

export interface LinkedImports {
  imports: ImportEdge[];
  references: CrossScopeReference[];
  /** Keyed by `${file}\0${target}`, for tracing imported calls. */
  outcomes: Map<string, ImportOutcome>;
}

export interface LinkImportsInput {
  root: string;
  parsed: readonly ParsedFile[];
  scopeFiles: ReadonlySet<string>;
  includeDirs?: readonly string[];
}

export const outcomeKey = (file: string, target: string): string => `${file}\0${target}`;

export async function linkImports(input: LinkImportsInput): Promise<LinkedImports> {
  const linked: LinkedImports = { imports: [], references: [], outcomes: new Map() };
  const exists = existenceChecker(input.root);
  const foreign = new ForeignModules(input.root, exists);
  for (const file of input.parsed) {
    for (const edge of file.imports) await linkOne(input, file, edge, linked, exists, foreign);
    if (file.language !== "python") continue;
    // Only a module that is a file of the code base: else the name is one the package defines.
    for (const edge of submoduleImports(file, linked.outcomes)) await linkOne(input, file, edge, linked, exists, foreign, { onlyFiles: true });
  }
  return linked;
}

/**
 * Python: `from . import helpers, payload` imports each name, and a name may be a submodule of its own,
 * in another scope than the package's `__init__.py` (aiohttp's `helpers.parse_mimetype(…)` in
 * client_reqrep.py). The statement's one outcome says where the first of them is; each submodule a call
 * goes through (`helpers.parse_mimetype`) is linked as an import of its own (`.helpers`), so the call
 * leaves the scope, or resolves in it, by where that module is.
 */
function submoduleImports(file: ParsedFile, outcomes: ReadonlyMap<string, ImportOutcome>): ParsedImport[] {
  const out = new Map<string, ParsedImport>();
  for (const call of file.calls) {
    const member = call.module_member;
    if (!member || member.imported === undefined || member.module === member.imported) continue;
    if (outcomes.has(outcomeKey(file.path, member.module)) || out.has(member.module)) continue;
    const statement = file.imports.find((edge) => edge.target === member.imported && (edge.names?.length ?? 0) > 0);
    if (statement) out.set(member.module, { kind: statement.kind, target: member.module, file_path: statement.file_path, line: statement.line, system: false });
  }
  return [...out.values()];
}

async function linkOne(
  input: LinkImportsInput,
  file: ParsedFile,
  edge: ParsedImport,
  linked: LinkedImports,
  exists: (candidate: string) => Promise<boolean>,
  foreign: ForeignModules,
  { onlyFiles = false } = {},
): Promise<void> {
  const candidates = importCandidates(edge, file.language, input.includeDirs);
  const resolved = candidates.find((candidate) => input.scopeFiles.has(candidate));
  // A standard-library name is the code base's own module when the root has it (indexing the standard
  // library itself, or a project that vendors a module of that name): then it is another scope's.
  const outside = resolved ? undefined : await firstExisting(candidates, exists);
  if (onlyFiles && !resolved && outside === undefined) return;
  const base: ImportEdge = { kind: edge.kind, target: edge.target, file_path: edge.file_path, line: edge.line, ...(edge.reexport ? { reexport: true } : {}), ...(edge.reexported ? { reexported: edge.reexported } : {}) };
  linked.imports.push(resolved ? { ...base, resolved_path: resolved } : base);
  const outcome: ImportOutcome = resolved ? "inside" : outside !== undefined ? "outside" : isStandardLibrary(edge, file.language) ? "standard" : (await isForeign(edge, file, foreign)) ? "foreign" : "outside";
  linked.outcomes.set(outcomeKey(edge.file_path, edge.target), outcome);
  // A foreign module is still imported (the topology lists what a scope depends on); its names are no calls of the code base.
  if (outcome === "inside" || outcome === "standard") return;
  const reference: CrossScopeReference = {
    kind: edge.kind,
    target: referenceTarget(edge, file.language),
    from_file: edge.file_path,
    line: edge.line,
    spec: edge.target,
  };
  if (outside !== undefined) reference.resolved_outside = outside;
  linked.references.push(reference);
}

async function isForeign(edge: ParsedImport, file: ParsedFile, foreign: ForeignModules): Promise<boolean> {
  if (edge.kind === "include") return false;
  if (file.language === "python") return !edge.target.startsWith(".") && foreign.python(edge.target);
  if (file.language !== "typescript" && file.language !== "tsx" && file.language !== "javascript") return false;
  return !isRelativeSpec(edge.target) && !edge.target.startsWith("/") && foreign.script(edge.target, edge.file_path);
}

async function firstExisting(candidates: readonly string[], exists: (candidate: string) => Promise<boolean>): Promise<string | undefined> {
  for (const candidate of candidates) if (await exists(candidate)) return candidate;
  return undefined;
}

/** Checks root-relative files for existence, once each, never following a path out of the root. */
function existenceChecker(root: string): (candidate: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>();
  return (candidate) => {
    let answer = known.get(candidate);
    if (!answer) {
      answer = resolveInsideScope(root, candidate)
        .then(async (absolute) => (await stat(absolute)).isFile())
        .catch(() => false);
      known.set(candidate, answer);
    }
    return answer;
  };
}
