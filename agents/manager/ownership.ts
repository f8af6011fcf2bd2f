// Which scopes own a name, a module or a path: what the manager knows of the fleet's code from the scope
// facts (ScopeMap implements it), used to continue a traced chain in the scope that defines its callee.

export interface Ownership {
  ownersOf(symbol: string): readonly string[];
  /** Scopes owning a module or path ("urllib/request", "net/ipv4"): the most specific only. */
  ownersOfPath?(path: string): readonly string[];
  /** Scopes owning a directory or anything in it. */
  ownersUnder?(dir: string): readonly string[];
  /** Scopes whose code calls a symbol defined elsewhere, with how many call sites (the references they report). */
  callersOf?(symbol: string): readonly { scope: string; count: number }[];
  /** Scopes storing functions into a C struct field (`.ndo_start_xmit = veth_xmit`): where a call through it may go. */
  bindersOf?(field: string): readonly string[];
  /** Scopes calling through a C struct field, most call sites first: who may call the functions stored into it. */
  fieldCallersOf?(field: string): readonly { scope: string; count: number }[];
  /** Scopes calling a method of another scope's class through an object of that class (`OptionParser.parse_args`), most call sites first. */
  classCallersOf?(qualified: string): readonly { scope: string; count: number }[];
  /** Scopes defining a class that derives from `className`, directly or through others, across the fleet (the facts' `class_bases`). */
  heirsOf?(className: string): readonly string[];
}

/** A dotted module name: "urllib.request", "os.path" (each part a plain name). */
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * The scopes owning a name: the symbol's definers, else the module's or path's scope. A dotted name whose
 * whole is no module falls back to its longest module prefix: `os.path.join` → `os` (os.py), `json.dumps`
 * → `json`.
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

/**
 * Ownership seen through an access policy: scopes outside `allowed` own nothing, so a chain traced for a
 * client never continues into a scope the client may not ask (agents/access/policy.ts).
 */
export function restrictOwnership(ownership: Ownership, allowed: ReadonlySet<string>): Ownership {
  const keep = (scopes: readonly string[]) => scopes.filter((s) => allowed.has(s));
  const { ownersOfPath, ownersUnder, callersOf, bindersOf, fieldCallersOf, classCallersOf, heirsOf } = ownership;
  return {
    ownersOf: (symbol) => keep(ownership.ownersOf(symbol)),
    ...(ownersOfPath ? { ownersOfPath: (path: string) => keep(ownersOfPath.call(ownership, path)) } : {}),
    ...(ownersUnder ? { ownersUnder: (dir: string) => keep(ownersUnder.call(ownership, dir)) } : {}),
    ...(callersOf ? { callersOf: (symbol: string) => callersOf.call(ownership, symbol).filter((c) => allowed.has(c.scope)) } : {}),
    ...(bindersOf ? { bindersOf: (field: string) => keep(bindersOf.call(ownership, field)) } : {}),
    ...(fieldCallersOf ? { fieldCallersOf: (field: string) => fieldCallersOf.call(ownership, field).filter((c) => allowed.has(c.scope)) } : {}),
    ...(classCallersOf ? { classCallersOf: (qualified: string) => classCallersOf.call(ownership, qualified).filter((c) => allowed.has(c.scope)) } : {}),
    ...(heirsOf ? { heirsOf: (className: string) => keep(heirsOf.call(ownership, className)) } : {}),
  };
}
