// Which owner's definition an exit calls when it was looked into in several (a field's binders, a name two
// or three scopes define): the one worth most, the one whose class the object is named after on a tie.
import type { SearchLead } from "../../protocol/index.js";
import { tokenize } from "../../pgc/retrieval/index.js";
import { MIN_RECEIVER_WORD } from "../../pgc/callgraph/resolve-callee.js";
import type { Probe } from "./choose-exit.js";
import { callSiteKey } from "./exit-owner.js";

/**
 * Whether the object a call goes through is named after the class of the callee its owner found
 * (`plugins.load(…)` and `PluginLoader.load`, `opener.open()` and `OpenerDirector.open`; the object may be
 * a name imported from a module, as SQLAlchemy's `plugins` is): a word of the receiver's last name, as the
 * tokenizer reads it, is a word of the class's name (PGC.md call rule 4 says the same inside a scope; a
 * receiver under four letters names nothing).
 */
export function namedAfterClass(exit: NonNullable<SearchLead["exit"]>, calleeQualified: string | undefined): boolean {
  if (exit.via === "field" || !calleeQualified || !exit.callee.endsWith(`.${exit.target}`)) return false;
  const receiver = exit.callee.slice(0, -exit.target.length - 1).split(/\.|->|::/).at(-1)?.replace(/^_+/, "") ?? "";
  const dot = calleeQualified.lastIndexOf(".");
  if (receiver.length < MIN_RECEIVER_WORD || dot <= 0) return false;
  const classWords = new Set(tokenize(calleeQualified.slice(0, dot)));
  return tokenize(receiver).some((w) => classWords.has(w));
}

/**
 * An exit looked into in several owners (a field's binders, a name several scopes define) calls one
 * definition: the one whose own relevance (carried) and path add most to the question — a field's binder
 * storing the function the question names —; of owners worth the same, one whose class the object is named
 * after (namedAfterClass: `plugins.load(…)`, `PluginLoader.load`), else the first (the entry round's most
 * relevant). The others are dropped. (The name decides only a tie: rxjs's `scheduler.schedule(…)` is the
 * abstract `Scheduler.schedule`, whose path in its own scope adds nothing, and `AsyncAction.schedule`, where
 * the work goes on, is worth more.)
 */
export function oneOwnerEach(looked: readonly Probe[]): Probe[] {
  const key = (p: Probe) => callSiteKey(p.lead.exit as NonNullable<SearchLead["exit"]>);
  const named = (p: Probe) => (namedAfterClass(p.lead.exit as NonNullable<SearchLead["exit"]>, p.result.steps[0]?.qualified) ? 1 : 0);
  const worth = (p: Probe) => p.carried + p.adds;
  const chosen = new Map<string, Probe>();
  for (const p of looked) {
    const held = chosen.get(key(p));
    if (!held || worth(p) > worth(held) || (worth(p) === worth(held) && named(p) > named(held))) chosen.set(key(p), p);
  }
  return looked.filter((p) => chosen.get(key(p)) === p);
}
