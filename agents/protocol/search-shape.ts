// Hand-written checks of the search ops' messages (search.ts), which cross the bus many times per question:
// each accepts only what its zod schema accepts and leaves nothing for zod to change, so a message it passes
// is used as msgpack decoded it. Anything else (an unknown or misspelt key, a null for an absent field, any
// defect, a value with `undefined` in it) goes through zod, which alone says what is wrong. Validating an
// expand result with zod cost the manager about a third of its time per question. Bounds on text are on
// .length (UTF-16 units, never fewer than zod's code points), so a string these pass zod passes too.
import { finite, int, isPlain, keysWithin, list, optional, scopePath as path, sha256, text, type Plain } from "./shape-helpers.js";
import {
  MAX_CALL_SITE_CHARS,
  MAX_CLASS_BASES,
  MAX_ENTRY_CANDIDATES,
  MAX_ENTRY_FIELDS,
  MAX_EXPAND_BATCH,
  MAX_EXPAND_DEPTH,
  MAX_QUESTION_TERMS,
  MAX_SEARCH_LEADS,
  MAX_SEARCH_STEPS,
} from "./search-limits.js";

const name = (v: unknown) => text(v, 300, 1);
const line = (v: unknown) => int(v, 1);
const bool = (v: unknown) => typeof v === "boolean";

const TERM_KEYS = new Set(["term", "forms", "weight", "name", "fragment"]);
const term = (v: unknown) =>
  isPlain(v) && keysWithin(v, TERM_KEYS) && text(v["term"], 200, 1) && list(v["forms"], 16, (f) => text(f, 64, 1)) && finite(v["weight"], 0, 1_000) && bool(v["name"]) && optional(v, "fragment", bool);

const QUESTION_KEYS = new Set(["text", "intent", "names", "terms"]);
const question = (v: unknown) =>
  isPlain(v) && keysWithin(v, QUESTION_KEYS) && text(v["text"], 4_000, 1) && (v["intent"] === "how" || v["intent"] === "callers") && list(v["names"], MAX_QUESTION_TERMS, name) && list(v["terms"], MAX_QUESTION_TERMS, term);

const FIELDS = new Set(["symbol", "bound", "name", "container", "file", "dir", "doc", "body"]);
const MATCH_KEYS = new Set(["term", "field", "matched", "strength"]);
const match = (v: unknown) => isPlain(v) && keysWithin(v, MATCH_KEYS) && text(v["term"], 200, 1) && FIELDS.has(v["field"] as string) && text(v["matched"], 200, 1) && finite(v["strength"], 0, 1);
const matches = (v: unknown) => list(v, MAX_QUESTION_TERMS, match);

/** symbol, qualified, kind, file_path, line_start, line_end, address_taken?, class_bases?: a place in the code. */
function place(v: Plain): boolean {
  return (
    name(v["symbol"]) &&
    name(v["qualified"]) &&
    text(v["kind"], 32, 1) &&
    path(v["file_path"]) &&
    line(v["line_start"]) &&
    line(v["line_end"]) &&
    optional(v, "address_taken", (t) => t === true) &&
    optional(v, "class_bases", (b) => list(b, MAX_CLASS_BASES, name))
  );
}

/** file_path, line, text, sha256: one cited line. */
function citedLine(v: Plain): boolean {
  return path(v["file_path"]) && line(v["line"]) && text(v["text"], MAX_CALL_SITE_CHARS) && sha256(v["sha256"]);
}

const BINDING_KEYS = new Set(["field", "file_path", "line", "text", "sha256"]);
const binding = (v: unknown) => isPlain(v) && keysWithin(v, BINDING_KEYS) && name(v["field"]) && citedLine(v);
const ALIAS_KEYS = new Set(["name", "file_path", "line", "text", "sha256"]);
const alias = (v: unknown) => isPlain(v) && keysWithin(v, ALIAS_KEYS) && name(v["name"]) && citedLine(v);
const CALL_SITE_KEYS = new Set(["file_path", "line", "text", "sha256", "bound_at", "alias_at", "defines"]);
const callSite = (v: unknown) =>
  isPlain(v) && keysWithin(v, CALL_SITE_KEYS) && citedLine(v) && optional(v, "bound_at", binding) && optional(v, "alias_at", alias) && optional(v, "defines", (d) => d === true);

const CITE_KEYS = new Set(["line_start", "line_end", "sha256"]);
const STEP_KEYS = new Set(["symbol", "qualified", "kind", "file_path", "line_start", "line_end", "address_taken", "class_bases", "cite", "matches"]);
const step = (v: unknown) => isPlain(v) && keysWithin(v, STEP_KEYS) && place(v) && isPlain(v["cite"]) && keysWithin(v["cite"], CITE_KEYS) && line(v["cite"]["line_start"]) && line(v["cite"]["line_end"]) && sha256(v["cite"]["sha256"]) && matches(v["matches"]);

const VIA = new Set(["reference", "member", "field", "local"]);
const EXIT_KEYS = new Set(["target", "callee", "module", "via", "receiver_class", "caller_class", "call_site", "matches"]);
const exit = (v: unknown) =>
  v === null ||
  (isPlain(v) && keysWithin(v, EXIT_KEYS) && name(v["target"]) && name(v["callee"]) && optional(v, "module", (m) => text(m, 300, 1)) && VIA.has(v["via"] as string) && optional(v, "receiver_class", name) && optional(v, "caller_class", name) && callSite(v["call_site"]) && matches(v["matches"]));

const LEAD_KEYS = new Set(["path", "call_sites", "exit", "score", "coverage"]);
const lead = (v: unknown) =>
  isPlain(v) && keysWithin(v, LEAD_KEYS) && list(v["path"], MAX_EXPAND_DEPTH + 1, (i) => int(i, 0)) && list(v["call_sites"], MAX_EXPAND_DEPTH, callSite) && "exit" in v && exit(v["exit"]) && finite(v["score"], 0) && finite(v["coverage"], 0, 1);

const EXPAND_RESULT_KEYS = new Set(["scope", "resolved", "bound_at", "entry_fields", "steps", "leads"]);
/** An expand result its zod schema would return unchanged. */
export function isPlainExpandResult(v: unknown): boolean {
  return (
    isPlain(v) &&
    keysWithin(v, EXPAND_RESULT_KEYS) &&
    text(v["scope"], 64, 1) &&
    bool(v["resolved"]) &&
    optional(v, "bound_at", binding) &&
    optional(v, "entry_fields", (f) => list(f, MAX_ENTRY_FIELDS, binding)) &&
    list(v["steps"], MAX_SEARCH_STEPS, step) &&
    list(v["leads"], MAX_SEARCH_LEADS, lead)
  );
}

const CANDIDATE_KEYS = new Set(["symbol", "qualified", "kind", "file_path", "line_start", "line_end", "address_taken", "class_bases", "matches"]);
const candidate = (v: unknown) => isPlain(v) && keysWithin(v, CANDIDATE_KEYS) && place(v) && matches(v["matches"]);

const ENTRY_RESULT_KEYS = new Set(["scope", "nodes", "df", "candidates"]);
/** An entry result its zod schema would return unchanged. */
export function isPlainEntryResult(v: unknown): boolean {
  if (!isPlain(v) || !keysWithin(v, ENTRY_RESULT_KEYS) || !text(v["scope"], 64, 1) || !int(v["nodes"], 0) || !isPlain(v["df"])) return false;
  const df = v["df"];
  for (const key in df) if (!int(df[key], 0)) return false;
  return list(v["candidates"], MAX_ENTRY_CANDIDATES, candidate);
}

const ENTRY_ARGS_KEYS = new Set(["question", "top_k"]);
/** Entry arguments their zod schema would return unchanged. */
export function isPlainEntryArgs(v: unknown): boolean {
  return isPlain(v) && keysWithin(v, ENTRY_ARGS_KEYS) && question(v["question"]) && optional(v, "top_k", (k) => int(k, 1, MAX_ENTRY_CANDIDATES));
}

const FROM_KEYS = new Set(["symbol", "file_path", "line", "module", "called", "member", "field", "sole", "method_of"]);
const from = (v: unknown) =>
  isPlain(v) &&
  keysWithin(v, FROM_KEYS) &&
  name(v["symbol"]) &&
  optional(v, "file_path", path) &&
  optional(v, "line", line) &&
  optional(v, "module", (m) => text(m, 300, 1)) &&
  optional(v, "called", bool) &&
  optional(v, "member", bool) &&
  optional(v, "field", bool) &&
  optional(v, "sole", bool) &&
  optional(v, "method_of", name);

const EXPAND_ARGS_KEYS = new Set(["question", "mode", "from", "covered", "max_depth"]);
/** Expand arguments their zod schema would return unchanged. */
export function isPlainExpandArgs(v: unknown): boolean {
  if (!isPlain(v) || !keysWithin(v, EXPAND_ARGS_KEYS) || !question(v["question"]) || (v["mode"] !== "forward" && v["mode"] !== "callers") || !from(v["from"])) return false;
  if (!isPlain(v["covered"])) return false;
  const covered = v["covered"];
  for (const key in covered) if (!finite(covered[key], 0, 1)) return false;
  return optional(v, "max_depth", (d) => int(d, 0, MAX_EXPAND_DEPTH));
}

const BATCH_KEYS = new Set(["items"]);
/** Expand-batch arguments their zod schema would return unchanged: 1..MAX_EXPAND_BATCH items, each plain expand arguments. */
export function isPlainExpandBatchArgs(v: unknown): boolean {
  return isPlain(v) && keysWithin(v, BATCH_KEYS) && Array.isArray(v["items"]) && v["items"].length >= 1 && v["items"].length <= MAX_EXPAND_BATCH && v["items"].every(isPlainExpandArgs);
}
