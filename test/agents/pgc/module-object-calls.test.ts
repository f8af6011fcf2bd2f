// A member call on a lower-case default import (`adapters.getAdapter(…)` after `import adapters from
// "../adapters/adapters.js"`, whose default export is the object `{ getAdapter, … }`) is a call into that
// module (PGC.md, call rule 0 and 4): tried as a new user would on axios, the chain from `dispatchRequest`
// had stopped with "lib-adapters does not define getAdapter as a function", the call being taken for a
// method of an object of unknown class. A capitalised default import is a class: `Headers.from(…)` stays a
// method call of that class. JavaScript parsed for real, two scopes under `lib/`.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { sourceLines, traceFrom, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  "lib-core": {
    "lib/core/dispatchRequest.js": sourceLines(
      "import adapters from '../adapters/adapters.js';",
      "import Headers from '../adapters/Headers.js';",
      "",
      "export default function dispatchRequest(config) {",
      "  config.headers = Headers.from(config.headers);",
      "  const adapter = adapters.getAdapter(config.adapter, config);",
      "  return adapter(config);",
      "}",
    ),
  },
  "lib-adapters": {
    "lib/adapters/adapters.js": sourceLines(
      "const knownAdapters = { http: null, xhr: null };",
      "",
      "function getAdapter(names, config) {",
      "  // Pick the first adapter the environment supports for this request.",
      "  return resolveAdapter(names.find((name) => knownAdapters[name]), config);",
      "}",
      "",
      "function resolveAdapter(adapter, config) {",
      "  return adapter || config.adapter;",
      "}",
      "",
      "export default { getAdapter, adapters: knownAdapters };",
    ),
    "lib/adapters/Headers.js": sourceLines(
      "export default class Headers {",
      "  static from(thing) {",
      "    return new Headers(thing);",
      "  }",
      "}",
    ),
  },
};

describe("a member call on a lower-case default import", () => {
  const scopes = withScopes("module-object-", SOURCES, { "lib-core": ["lib/core/"], "lib-adapters": ["lib/adapters/"] });
  const facts = () => [...scopes().values()].map((p) => p.facts());

  it("is a call into the imported module, and a capitalised default import's a call of its class", () => {
    const graph = new CallGraph((scopes().get("lib-core") as Pgc).data);
    const dispatch = graph.nodes.find((n) => n.name === "dispatchRequest");
    const exits = graph.exitsOf(dispatch?.id ?? -1).map((e) => `${e.target}:${e.via}:${e.module ?? e.receiver_class ?? "-"}`);
    expect(exits).toEqual(["from:member:Headers", "getAdapter:reference:../adapters/adapters.js"]);
  });

  it("is followed into the module's function of that name", async () => {
    const outcome = await traceFrom(scopes(), facts(), "How does dispatchRequest pick the adapter for a request with getAdapter?", "dispatchRequest");
    expect(outcome.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["lib-core:dispatchRequest", "lib-adapters:getAdapter", "lib-adapters:resolveAdapter"]);
    expect(outcome.steps[1]?.call_site?.line).toBe(6);
  });
});
