// Cross-scope references of the demo kernel against its golden topology (test/fixtures/c-kernel/EXPECTED.json).
import { beforeAll, describe, expect, it } from "vitest";
import { extractScope, type ScopeExtractionResult } from "../../../agents/pgc/overlays/index.js";
import { C_KERNEL_DIR, loadExpectedTopology, owningScope, type ExpectedTopology } from "../../fixtures/fixture-paths.js";

const expected: ExpectedTopology = loadExpectedTopology();
let whole: ScopeExtractionResult;
const byScope = new Map<string, ScopeExtractionResult>();

beforeAll(async () => {
  whole = await extractScope({ root: C_KERNEL_DIR, gitHistory: false });
  for (const scope of expected.scopes) {
    byScope.set(scope.name, await extractScope({ root: C_KERNEL_DIR, scopePaths: scope.paths, gitHistory: false }));
  }
});

function scopeResult(name: string): ScopeExtractionResult {
  const result = byScope.get(name);
  if (!result) throw new Error(`scope ${name} not extracted`);
  return result;
}

/** The scope graph implied by each scope's references: calls go to the definer's scope, includes to the header's. */
function derivedEdges(): Record<string, string[]> {
  const definedIn = new Map<string, string>();
  for (const symbol of whole.symbols) if (!definedIn.has(symbol.name)) definedIn.set(symbol.name, symbol.file_path);
  const edges: Record<string, string[]> = {};
  for (const scope of expected.scopes) {
    const targets = new Set<string>();
    for (const reference of scopeResult(scope.name).crossScopeReferences) {
      const file = reference.kind === "call" ? definedIn.get(reference.target) : reference.resolved_outside;
      const owner = file === undefined ? null : owningScope(expected, file);
      if (owner && owner !== scope.name) targets.add(owner);
    }
    edges[scope.name] = [...targets].sort();
  }
  return edges;
}

function shortestPath(edges: Record<string, string[]>, from: string, to: string): string[] | null {
  const queue: string[][] = [[from]];
  const seen = new Set([from]);
  for (let path = queue.shift(); path; path = queue.shift()) {
    const last = path[path.length - 1] ?? from;
    if (last === to) return path;
    for (const next of edges[last] ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...path, next]);
      }
    }
  }
  return null;
}

describe("cross-scope references of the demo kernel", () => {
  it.each(["net", "drivers", "kernel", "mm"])("%s reports exactly the golden cross-scope calls", (name) => {
    const calls = scopeResult(name)
      .crossScopeReferences.filter((reference) => reference.kind === "call")
      .map((reference) => ({ from_file: reference.from_file, line: reference.line, caller: reference.caller, callee: reference.target }));
    const golden = (expected.cross_scope_calls[name] ?? []).map(({ from_file, line, caller, callee }) => ({ from_file, line, caller, callee }));
    expect(calls).toEqual(golden);
  });

  it.each(["net", "drivers", "kernel", "mm"])("%s reports exactly the golden cross-scope includes", (name) => {
    const includes = scopeResult(name)
      .crossScopeReferences.filter((reference) => reference.kind === "include")
      .map((reference) => ({ from_file: reference.from_file, line: reference.line, target: reference.target, resolves_to: reference.resolved_outside }));
    const golden = (expected.cross_scope_includes[name] ?? []).map(({ from_file, line, target, resolves_to }) => ({ from_file, line, target, resolves_to }));
    expect(includes).toEqual(golden);
  });

  it("every golden callee is defined in the scope EXPECTED.json says", () => {
    for (const calls of Object.values(expected.cross_scope_calls)) {
      for (const call of calls) {
        expect(whole.symbols.some((symbol) => symbol.name === call.callee && symbol.file_path === call.defined_in)).toBe(true);
        expect(owningScope(expected, call.defined_in)).toBe(call.to);
      }
    }
  });

  it("the references imply the golden scope graph, cycles and shortest paths", () => {
    const edges = derivedEdges();
    expect(edges).toEqual(Object.fromEntries(Object.entries(expected.topology.edges).map(([from, to]) => [from, [...to].sort()])));
    for (const route of expected.topology.shortest_paths) expect(shortestPath(edges, route.from, route.to)).toEqual(route.path);
    for (const cycle of expected.topology.cycles) {
      cycle.slice(1).forEach((scope, index) => expect(edges[cycle[index] ?? ""]).toContain(scope));
    }
  });

  it("the golden multi-hop chains are real call edges between real definitions", () => {
    for (const chain of expected.chains) {
      for (const hop of chain.hops) {
        expect(whole.symbols.some((symbol) => symbol.name === hop.symbol && symbol.file_path === hop.file)).toBe(true);
        expect(owningScope(expected, hop.file)).toBe(hop.scope);
      }
      chain.hops.slice(1).forEach((hop, index) => {
        const from = chain.hops[index]?.symbol;
        expect(whole.calls.some((call) => call.caller === from && call.callee === hop.symbol), `${from} → ${hop.symbol}`).toBe(true);
      });
    }
  });

  it("the whole tree as one scope references nothing outside itself", () => {
    expect(whole.crossScopeReferences).toEqual([]);
    expect(whole.stats.files_with_syntax_errors).toBe(0);
  });
});
