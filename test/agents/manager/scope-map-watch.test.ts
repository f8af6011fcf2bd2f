// The manager's map of the code kept current as workers join (real worker processes over the demo kernel):
// the topology is derived before the first question asks for it, and callers arriving together share one
// refresh, which asks the scopes for their facts in parallel and derives the same graph.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pino from "pino";
import type { MeshNode } from "../../../bus/index.js";
import { AgentsDirectory } from "../../../agents/manager/agents-directory.js";
import { ScopeMap } from "../../../agents/manager/scope-map.js";
import { expected, TestFleet } from "../../helpers/fleet.js";

const fleet = new TestFleet();
let node: MeshNode;
let watched: ScopeMap;
let unwatch: () => void;
let listenersBefore: number;

beforeAll(async () => {
  node = await fleet.node("manager");
  listenersBefore = node.listenerCount("peer:join");
  watched = new ScopeMap(node, new AgentsDirectory(node), pino({ level: "silent" }));
  // Watching before any worker exists: the map must follow them as they come.
  unwatch = watched.watch();
  await fleet.startAll();
  await fleet.untilWorkers(node, expected.scopes.length);
}, 120_000);
afterAll(async () => {
  unwatch();
  await fleet.stop();
});

const edgesOf = (map: ScopeMap) => Object.fromEntries(expected.scopes.map((s) => [s.name, [...map.graph.neighbors(s.name)].sort()]));
const golden = Object.fromEntries(Object.entries(expected.topology.edges).map(([k, v]) => [k, [...v].sort()]));

describe("the scope map", () => {
  it("derives the topology as the workers join, before any question asks for it", async () => {
    await expect.poll(() => !watched.isStale() && watched.graph.edgeCount > 0, { timeout: 20_000 }).toBe(true);
    expect(edgesOf(watched)).toEqual(golden);
    // A question now finds it current: no scope is asked for its facts again.
    const request = vi.spyOn(node, "request");
    try {
      const graph = await watched.current();
      expect(graph).toBe(watched.graph);
      expect(request.mock.calls.filter(([, op]) => op === "references")).toHaveLength(0);
    } finally {
      request.mockRestore();
    }
  });

  it("shares one refresh among callers arriving together, asking each scope once", async () => {
    const cold = new ScopeMap(node, new AgentsDirectory(node), pino({ level: "silent" }));
    const request = vi.spyOn(node, "request");
    try {
      const [refreshed, current] = await Promise.all([cold.refresh(), cold.current()]);
      expect(current).toBe(refreshed);
      const asked = request.mock.calls.filter(([, op]) => op === "references").map(([worker]) => worker);
      expect(asked).toHaveLength(expected.scopes.length);
      expect(new Set(asked).size).toBe(expected.scopes.length);
    } finally {
      request.mockRestore();
    }
    // Fetched in parallel, derived the same: the same edges as the watched map's.
    expect(edgesOf(cold)).toEqual(golden);
    expect(cold.isStale()).toBe(false);
  });

  it("stops watching when told", () => {
    expect(node.listenerCount("peer:join")).toBeGreaterThan(listenersBefore);
    unwatch();
    expect(node.listenerCount("peer:join")).toBe(listenersBefore);
    expect(node.listenerCount("peer:leave")).toBe(0);
  });
});
