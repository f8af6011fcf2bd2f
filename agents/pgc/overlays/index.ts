// Public face of PGC extraction: a whole scope, or one file for incremental rebuilds, and the overlay builders.
export { extractScope, type ExtractLogger, type ExtractScopeOptions, type ScopeExtractionResult } from "./extract-scope.js";
export { extractFile, type ExtractFileInput, type FileExtraction } from "./extract-file.js";
export { linkScope, type LinkScopeInput, type ScopeExtraction, type ScopeStats } from "./link-scope.js";
export { readGitHistory, parseGitLog, MAX_HISTORY_COMMITS, type CommitSummary, type FileHistory, type GitHistory } from "./git-history.js";
export { structuralText, displayName } from "./structural-overlay.js";
export { RECENT_CHANGE_WINDOW_DAYS } from "./coherence-overlay.js";
export { MAX_CHAIN_CALLERS } from "./lineage-overlay.js";
export { MAX_BODY_LINES } from "./doc-draft.js";
export { textRole, type TextRole } from "./file-roles.js";
