// Public face of parsing: one file at a time, plus the cross-file linking of a scope's imports and calls.
export { parseFile, type ParseInput } from "./parse-file.js";
export { GrammarLoadError, isCodeLanguage, loadGrammar, type CodeLanguage } from "./grammars.js";
export type {
  AssertionSite,
  NoteSpan,
  ParsedCall,
  ParsedFile,
  ParsedImport,
  RiskFinding,
  TextChunk,
} from "./parsed-file.js";
export { chunkText, MAX_CHUNK_LINES, TARGET_CHUNK_LINES } from "./text-chunks.js";
export { riskRules, type RiskFamily, type RiskRule } from "./risk-rules.js";
export { BOUND_PATTERN } from "./bound-notes.js";
export { DEFAULT_INCLUDE_DIRS, importCandidates, isStandardLibrary } from "./resolve-imports.js";
export { linkImports, type ImportOutcome, type LinkedImports } from "./link-imports.js";
export { crossScopeCalls } from "./cross-scope-calls.js";
export { isCLibraryName } from "./stoplists/c-library.js";
