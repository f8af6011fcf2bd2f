// A TS/JS private method (`#executeFetch`) is called by its `#` name: the climb above a chain's first step
// asks its scope for the callers of that name. Found on TanStack Query's core, where a chain beginning at
// `QueryObserver.#executeFetch` ended "nothing else calls it" because the climb asked for `executeFetch`,
// and `onSubscribe` ("when a QueryObserver gets its first subscriber") was never reached.
import { describe, expect, it } from "vitest";
import { calledAs, namesCallee } from "../../../agents/manager/validation/chain-check.js";
import { lastName } from "../../../agents/protocol/index.js";
import { climbOver, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const CODE = {
  core: {
    "core/observer.ts": lines(
      "export class QueryObserver {",
      "  listeners: string[] = [];",
      "  onSubscribe(listener: string): void {",
      "    this.listeners.push(listener);",
      "    if (this.listeners.length === 1) this.#executeFetch();",
      "  }",
      "  #executeFetch(): Promise<void> {",
      "    return Promise.resolve();",
      "  }",
      "}",
    ),
  },
};

describe("a private method's name", () => {
  const scopes = withScopes("mesh-private-climb-", CODE);

  it("keeps its `#`, which a call line writes before it", () => {
    expect(lastName("QueryObserver.#executeFetch")).toBe("#executeFetch");
    expect(calledAs("QueryObserver.#executeFetch")).toBe("#executeFetch");
    expect(namesCallee("    if (this.listeners.length === 1) this.#executeFetch();", "QueryObserver.#executeFetch")).toBe(true);
    // A public method of the same name is another function.
    expect(namesCallee("    this.executeFetch();", "QueryObserver.#executeFetch")).toBe(false);
  });

  it("is what the climb asks its callers by: the chain goes back to the method calling it", async () => {
    const outcome = await climbOver(scopes(), "core", "QueryObserver.#executeFetch", "When a QueryObserver gets its first subscriber, how does it start a fetch?");
    expect(outcome.steps.map((s) => s.symbol)).toEqual(["QueryObserver.onSubscribe", "QueryObserver.#executeFetch"]);
    expect(outcome.steps[1]?.call_site?.line).toBe(5);
  });
});
