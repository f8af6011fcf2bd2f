// Cross-file work of a scope: import resolution, cross-scope references, O3 lineage and O7 coherence.
import { lastName } from "../../protocol/index.js";
import { crossScopeCalls } from "../parse/cross-scope-calls.js";
import { beyondCodeBase, outcomeKey } from "../parse/link-imports.js";
import type { CallSite, CodeSymbol, CrossScopeReference, FieldBinding, FileRecord, ImportEdge, IndexDoc, Language, Overlay } from "../types.js";
import { OVERLAYS } from "../types.js";
import { coherenceDocs } from "./coherence-overlay.js";
import { DocIdAllocator } from "./doc-draft.js";
import type { FileExtraction } from "./extract-file.js";
import type { FileHistory, GitHistory } from "./git-history.js";
import { linkImportsReusing, type ImportLinkMemory } from "./import-links.js";
import { lineageDocs } from "./lineage-overlay.js";
import { SymbolIndex } from "./symbol-index.js";

export interface LinkScopeInput {
  /** Real path of the scope root. */
  root: string;
  extractions: readonly FileExtraction[];
  history?: GitHistory | null;
  includeDirs?: readonly string[];
  /** How the last build resolved each file's imports: reused for files whose sha256 is unchanged. */
  previousImportLinks?: ImportLinkMemory | null;
}

export interface ScopeStats {
  files: number;
  bytes: number;
  lines: number;
  languages: Partial<Record<Language, number>>;
  symbols: number;
  calls: number;
  imports: number;
  cross_scope_references: number;
  files_with_syntax_errors: number;
  docs_by_overlay: Record<Overlay, number>;
}

export interface ScopeExtraction {
  root: string;
  files: FileRecord[];
  symbols: CodeSymbol[];
  imports: ImportEdge[];
  calls: CallSite[];
  /** C: functions stored into struct fields, for calls through those fields. */
  bindings: FieldBinding[];
  docs: IndexDoc[];
  crossScopeReferences: CrossScopeReference[];
  history: FileHistory[];
  /** The per-file part, kept so an incremental rebuild re-extracts only files whose sha256 changed. */
  extractions: readonly FileExtraction[];
  /** How each file's imports resolved, kept so a rebuild resolves only changed files' imports. */
  importLinks: ImportLinkMemory;
  stats: ScopeStats;
}

const byLocation = (a: CrossScopeReference, b: CrossScopeReference): number =>
  a.from_file.localeCompare(b.from_file) || a.line - b.line || a.kind.localeCompare(b.kind) || a.target.localeCompare(b.target);

export async function linkScope(input: LinkScopeInput): Promise<ScopeExtraction> {
  const parsed = input.extractions.map((extraction) => extraction.parsed);
  const files = input.extractions.map((extraction) => extraction.file);
  const { linked, memory } = await linkImportsReusing({
    root: input.root,
    extractions: input.extractions,
    ...(input.includeDirs ? { includeDirs: input.includeDirs } : {}),
    previous: input.previousImportLinks ?? null,
  });
  const references = [...linked.references, ...crossScopeCalls(parsed, linked.outcomes)].sort(byLocation);
  // A stand-in for a standard module's accelerator (`except ImportError: def getencoding()` after `from
  // _locale import getencoding`) is the only code of the name there is to read: it stays an ordinary definition.
  const ofStandard = (symbol: CodeSymbol, module: string) => beyondCodeBase(linked.outcomes.get(outcomeKey(symbol.file_path, module)));
  const symbols = parsed.flatMap((file) => file.symbols).map((symbol) => (symbol.fallback_of !== undefined && ofStandard(symbol, symbol.fallback_of) ? withoutFallback(symbol) : symbol));
  const history = input.history ?? null;
  const fileDocs = input.extractions.flatMap((extraction) => extraction.docs);
  const ids = new DocIdAllocator();
  const scopeDocs = [
    ...lineageDocs({ parsed, files, imports: linked.imports, references, history, symbols: new SymbolIndex(symbols) }),
    ...coherenceDocs(parsed, fileDocs, history),
  ].map((draft) => ids.assign(draft));
  // The files' stand-ins for standard modules' names (above): a call of such a name calls the stand-in.
  const standIns = new Set(parsed.flatMap((file) => file.symbols).filter((symbol) => symbol.fallback_of !== undefined).map((symbol) => `${symbol.file_path}\0${symbol.name}`));
  // Where an imported module resolves inside the scope: a call through it names that file.
  const moduleFiles = new Map<string, string>();
  for (const edge of linked.imports) if (edge.resolved_path) moduleFiles.set(`${edge.file_path}\0${edge.target}`, edge.resolved_path);
  // A plain call of a parameter or variable of the calling function (`local`) calls no function of that
  // name; Python's dispatch through a name assigned a `getattr` (`method()`) is linked by its prefix. A
  // property read (`read`) can only call a method of the scope: one of a name no method has is a plain
  // field's value, not kept (most reads are).
  const methodNames = new Set(parsed.flatMap((file) => file.symbols.filter((symbol) => symbol.kind === "method").map((symbol) => symbol.name)));
  const calls = parsed.flatMap((file) =>
    file.calls.filter((call) => (!call.local || call.dispatch) && (!call.read || methodNames.has(lastName(call.callee)))).map(({ callee, caller, file_path, line, receiver_class, receiver_classes, receiver_call, imported_from, module_member, renamed, dispatch, held, error_path, read }): CallSite => {
      const module = module_member?.module ?? imported_from;
      const module_file = module === undefined ? undefined : moduleFiles.get(`${file_path}\0${module}`);
      // Through a standard or foreign module (`html.escape(…)`, `yaml.load(…)`), or a name imported from one
      // (`from textwrap import dedent`) that the file has no stand-in for.
      const through = module_member ? (module_member.imported ?? module_member.module) : standIns.has(`${file_path}\0${callee}`) ? undefined : imported_from;
      const standard = through !== undefined && beyondCodeBase(linked.outcomes.get(outcomeKey(file_path, through)));
      return { callee, caller, file_path, line, ...(receiver_class ? { receiver_class } : {}), ...(receiver_classes ? { receiver_classes } : {}), ...(receiver_call ? { receiver_call } : {}), ...(module_file ? { module_file } : {}), ...(standard ? { standard_module: true as const } : {}), ...(renamed ? { renamed } : {}), ...(dispatch ? { dispatch } : {}), ...(held ? { held } : {}), ...(error_path ? { error_path } : {}), ...(read ? { read } : {}) };
    }),
  );
  const docs = [...fileDocs, ...scopeDocs];
  return {
    root: input.root,
    files,
    symbols,
    imports: linked.imports,
    calls,
    bindings: parsed.flatMap((file) => file.bindings ?? []),
    docs,
    crossScopeReferences: references,
    history: files.flatMap((file) => history?.files.get(file.path) ?? []),
    extractions: input.extractions,
    importLinks: memory,
    stats: statsOf(files, parsed.filter((file) => file.has_syntax_errors).length, symbols, calls, linked.imports, references, docs),
  };
}

function withoutFallback(symbol: CodeSymbol): CodeSymbol {
  const { fallback_of: _, ...rest } = symbol;
  return rest;
}

function statsOf(
  files: readonly FileRecord[],
  withErrors: number,
  symbols: readonly CodeSymbol[],
  calls: readonly CallSite[],
  imports: readonly ImportEdge[],
  references: readonly CrossScopeReference[],
  docs: readonly IndexDoc[],
): ScopeStats {
  const languages: Partial<Record<Language, number>> = {};
  for (const file of files) languages[file.language] = (languages[file.language] ?? 0) + 1;
  const docsByOverlay = Object.fromEntries(OVERLAYS.map((overlay) => [overlay, 0])) as Record<Overlay, number>;
  for (const doc of docs) docsByOverlay[doc.overlay]++;
  return {
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    lines: files.reduce((sum, file) => sum + file.lines, 0),
    languages,
    symbols: symbols.length,
    calls: calls.length,
    imports: imports.length,
    cross_scope_references: references.length,
    files_with_syntax_errors: withErrors,
    docs_by_overlay: docsByOverlay,
  };
}
