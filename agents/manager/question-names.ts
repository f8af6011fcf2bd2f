// What a question names: code identifiers, dotted modules and paths, and the scopes that own them.
import { identifiersInQuery } from "../pgc/retrieval/index.js";

export interface Ownership {
  ownersOf(symbol: string): readonly string[];
  /** Scopes owning a module or path a question names ("urllib/request", "net/ipv4"): the most specific only. */
  ownersOfPath?(path: string): readonly string[];
  /** Scopes owning a directory or anything in it. */
  ownersUnder?(dir: string): readonly string[];
  /** Scopes whose code calls a symbol defined elsewhere, with how many call sites (the references they report). */
  callersOf?(symbol: string): readonly { scope: string; count: number }[];
}

/** A path written in a question: "mm/slab.c", "net/ipv4/" (at least one "/", no spaces). */
const PATH_IN_QUESTION = /(?<![\w/.-])[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\/?/g;
/** A dotted module name: "urllib.request", "os.path" (each part a plain name). */
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * What a question names, in order: code identifiers (symbols, and dotted names like `urllib.request`)
 * and paths (`mm/slab.c`).
 */
export function entitiesIn(question: string): string[] {
  const paths = [...question.matchAll(PATH_IN_QUESTION)].map((m) => ({ at: m.index, name: m[0] }));
  const identifiers = identifiersInQuery(question).map((name) => ({ at: question.indexOf(name), name }));
  return [...new Set([...identifiers, ...paths].sort((a, b) => a.at - b.at).map((e) => e.name))];
}

/**
 * The scopes owning what a question names: the symbol's definers, else the module's or path's scope. A
 * dotted name whose whole is no module falls back to its longest module prefix: `os.path.join` → `os`
 * (os.py), `json.dumps` → `json`.
 */
export function ownersOfEntity(map: Ownership, entity: string): readonly string[] {
  const definers = map.ownersOf(entity);
  if (definers.length > 0 || !map.ownersOfPath) return definers;
  if (entity.includes("/")) return map.ownersOfPath(entity.replace(/\/$/, ""));
  if (!MODULE_NAME.test(entity)) return [];
  const parts = entity.split(".");
  for (let end = parts.length; end >= 1; end--) {
    const owners = map.ownersOfPath(parts.slice(0, end).join("/"));
    if (owners.length > 0) return owners;
  }
  return [];
}

/** The name-shaped words of a text as written ("kmalloc", "SMTPHandler", "$ZodType"), in order. */
export function nameWords(text: string): string[] {
  return text.split(/[^A-Za-z0-9_$]+/).filter((word) => word.length > 0);
}

/** Lower-case words of a scope name ("v4-classic" → v4, classic) or of a question. */
export function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}
