// Scopes of real code in-process: each writes its files under one root and opens its own PGC there, so a
// manager-side search can be run against the workers' real call-graph searches without a fleet.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import pino from "pino";
import { openPgc } from "../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../agents/pgc/pgc.js";
import { ScopeMap } from "../../agents/manager/scope-map.js";
import { entryRound } from "../../agents/manager/entry/entry-round.js";
import { toStep, traceForward, type TraceOutcome, type Trail } from "../../agents/manager/search/trace-chain.js";
import { climbCallers } from "../../agents/manager/search/climb-callers.js";
import type { Ownership } from "../../agents/manager/ownership.js";
import { answerBySearch, type SearchAnswerDeps } from "../../agents/manager/answer/answer-question.js";
import { parseQuestion } from "../../agents/search/question.js";
import { parseEntryArgs, parseExpandArgs, type ExpandArgs } from "../../agents/protocol/index.js";
import type { ScopeFacts } from "../../topology/index.js";
import type { CallGraph } from "../../agents/pgc/callgraph/call-graph.js";

/** A source file's text from its lines, each ended by a newline. */
export const sourceLines = (...text: string[]): string => text.join("\n") + "\n";

/** Writes every scope's files (scope → path → text) under `dir`/code and opens a PGC per scope, owning `scope/` (or the paths `owned` gives it). */
export async function openScopes(dir: string, sources: Record<string, Record<string, string>>, owned: Record<string, string[]> = {}): Promise<Map<string, Pgc>> {
  const root = join(dir, "code");
  const logger = pino({ level: "silent" });
  const scopes = new Map<string, Pgc>();
  // Every scope's files are there before any scope is indexed, as in a checkout.
  for (const files of Object.values(sources)) {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  }
  for (const scope of Object.keys(sources)) {
    const paths = owned[scope] ?? [`${scope}/`];
    const opened = await openPgc({ scope, root, scopePaths: paths, cacheRoot: join(dir, "cache"), logger });
    scopes.set(scope, new Pgc(scope, paths, opened));
  }
  return scopes;
}

/** Opens the sources' scopes (`openScopes`) in a fresh temp dir before a suite's tests, and removes it after them. */
export function withScopes(prefix: string, sources: Record<string, Record<string, string>>, owned: Record<string, string[]> = {}): () => Map<string, Pgc> {
  let dir = "";
  let opened = new Map<string, Pgc>();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    opened = await openScopes(dir, sources, owned);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => opened;
}

/**
 * The manager's map of the code built from these facts, as the scopes' workers would report them (a stand-in
 * for the bus only: each request returns the scope's facts).
 */
export async function scopeMapOf(facts: readonly ScopeFacts[]): Promise<ScopeMap> {
  const byScope = new Map(facts.map((f) => [f.scope, f]));
  const node = { peersVersion: 0, request: async (id: string) => byScope.get(id) };
  const directory = { scopes: () => [...byScope.keys()], replicas: (s: string) => [{ id: s, index_revision: "r" }], list: () => facts.map((f) => ({ scope: f.scope, index_revision: "r" })) };
  const map = new ScopeMap(node as never, directory as never, pino({ level: "silent" }));
  await map.refresh();
  return map;
}

/** The manager's scope map built from these scopes' own facts, as the manager builds it from their `references` answers. */
export function factsMapOf(scopes: ReadonlyMap<string, Pgc>): Promise<ScopeMap> {
  return scopeMapOf([...scopes.values()].map((p) => p.facts()));
}

export interface TraceOptions {
  maxHops?: number;
  /** Give the search the entry round's candidates (what each scope could add); true unless said. */
  withCandidates?: boolean;
  /** Told of every expand request the search sends, with the trail it carries. */
  onExpand?: (scope: string, args: ExpandArgs, trail: Trail) => void;
}

/**
 * The manager's forward search over these scopes' own call-graph searches, from `startSymbol` as the entry
 * round found it: the question parsed and weighed as the manager does, each scope answering in-process.
 */
/** The manager's entry round over these scopes, each answering `entry` in-process. */
export function entryRoundOver(scopes: ReadonlyMap<string, Pgc>, text: string): ReturnType<typeof entryRound> {
  return entryRound(parseQuestion(text), [...scopes.keys()], async (scope, args) => (scopes.get(scope) as Pgc).search().entry(parseEntryArgs(args).question, args.top_k));
}

export async function traceFrom(scopes: ReadonlyMap<string, Pgc>, facts: readonly ScopeFacts[], text: string, startSymbol: string, options: TraceOptions = {}): Promise<TraceOutcome> {
  const round = await entryRoundOver(scopes, text);
  const start = round.candidates.find((c) => c.symbol === startSymbol);
  if (!start) throw new Error(`${startSymbol} is no entry candidate`);
  const deps = {
    managerId: "manager",
    ownership: await scopeMapOf(facts),
    graph: { nodes: [], edges: [] } as never,
    expand: async (scope: string, args: ExpandArgs, trail: Trail) => {
      options.onExpand?.(scope, args, trail);
      // The receiver's cycle guard (PROTOCOL.md): a request whose path holds it is refused.
      if (trail.path.includes(`${scope}-1`)) throw new Error(`cycle_detected: ${scope}-1 is on the path ${trail.path.join(" -> ")}`);
      return { result: await (scopes.get(scope) as Pgc).search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 0 };
    },
  };
  return traceForward(deps, { question: round.question, start, scopeScores: new Map(), maxHops: options.maxHops ?? 6, ...(options.withCandidates === false ? {} : { candidates: round.candidates }) });
}

/**
 * What the manager's search (`answerBySearch`) needs, over these scopes' own searches in-process: their
 * facts as the scope map, each scope's `entry` and `expand` answered by its PGC (told to `onExpand`), and
 * the lines re-hashed by `readFile` (none when absent).
 */
export async function searchDepsOf(scopes: ReadonlyMap<string, Pgc>, options: { onExpand?: (scope: string, args: ExpandArgs) => void; readFile?: (path: string) => Promise<string | null> } = {}): Promise<SearchAnswerDeps> {
  const map = await factsMapOf(scopes);
  return {
    managerId: "manager",
    scopes: [...scopes.keys()],
    graph: await map.current(),
    ownership: map,
    surface: map.surface(),
    askEntry: async (scope, args) => (scopes.get(scope) as Pgc).search().entry(parseEntryArgs(args).question, args.top_k),
    expand: async (scope, args) => {
      options.onExpand?.(scope, args);
      return { result: await (scopes.get(scope) as Pgc).search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 0 };
    },
    hashSources: { readFile: options.readFile ?? null },
    storeHop: () => "hop",
  };
}

/** A function's calls in a call graph, as `callee:line`: inside the scope (`local`) and leaving it (`exits`). */
export function callsFrom(graph: CallGraph, qualified: string): { local: string[]; exits: string[] } {
  const node = graph.nodes.find((n) => n.qualified === qualified);
  expect(node, `no node ${qualified}`).toBeDefined();
  return {
    local: graph.callsOf(node?.id ?? -1).map((e) => `${graph.nodes[e.to]?.qualified}:${e.line}`),
    exits: graph.exitsOf(node?.id ?? -1).map((e) => `${e.target}:${e.line}`),
  };
}

/** The manager's answer to `question` over these scopes in-process, each step's lines re-hashed against the files the scopes were built from. */
export async function answerOver(scopes: ReadonlyMap<string, Pgc>, question: string, maxHops = 6): ReturnType<typeof answerBySearch> {
  const root = [...scopes.values()][0]?.root ?? "";
  const deps = await searchDepsOf(scopes, { readFile: async (path) => readFile(join(root, path), "utf8").catch(() => null) });
  return answerBySearch(deps, { id: "q", question, maxHops });
}

/** The manager's climb from a one-step chain starting at `symbol` in `scope`, each scope's own search answering in-process. */
export async function climbOver(scopes: ReadonlyMap<string, Pgc>, scope: string, symbol: string, text: string, ownership?: Ownership): Promise<TraceOutcome> {
  const question = parseQuestion(text);
  const expand = async (at: string, args: ExpandArgs) => ({ result: await (scopes.get(at) as Pgc).search().expand(parseExpandArgs(args)), agent: `${at}-1`, failovers: 0 });
  const args: ExpandArgs = { question, mode: "forward", from: { symbol }, covered: {} };
  const first = await (scopes.get(scope) as Pgc).search().expand(parseExpandArgs(args));
  const entry = toStep(first.steps[0]!, scope, `${scope}-1`, null);
  const outcome: TraceOutcome = { steps: [entry], hops: [{ scope, agent: `${scope}-1`, args, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };
  return climbCallers({ expand, managerId: "manager", ...(ownership ? { ownership } : {}) }, question, outcome, 6);
}
