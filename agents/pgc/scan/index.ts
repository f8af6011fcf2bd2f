// Public face of scope scanning: walking a scope safely and reading its files.
export { ScopeNotFoundError, ScopeViolationError } from "./scan-errors.js";
export { isInsideRoot, normalizeScopePath, realRoot, resolveExistingInsideRootSync, resolveInsideScope } from "./resolve-inside-scope.js";
export { hasBinaryExtension, isHeaderPath, languageForPath } from "./detect-language.js";
export { countLines, DEFAULT_MAX_FILE_BYTES, readScopeFile, type ScannedFile } from "./read-scope-file.js";
export { scanScope, SKIPPED_DIRECTORY_NAMES, type ScanOptions, type ScanResult, type ScanStats } from "./walk-scope.js";
export { SOURCE_CACHE_BYTES, SOURCE_CACHE_FILES, SourceReader, type SourceReaderOptions } from "./source-reader.js";
