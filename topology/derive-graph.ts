// Derives the scope graph from code facts (definitions, calls, includes), never from configuration.
import { z } from "zod";
import { formatZodIssues, inputError } from "./errors.js";
import { compareText, type ReferenceKind, type ScopeGraph, type ScopeMetadata } from "./scope-graph.js";
import { ScopeGraphBuilder } from "./scope-graph-builder.js";
import {
  DEFAULT_INCLUDE_ROOTS,
  PathOwners,
  indexSymbols,
  resolveCall,
  resolvePath,
  type Resolution,
} from "./resolve-reference.js";

/** One cross-scope reference found in a scope's code. Paths are POSIX and relative to the repository root. */
export interface CodeReference {
  kind: ReferenceKind;
  /** A symbol name for calls; the include path or module spec as written for includes and imports. */
  target: string;
  from_file: string;
  /** 1-based line of the reference in `from_file`. */
  line: number;
  /** How many identical references this entry stands for (scopes aggregate them); 1 when absent. */
  count?: number;
  /** Call: the module the callee came from, when the code says (`json` for `json.dumps(…)`). */
  module?: string;
}

/** What one scope owns and what it refers to. */
export interface ScopeFacts {
  scope: string;
  /** Path prefixes the scope owns: directories ("drivers/net/") or single files ("include/linux/mm.h"). */
  paths: string[];
  /** Names the scope defines. */
  symbols: string[];
  references: CodeReference[];
  /** C struct fields the scope stores its functions into (`.ndo_start_xmit = veth_xmit`): a call through one of them elsewhere may run its code. */
  fields?: string[];
  /** C struct fields the scope's code calls through (`ops->ndo_start_xmit(…)`), with their call sites. */
  field_calls?: Record<string, number>;
  /** Methods of classes defined elsewhere its code calls through an object of that class (`OptionParser.parse_args`), with their call sites. */
  class_calls?: Record<string, number>;
  /** Its classes that name base classes, with those bases by last name (`{ Redis: ["RedisModuleCommands", "CoreCommands"] }`): the fleet's class hierarchy across scopes. */
  class_bases?: Record<string, string[]>;
  /** TS/JS re-exports (`export … from "./m.js"`): root-relative file and target (as written, resolved against the file's directory). */
  reexports?: { from: string; to: string }[];
  metadata?: ScopeMetadata;
}

/** "skip" leaves a reference with several equally good owners unresolved; "all" counts it once on each. */
export type AmbiguityPolicy = "skip" | "all";

export interface DeriveOptions {
  /** Roots an include may be written relative to; DEFAULT_INCLUDE_ROOTS when omitted. */
  includeRoots?: readonly string[];
  ambiguous?: AmbiguityPolicy;
}

export type UnresolvedReason = "undefined_symbol" | "no_owner" | "escapes_root" | "ambiguous";

/** A reference that produced no edge, kept so a user can see what the graph is missing and why. */
export interface UnresolvedReference {
  scope: string;
  reference: CodeReference;
  reason: UnresolvedReason;
  /** The scopes an ambiguous reference could belong to; empty for the other reasons. */
  candidates: readonly string[];
  detail: string;
}

export interface DeriveStats {
  references: number;
  /** References that became (part of) an edge. */
  resolved: number;
  /** References whose target the referencing scope owns itself: local, so not an edge. */
  selfReferences: number;
  unresolved: number;
}

export interface DerivedGraph {
  graph: ScopeGraph;
  unresolved: readonly UnresolvedReference[];
  stats: DeriveStats;
}

const referenceSchema = z.object({
  kind: z.enum(["call", "include", "import"]),
  target: z.string().trim().min(1, "target must not be empty"),
  from_file: z.string().min(1, "from_file must not be empty"),
  line: z.number().int().positive(),
});

const factsSchema = z.array(
  z.object({
    scope: z.string().min(1),
    paths: z.array(z.string()),
    symbols: z.array(z.string().min(1)),
    references: z.array(referenceSchema),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
);

const optionsSchema = z.object({
  includeRoots: z.array(z.string()).optional(),
  ambiguous: z.enum(["skip", "all"]).default("skip"),
});

/** Builds the graph; throws TopologyInputError on malformed facts or options (duplicate scopes included). */
export function deriveScopeGraph(facts: readonly ScopeFacts[], options: DeriveOptions = {}): DerivedGraph {
  const scopes = parseFacts(facts);
  const parsedOptions = parseOptions(options);
  const includeRoots = parsedOptions.includeRoots ?? DEFAULT_INCLUDE_ROOTS;
  const symbols = indexSymbols(scopes);
  const owners = new PathOwners();
  const builder = new ScopeGraphBuilder();
  for (const facts of scopes) {
    for (const path of facts.paths) owners.add(facts.scope, path);
    // Kept as written ("drivers/net/"), so users recognise their own prefixes in renderings.
    const paths = [...new Set(facts.paths.map((path) => path.trim()))].sort(compareText);
    builder.addScope(facts.scope, { ...(facts.metadata as ScopeMetadata | undefined), paths });
  }
  const unresolved: UnresolvedReference[] = [];
  const stats: DeriveStats = { references: 0, resolved: 0, selfReferences: 0, unresolved: 0 };
  for (const { scope, references } of scopes) {
    for (const reference of references) {
      stats.references += 1;
      const resolution =
        reference.kind === "call"
          ? resolveCall(symbols, reference.target)
          : resolvePath(owners, { ...reference, kind: reference.kind }, includeRoots);
      const outcome = record(builder, scope, reference, resolution, parsedOptions.ambiguous);
      if (outcome === "unresolved") unresolved.push(describeUnresolved(scope, reference, resolution));
      else stats[outcome === "self" ? "selfReferences" : "resolved"] += 1;
    }
  }
  stats.unresolved = unresolved.length;
  return { graph: builder.build(), unresolved: Object.freeze(unresolved), stats };
}

/** Adds the reference to the builder when it resolves to other scopes; says what happened to it. */
function record(
  builder: ScopeGraphBuilder,
  scope: string,
  reference: CodeReference,
  resolution: Resolution,
  policy: AmbiguityPolicy,
): "edge" | "self" | "unresolved" {
  if (resolution.status === "missing") return "unresolved";
  // A target the scope can satisfy itself is local, even when other scopes define it too.
  if (resolution.scopes.includes(scope)) return "self";
  if (resolution.scopes.length > 1 && policy === "skip") return "unresolved";
  const example = reference.kind === "call" ? reference.target : resolution.resolvedAs;
  const count = reference.count ?? 1;
  for (const to of resolution.scopes) builder.addReference({ from: scope, to, kind: reference.kind, example, count });
  return "edge";
}

function describeUnresolved(scope: string, reference: CodeReference, resolution: Resolution): UnresolvedReference {
  const where = `${reference.kind} "${reference.target}" at ${reference.from_file}:${reference.line}`;
  if (resolution.status === "missing") {
    return { scope, reference, reason: resolution.reason, candidates: [], detail: `${where}: ${resolution.detail}` };
  }
  const candidates = resolution.scopes;
  const detail = `${where}: ${candidates.length} scopes own "${resolution.resolvedAs}" (${candidates.join(", ")}); skipped as ambiguous`;
  return { scope, reference, reason: "ambiguous", candidates, detail };
}

function parseFacts(facts: readonly ScopeFacts[]): z.infer<typeof factsSchema> {
  const parsed = factsSchema.safeParse(facts);
  if (!parsed.success) throw inputError("invalid scope facts", formatZodIssues(parsed.error), parsed.error);
  const seen = new Set<string>();
  const duplicates = parsed.data.map((entry) => entry.scope).filter((scope) => seen.has(scope) || !seen.add(scope));
  if (duplicates.length > 0) {
    throw inputError("invalid scope facts", [...new Set(duplicates)].map((scope) => `scope "${scope}" is listed twice`));
  }
  return parsed.data;
}

function parseOptions(options: DeriveOptions): z.infer<typeof optionsSchema> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw inputError("invalid derive options", formatZodIssues(parsed.error), parsed.error);
  return parsed.data;
}
