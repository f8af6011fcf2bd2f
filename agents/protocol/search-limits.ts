// Bounds of the search ops' messages (search.ts), apart so the zod schemas and the hand-written checks
// (search-shape.ts) share them.
export const MAX_QUESTION_TERMS = 64;
export const MAX_ENTRY_CANDIDATES = 50;
export const MAX_EXPAND_DEPTH = 8;
export const MAX_SEARCH_STEPS = 200;
export const MAX_SEARCH_LEADS = 64;
/** A call-site line is sent whole up to this many characters (longer lines are cut and cannot be checked). */
export const MAX_CALL_SITE_CHARS = 400;
/** Struct fields reported per entry at most. */
export const MAX_ENTRY_FIELDS = 8;
/** Expansions one `expand_batch` request carries at most (a request's CPU on the worker stays bounded). */
export const MAX_EXPAND_BATCH = 16;
/** A method step names at most this many of its class's bases (`class_bases`). */
export const MAX_CLASS_BASES = 8;
