// A TS base class's method with nothing to run is a hook its subclasses override: TanStack Query's
// `Subscribable.subscribe` calls `this.onSubscribe()`, whose body is only "// Do nothing", and
// `QueryObserver` (another scope) overrides it to start a fetch on its first subscriber. The call is also an
// exit to the overrides other scopes define, so a climb from `QueryObserver.onSubscribe` goes back to
// `subscribe` (until 2026-11-28 it ended "nothing else calls it"), and a forward search from `subscribe` can
// continue into the override (PGC.md, call rule 2).
import { describe, expect, it } from "vitest";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { callsFrom, climbOver, scopeMapOf, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const CODE = {
  base: {
    "base/subscribable.ts": lines(
      "export class Subscribable {",
      "  protected listeners = new Set<() => void>();",
      "  subscribe(listener: () => void): () => void {",
      "    this.listeners.add(listener);",
      "    this.onSubscribe();",
      "    return () => this.listeners.delete(listener);",
      "  }",
      "  protected onSubscribe(): void {",
      "    // Do nothing",
      "  }",
      "  protected count(): number {",
      "    return this.listeners.size;",
      "  }",
      "  report(): number {",
      "    return this.count();",
      "  }",
      "}",
    ),
  },
  observer: {
    "observer/query-observer.ts": lines(
      'import { Subscribable } from "../base/subscribable.js";',
      "",
      "export class QueryObserver extends Subscribable {",
      "  protected onSubscribe(): void {",
      "    this.executeFetch();",
      "  }",
      "  executeFetch(): void {",
      "    return;",
      "  }",
      "}",
    ),
  },
};

describe("a base class's empty method, a hook for subclasses", () => {
  const scopes = withScopes("mesh-hook-climb-", CODE);

  it("is called through `this` and left for the overrides other scopes define; a method with a body is not", () => {
    const base = new CallGraph((scopes().get("base") as Pgc).data);
    const subscribe = callsFrom(base, "Subscribable.subscribe");
    expect(subscribe.local).toEqual(["Subscribable.onSubscribe:5"]);
    expect(subscribe.exits).toContain("onSubscribe:5");
    expect(callsFrom(base, "Subscribable.report")).toEqual({ local: ["Subscribable.count:15"], exits: [] });
  });

  it("lets a climb from a subclass's override go back to the base class's caller in its scope", async () => {
    const map = await scopeMapOf([...scopes().values()].map((pgc) => pgc.facts()));
    const outcome = await climbOver(scopes(), "observer", "QueryObserver.onSubscribe", "When a listener subscribes to a subscribable query observer, how does the subscription start a fetch?", map);
    expect(outcome.steps.map((s) => `${s.scope}:${s.symbol}`), JSON.stringify(outcome.decisions)).toEqual(["base:Subscribable.subscribe", "observer:QueryObserver.onSubscribe"]);
    expect(outcome.steps[1]?.call_site?.line).toBe(5);
  });
});
