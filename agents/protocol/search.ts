// The call-graph search on the wire (docs/PROTOCOL.md §7): the worker ops `entry` (a scope's best entry
// points for a question) and `expand` (its best local paths from one entry, and their exits). Both ends
// validate with these schemas; unknown keys are refused, so a misspelt field is an error, not a default.
import { z } from "zod";
import { lineNumberField, listField, relativePathField, sha256Field, textField } from "./fields.js";
import { parseWith } from "./parse.js";

import { MAX_CALL_SITE_CHARS, MAX_CLASS_BASES, MAX_ENTRY_CANDIDATES, MAX_ENTRY_FIELDS, MAX_EXPAND_BATCH, MAX_EXPAND_DEPTH, MAX_QUESTION_TERMS, MAX_SEARCH_LEADS, MAX_SEARCH_STEPS } from "./search-limits.js";
import { isPlainEntryArgs, isPlainEntryResult, isPlainExpandArgs, isPlainExpandBatchArgs, isPlainExpandResult } from "./search-shape.js";
import { ProtocolSchemaError } from "./errors.js";

export { MAX_CALL_SITE_CHARS, MAX_ENTRY_CANDIDATES, MAX_ENTRY_FIELDS, MAX_EXPAND_BATCH, MAX_EXPAND_DEPTH, MAX_QUESTION_TERMS, MAX_SEARCH_LEADS, MAX_SEARCH_STEPS };

const nameField = textField(300, 1);

/**
 * A field name ending in this mark is a Python dispatch's pseudo-field (`do_*`: `getattr(self, "do_" +
 * command)()` runs one of the object's methods named `do_…`), not a C struct field: what is "stored" in it
 * is every method whose name begins with the prefix (docs/DELEGATION.md §13, docs/PGC.md rule 9).
 */
export const DISPATCH_MARK = "*";

/**
 * The last name of a symbol or call, as its callers write it: `send_message` of `SMTP.send_message`,
 * `ndo_open` of `dev->ops->ndo_open`, `run` of `Foo::run`, and `#executeFetch` of a TS/JS private method
 * `QueryObserver.#executeFetch` (the `#` is part of the name, and what the PGC keys its callers by).
 */
export function lastName(symbol: string): string {
  return /#?[A-Za-z_$][\w$]*$/.exec(symbol)?.[0] ?? symbol;
}

/** The prefix of a dispatch's pseudo-field (`do_` of `do_*`), or null for a C struct field. */
export function dispatchPrefix(field: string): string | null {
  return field.length > DISPATCH_MARK.length && field.endsWith(DISPATCH_MARK) ? field.slice(0, -DISPATCH_MARK.length) : null;
}

/**
 * A field name beginning with this mark is an event's pseudo-field (`event:needs-retry`: code registers a
 * handler under a string key, `events.register('needs-retry.s3', handler.needs_retry)`, `emitter.on('close',
 * this.onClose)`, and runs every handler registered so by emitting it, `emit('needs-retry.s3.GetObject', …)`):
 * what is "stored" in it is each function registered under the same key (docs/PGC.md, rule 11).
 */
export const EVENT_MARK = "event:";

/** An event's key as its pseudo-field names it (`needs-retry` of `event:needs-retry`), or null for any other field. */
export function eventName(field: string): string | null {
  return field.length > EVENT_MARK.length && field.startsWith(EVENT_MARK) ? field.slice(EVENT_MARK.length) : null;
}

/** Pseudo-fields a method of this name may be dispatched through, at most this many. */
export const MAX_DISPATCH_PREFIXES = 3;

/**
 * The pseudo-fields a Python method may be called through by a built name: each prefix of its name that
 * ends at an underscore after a word (`visit_*` and `visit_math_*` of `visit_math_block`; `_handle_*` of
 * `_handle_text`), the shortest first. None for a name with no such prefix or a dunder (`__init__`).
 */
export function dispatchFieldsOf(name: string): string[] {
  if (name.startsWith("__")) return [];
  const out: string[] = [];
  for (let at = name.indexOf("_", name.search(/[A-Za-z0-9]/)); at > 0 && at < name.length - 1 && out.length < MAX_DISPATCH_PREFIXES; at = name.indexOf("_", at + 1)) out.push(`${name.slice(0, at + 1)}${DISPATCH_MARK}`);
  return out;
}

export const QuestionTermSchema = z.strictObject({
  term: textField(200, 1),
  forms: listField(textField(64, 1), 16),
  weight: z.number().min(0).max(1_000),
  name: z.boolean(),
  fragment: z.boolean().optional(),
});

export const SearchQuestionSchema = z.strictObject({
  text: textField(4_000, 1),
  intent: z.enum(["how", "callers"]),
  names: listField(nameField, MAX_QUESTION_TERMS),
  terms: listField(QuestionTermSchema, MAX_QUESTION_TERMS),
});

export const TermMatchSchema = z.strictObject({
  term: textField(200, 1),
  field: z.enum(["symbol", "bound", "name", "container", "file", "dir", "doc", "body"]),
  matched: textField(200, 1),
  strength: z.number().min(0).max(1),
});

export const EntryArgsSchema = z.strictObject({
  question: SearchQuestionSchema,
  top_k: z.number().int().min(1).max(MAX_ENTRY_CANDIDATES).optional(),
});

const placeFields = {
  symbol: nameField,
  qualified: nameField,
  kind: textField(32, 1),
  file_path: relativePathField,
  line_start: lineNumberField,
  line_end: lineNumberField,
  /** C: the code uses the function as a value — stores it into a struct field, passes it as an argument, exports it — so it is called through a pointer from outside the calls the scope writes: a way into the code. */
  address_taken: z.literal(true).optional(),
  /** A method: the classes its class derives from, as its scope's declarations name them, nearest first — what a caller elsewhere may call it through (`delegate: HTTPMessageDelegate`, then `delegate.headers_received(…)`). */
  class_bases: listField(nameField, MAX_CLASS_BASES).optional(),
};

export const EntryCandidateSchema = z.strictObject({ ...placeFields, matches: listField(TermMatchSchema, MAX_QUESTION_TERMS) });

export const EntryResultSchema = z.strictObject({
  scope: textField(64, 1),
  /** Functions, methods, function-like macros and classes in the scope's call graph. */
  nodes: z.number().int().min(0),
  /** Per question term: how many of those nodes match it by name, class, file, directory or doc. */
  df: z.record(z.string(), z.number().int().min(0)),
  candidates: listField(EntryCandidateSchema, MAX_ENTRY_CANDIDATES),
});

const lineFields = {
  file_path: relativePathField,
  line: lineNumberField,
  /** The whole line as it is in the file (no "\n"); `sha256` is its citation hash. */
  text: textField(MAX_CALL_SITE_CHARS),
  sha256: sha256Field,
};

/** The line that stored a function into the struct field a call goes through (`.ndo_start_xmit = veth_xmit,`). */
export const BindingSiteSchema = z.strictObject({ field: nameField, ...lineFields });

export const CallSiteSchema = z.strictObject({
  ...lineFields,
  /** A C call through a field (`ops->ndo_start_xmit(skb, dev)`): where the callee was stored into that field. */
  bound_at: BindingSiteSchema.optional(),
  /** The call names the callee by another name (`name`) that a re-export gave it: the re-export's line (`_minLength as minLength,`). */
  alias_at: z.strictObject({ name: nameField, ...lineFields }).optional(),
  /** Not a call: the callee is a function defined in the caller's body (a closure it returns), and the line is the callee's first. */
  defines: z.literal(true).optional(),
});

export const ExpandArgsSchema = z.strictObject({
  question: SearchQuestionSchema,
  /** forward: from this entry along its calls; callers: the places in this scope that call it. */
  mode: z.enum(["forward", "callers"]),
  from: z.strictObject({
    symbol: nameField,
    file_path: relativePathField.optional(),
    line: lineNumberField.optional(),
    /** The module the caller imported it from, as written (`email.generator`, `../core`). */
    module: textField(300, 1).optional(),
    /** The chain reaches the symbol through a call: a class stands for its constructor, not for all its methods. */
    called: z.boolean().optional(),
    /** The chain reaches it through an object (`obj.m()`): only a method, a definition inside a class or object, can be it. */
    member: z.boolean().optional(),
    /** The chain reaches it through a C struct field (`ops->ndo_start_xmit(…)`): `symbol` is the field, and the entry is the function this scope stores into it that bears most on the question. */
    field: z.boolean().optional(),
    /** With `field`: no other scope of the fleet stores a function into the field, so one function stored here alone is the callee, named by the question or not. */
    sole: z.boolean().optional(),
    /** Callers mode: `symbol` is a method of this class; a call the scope shows to be another class's method is not its caller (one through an object of unknown class is). */
    method_of: nameField.optional(),
  }),
  /** How strongly each question term is covered by the chain so far. */
  covered: z.record(z.string(), z.number().min(0).max(1)),
  max_depth: z.number().int().min(0).max(MAX_EXPAND_DEPTH).optional(),
});

export const SearchStepSchema = z.strictObject({
  ...placeFields,
  /** The lines cited for the step: the whole function up to 80 lines, else its head. */
  cite: z.strictObject({ line_start: lineNumberField, line_end: lineNumberField, sha256: sha256Field }),
  matches: listField(TermMatchSchema, MAX_QUESTION_TERMS),
});

export const SearchExitSchema = z.strictObject({
  target: nameField,
  callee: nameField,
  module: textField(300, 1).optional(),
  via: z.enum(["reference", "member", "field", "local"]),
  /** A member call's object class, when the caller says it (`BytesGenerator` for `g = BytesGenerator(fp); g.flatten()`). */
  receiver_class: nameField.optional(),
  /** A call through the caller's own object whose method its scope does not define (`self.execute_command(…)` in a mixin): the caller's class, which a class of the owner derives from. */
  caller_class: nameField.optional(),
  call_site: CallSiteSchema,
  matches: listField(TermMatchSchema, MAX_QUESTION_TERMS),
});

export const SearchLeadSchema = z.strictObject({
  /** Indexes into `steps`, entry first. */
  path: listField(z.number().int().min(0), MAX_EXPAND_DEPTH + 1),
  /** The call site of each edge of `path` (one fewer than its steps). */
  call_sites: listField(CallSiteSchema, MAX_EXPAND_DEPTH),
  /** The call at the end of the path that leaves the scope; null for a path that ends here. */
  exit: SearchExitSchema.nullable(),
  /** stepScore of the lead (agents/search/relevance.ts): what it adds to the question, plus half its relevance. */
  score: z.number().min(0),
  /** The question's coverage by the path (and its exit), in [0, 1]. */
  coverage: z.number().min(0).max(1),
});

export const ExpandResultSchema = z.strictObject({
  scope: textField(64, 1),
  /** False when the entry named in `from` is not defined in this scope. */
  resolved: z.boolean(),
  /** With `from.field`: where the chosen entry was stored into the field. */
  bound_at: BindingSiteSchema.optional(),
  /** Forward mode: where this scope stores the entry into C struct fields (code elsewhere calls it through them), or a Python method's dispatch pseudo-fields (`visit_*`), bound at its def. */
  entry_fields: listField(BindingSiteSchema, MAX_ENTRY_FIELDS).optional(),
  steps: listField(SearchStepSchema, MAX_SEARCH_STEPS),
  leads: listField(SearchLeadSchema, MAX_SEARCH_LEADS),
});

export type SearchQuestion = z.output<typeof SearchQuestionSchema>;
export type WireTermMatch = z.output<typeof TermMatchSchema>;
export type EntryArgs = z.output<typeof EntryArgsSchema>;
export type EntryCandidate = z.output<typeof EntryCandidateSchema>;
export type EntryResult = z.output<typeof EntryResultSchema>;
export type CallSiteRef = z.output<typeof CallSiteSchema>;
export type BindingSiteRef = z.output<typeof BindingSiteSchema>;
export type ExpandArgs = z.output<typeof ExpandArgsSchema>;
export type SearchStep = z.output<typeof SearchStepSchema>;
export type SearchExit = z.output<typeof SearchExitSchema>;
export type SearchLead = z.output<typeof SearchLeadSchema>;
export type ExpandResult = z.output<typeof ExpandResultSchema>;

// A message the hand-written check passes is what zod would return (search-shape.ts); anything else, zod judges.
export const parseEntryArgs = (value: unknown): EntryArgs => (isPlainEntryArgs(value) ? (value as EntryArgs) : parseWith(EntryArgsSchema, "EntryArgs", value));
export const parseEntryResult = (value: unknown): EntryResult => (isPlainEntryResult(value) ? (value as EntryResult) : parseWith(EntryResultSchema, "EntryResult", value));
export const parseExpandArgs = (value: unknown): ExpandArgs => (isPlainExpandArgs(value) ? (value as ExpandArgs) : parseWith(ExpandArgsSchema, "ExpandArgs", value));
export const parseExpandResult = (value: unknown): ExpandResult => (isPlainExpandResult(value) ? (value as ExpandResult) : parseWith(ExpandResultSchema, "ExpandResult", value));

/** `expand_batch`: several expansions of one scope, sent together (DELEGATION.md §13.3). */
export const ExpandBatchArgsSchema = z.strictObject({ items: z.array(ExpandArgsSchema).min(1).max(MAX_EXPAND_BATCH) });

export type ExpandBatchArgs = z.output<typeof ExpandBatchArgsSchema>;

export const parseExpandBatchArgs = (value: unknown): ExpandBatchArgs => (isPlainExpandBatchArgs(value) ? (value as ExpandBatchArgs) : parseWith(ExpandBatchArgsSchema, "ExpandBatchArgs", value));

const ExpandBatchResultSchema = z.strictObject({ results: z.array(z.unknown()).max(MAX_EXPAND_BATCH) });

/**
 * An `expand_batch` answer: `{ results }`, one ExpandResult per item, in the items' order (a count that
 * differs is a schema error). Each result is checked as an `expand` answer is (parseExpandResult) where used.
 */
export function parseExpandBatchResult(value: unknown, items: number): unknown[] {
  const { results } = parseWith(ExpandBatchResultSchema, "ExpandBatchResult", value);
  if (results.length !== items) throw new ProtocolSchemaError("ExpandBatchResult", [{ path: "results", message: `expected ${items} results, got ${results.length}` }]);
  return results;
}
