// Every bound of the delegation protocol in one place; each name carries its unit.
// "Chars" are Unicode code points (what Python's len() and Go's utf8.RuneCountInString count);
// "bytes" are UTF-8 bytes. Both ends enforce the same bounds, on encode and on decode.

/** Most citations one TaskResponse carries (seed 002 §2: prevents IPC bloat). */
export const MAX_CITATIONS = 10;
/** Longest citation `content`; the file path and line range give the full context. */
export const MAX_CITATION_CHARS = 500;
/** Longest citation `relevance` note. */
export const MAX_RELEVANCE_CHARS = 500;

/** Longest DelegatedTask `task` text (64 KiB). */
export const MAX_TASK_BYTES = 65_536;
/** Longest DelegatedTask `context` (64 KiB). */
export const MAX_CONTEXT_BYTES = 65_536;
/** Longest TaskResponse `result` (64 KiB). */
export const MAX_RESULT_BYTES = 65_536;

/** Longest task id, agent id or manifest id. */
export const MAX_ID_CHARS = 256;
/** Longest relative file path in a citation or manifest entry. */
export const MAX_PATH_CHARS = 1_024;

/** Most items in a short-text list: acceptance criteria, query hints, queries executed, warnings. */
export const MAX_LIST_ITEMS = 32;
/** Longest item of such a list. */
export const MAX_ITEM_CHARS = 1_000;
/** Most analysis hints in one task. */
export const MAX_ANALYSIS_HINTS = 16;
/** Longest analysis-hint target or algebra expression. */
export const MAX_HINT_CHARS = 1_000;
/** Largest analysis-hint `options`, measured as its JSON text (JSON.stringify) in UTF-8 bytes. */
export const MAX_HINT_OPTIONS_BYTES = 4_096;

/** Most key findings; seed 003 hands off 3-7 of them, never the whole output. */
export const MAX_KEY_FINDINGS = 10;
/** Longest key finding: one line, not a paragraph. */
export const MAX_KEY_FINDING_CHARS = 300;

/** Longest error message or clarification question. */
export const MAX_MESSAGE_CHARS = 2_000;
/** Most options offered with a clarification request. */
export const MAX_CLARIFICATION_OPTIONS = 10;
/** Most entries in a `metrics` object. */
export const MAX_METRICS = 32;

/** Deepest delegation: depth 0 is the primary agent; an agent at depth 3 must work inline (seed 004). */
export const MAX_DELEGATION_DEPTH = 3;

/** Most sources in one ask result. */
export const MAX_ASK_SOURCES = 100;
/** Longest ask answer, question or source text (64 KiB each). */
export const MAX_ASK_TEXT_BYTES = 65_536;

/** Appended by truncation helpers; one code point, so a truncated text is exactly at its limit. */
export const TRUNCATION_MARKER = "\u2026";

/**
 * How long a worker keeps a task's reply for a manager that has not acknowledged it (op `ack`, DELEGATION.md
 * §14): long enough for a manager to be restarted and resume its journal, or for a task's client to send it
 * again after a failure, and get the reply rather than a second run. The reply cache's byte bound still applies.
 */
export const TASK_REPLY_RETENTION_MS = 10 * 60_000;
