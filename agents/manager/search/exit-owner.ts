// Where a traced chain goes on when it leaves a scope: the scope that owns an exit's callee (narrowed by
// the module the caller imported it from), and which exits are not steps of their own.
import type { SearchLead } from "../../protocol/index.js";
import { ownersOfEntity, type Ownership } from "../ownership.js";

const MODULE_PATH = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/;

/** A callee defined by more scopes than this, with nothing to tell them apart, is not followed. */
export const MAX_AMBIGUOUS_OWNERS = 3;

/**
 * A member call through a name that is a package or module of the code base (`chardet.detect(…)` after
 * `from .compat import chardet`, where compat imports the package): a call into that module, as if the
 * caller had imported it directly. Returns the exit as a module exit, or the exit unchanged.
 */
export function asModuleExit(exit: NonNullable<SearchLead["exit"]>, ownership: Ownership): NonNullable<SearchLead["exit"]> {
  if (exit.via !== "member" || exit.module || exit.receiver_class || !exit.callee.endsWith(`.${exit.target}`)) return exit;
  const receiver = exit.callee.slice(0, -exit.target.length - 1);
  if (!/^[A-Za-z_][\w]*$/.test(receiver) || receiver.length < 3) return exit;
  const owners = [...(ownership.ownersOfPath?.(receiver) ?? []), ...(ownership.ownersUnder?.(receiver) ?? [])];
  return owners.some((s) => ownership.ownersOf(exit.target).includes(s)) ? { ...exit, via: "reference", module: receiver } : exit;
}

/**
 * Scopes a C field exit is looked into at most: each stores its own functions into the field, and only the
 * scope storing one the question names can continue the chain (`ext4_file_write_iter` behind `write_iter`,
 * not ext2's), which its owner alone can tell.
 */
export const FIELD_OWNER_BEAM = 4;

/**
 * The scopes an exit may continue in, best first: for a call by name, the scope that owns the callee, or each
 * of the (at most MAX_AMBIGUOUS_OWNERS) scopes defining it when nothing tells them apart — the look-ahead
 * into each says which path goes on with the question (`plugins.load(…)`: the plugin loader's `load`, not
 * an event hook's); up to FIELD_OWNER_BEAM for a field. A field's binders are ranked by `adds` when given —
 * what each one's entry candidates could add to the chain past the exit (a field many drivers fill: the
 * driver the question names by a word the chain has not covered yet, "DesignWare" after `__i2c_transfer`,
 * not the one sharing the most of its common words) — and then by the entry round's scope scores.
 */
export function ownersOfExit(exit: NonNullable<SearchLead["exit"]>, from: string, deps: { ownership: Ownership }, scopeScores: ReadonlyMap<string, number>, adds?: (owner: string) => number): { scopes: string[] } | { none: string } {
  if (exit.via !== "field") return rankedOwners(exit, from, deps, scopeScores);
  let binders = rankedBinders(exit.target, from, deps.ownership, scopeScores);
  if (adds && binders.length > FIELD_OWNER_BEAM) {
    // A stable sort: binders adding the same stay in the scope scores' order.
    const added = new Map(binders.map((b) => [b, adds(b)]));
    binders = [...binders].sort((a, b) => (added.get(b) as number) - (added.get(a) as number));
  }
  return binders.length === 0 ? { none: `no other scope stores a function into the field ${exit.target}` } : { scopes: binders.slice(0, FIELD_OWNER_BEAM) };
}

/**
 * Whether `owner` is the only scope of the fleet storing functions into the field: its one function stored
 * there, if it has one, is then what the call runs, though the question name none (`handler->events(…)`,
 * stored only by evdev).
 */
export function soleBinder(deps: { ownership: Ownership }, field: string, owner: string): boolean {
  const binders = deps.ownership.bindersOf?.(field) ?? [];
  return binders.length === 1 && binders[0] === owner;
}

/** The scope that owns an exit's callee (the first of ownersOfExit's), or why none can be chosen. */
export function ownerOfExit(exit: NonNullable<SearchLead["exit"]>, from: string, deps: { ownership: Ownership }, scopeScores: ReadonlyMap<string, number>): { scope: string } | { none: string } {
  if (exit.via === "field") return ownerOfField(exit.target, from, deps.ownership, scopeScores);
  const owners = rankedOwners(exit, from, deps, scopeScores);
  return "none" in owners ? owners : { scope: owners.scopes[0] as string };
}

/** The scopes that may own a call by name's callee, the entry round's most relevant first, or why there are none. */
function rankedOwners(exit: NonNullable<SearchLead["exit"]>, from: string, deps: { ownership: Ownership }, scopeScores: ReadonlyMap<string, number>): { scopes: string[] } | { none: string } {
  // The object's class, when the caller says it, tells the scopes apart as an import does; a class no scope
  // defines (`Object`, `JSON`, a class of an installed package) is outside the code base, and so is its method.
  if (exit.receiver_class && !exit.module && deps.ownership.ownersOf(exit.receiver_class).length === 0) return { none: `${exit.receiver_class}, the class ${exit.target} is called through, is no class of the code base` };
  const definers = deps.ownership.ownersOf(exit.target).filter((s) => s !== from);
  const classOwners = !exit.module && exit.receiver_class ? deps.ownership.ownersOf(exit.receiver_class) : [];
  const byModule = (exit.module ? ownersOfModule(deps.ownership, exit.module, exit.call_site.file_path) : classOwners).filter((s) => s !== from);
  const both = byModule.filter((s) => definers.includes(s));
  // A class of the code base whose scopes define no such method: the method is inherited from a base its
  // worker would have named (PGC.md, call rule 3), not any scope's method of the same name.
  if (both.length === 0 && classOwners.length > 0 && definers.length > 0) return { none: `${exit.receiver_class}, the class ${exit.target} is called through, is ${classOwners.join(", ")}'s, which define${classOwners.length === 1 ? "s" : ""} no ${exit.target}` };
  let pool = both.length > 0 ? both : definers.length > 0 ? definers : byModule;
  // `self.m()` in a class whose scope has no `m` (a mixin's `self.execute_command(…)`): the scopes whose
  // classes derive from the caller's define the one that runs, when any of the definers is one.
  if (exit.caller_class && pool.length > 1) {
    const heirs = new Set(deps.ownership.heirsOf?.(exit.caller_class) ?? []);
    const inheriting = pool.filter((s) => heirs.has(s));
    if (inheriting.length > 0) pool = inheriting;
  }
  if (pool.length === 0) return { none: `no other scope defines ${exit.target}` };
  if (pool.length > MAX_AMBIGUOUS_OWNERS) return { none: `${pool.length} scopes define ${exit.target}` };
  return { scopes: [...pool].sort((a, b) => (scopeScores.get(b) ?? 0) - (scopeScores.get(a) ?? 0) || a.localeCompare(b)) };
}

/**
 * A C call through a struct field may run any function stored into it: of the scopes storing one, the one
 * the entry round found most relevant to the question (the field is what every implementation shares; the
 * question says which is meant). Unlike a name, many owners are no reason to stop.
 */
function ownerOfField(field: string, from: string, ownership: Ownership, scopeScores: ReadonlyMap<string, number>): { scope: string } | { none: string } {
  const ranked = rankedBinders(field, from, ownership, scopeScores);
  return ranked.length === 0 ? { none: `no other scope stores a function into the field ${field}` } : { scope: ranked[0] as string };
}

function rankedBinders(field: string, from: string, ownership: Ownership, scopeScores: ReadonlyMap<string, number>): string[] {
  const binders = (ownership.bindersOf?.(field) ?? []).filter((s) => s !== from);
  return [...binders].sort((a, b) => (scopeScores.get(b) ?? 0) - (scopeScores.get(a) ?? 0) || a.localeCompare(b));
}

/**
 * The scopes a module an exit was imported from belongs to. A package name or dotted module (`email.generator`)
 * by its path; a relative one (`../core/index.js`, Python's `.util`) from the caller's file, and a directory's
 * index module (`../core`, `../core/index.js`) by everything in the directory, where its re-exports come from.
 */
export function ownersOfModule(ownership: Ownership, module: string, fromFile: string): readonly string[] {
  const path = relativeModulePath(module, fromFile);
  if (path === null) {
    // A package (`chardet`) is its directory's scopes, when no scope owns it as a file or a name.
    const owners = ownersOfEntity(ownership, module);
    return owners.length > 0 || !MODULE_PATH.test(module) ? owners : ownership.ownersUnder?.(module.replace(/\./g, "/")) ?? [];
  }
  const bare = path.replace(/\.[cm]?[jt]sx?$|\.py$/, "");
  const index = /(^|\/)(index|__init__)$/.test(bare);
  const dir = index ? bare.replace(/\/?(index|__init__)$/, "") : bare;
  const file = index ? [] : ownership.ownersOfPath?.(bare) ?? [];
  if (file.length > 0) return file;
  return ownership.ownersUnder?.(dir) ?? ownership.ownersOfPath?.(dir) ?? [];
}

/** `../core/index.js` from `src/v4/classic/parse.ts` → `src/v4/core/index.js`; `.util` (Python) from `logging/handlers.py` → `logging/util`; null for a non-relative module. */
export function relativeModulePath(module: string, fromFile: string): string | null {
  const parts = fromFile.split("/").slice(0, -1);
  if (module.startsWith("./") || module.startsWith("../")) {
    for (const part of module.split("/")) {
      if (part === "..") parts.pop();
      else if (part !== ".") parts.push(part);
    }
    return parts.join("/");
  }
  const python = /^(\.+)([\w.]*)$/.exec(module);
  if (!python) return null;
  for (let up = (python[1] as string).length - 1; up > 0; up--) parts.pop();
  return [...parts, ...(python[2] ? (python[2] as string).split(".") : [])].join("/");
}

/** An exit's call site and the name called there, as one key: `file:line\0name` (the callee's name unless said). */
export function callSiteKey(exit: Pick<NonNullable<SearchLead["exit"]>, "call_site" | "target">, name: string = exit.target): string {
  return `${exit.call_site.file_path}:${exit.call_site.line}\0${name}`;
}

/** Constructor exits whose object a method exit at the same call line is called on (`Parser(…).parsestr(…)`), as `file:line\0Class`. */
export function chainedConstructions(leads: readonly SearchLead[]): Set<string> {
  const out = new Set<string>();
  for (const lead of leads) {
    const exit = lead.exit;
    if (exit?.receiver_class && exit.callee.includes(`${exit.receiver_class}(`)) out.add(callSiteKey(exit, exit.receiver_class));
  }
  return out;
}
