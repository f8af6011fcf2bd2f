// A plain call of a parameter or variable of the calling function runs whatever value the name holds,
// not a function of the scope that happens to share the name (PGC.md, call rule 1): the extraction marks
// it `local` and the call graph links nothing for it; `this.#m()` calls the private method `#m` (rule 2).
// Over code written here in the shapes of a middleware composer (Hono's `compose`) and of Python callbacks.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { withScopes } from "../../helpers/scopes.js";

const COMPOSE = [
  "export const compose = (middleware, onError) => {",
  "  return (context, next) => {",
  "    return dispatch(0);",
  "    async function dispatch(i) {",
  "      let handler;",
  "      if (middleware[i]) handler = middleware[i][0];",
  "      else handler = next;",
  "      const res = await handler(context, () => dispatch(i + 1));",
  "      for (const hook of middleware) hook(res);",
  "      const finish = (r) => onError(r);",
  "      return finish(res);",
  "    }",
  "  };",
  "};",
  "",
].join("\n");

const APP = [
  "export class App {",
  "  #respond(data) {",
  "    return new Response(data);",
  "  }",
  "  json = (object) => this.#respond(JSON.stringify(object));",
  "  route(path) {",
  "    return handler(path);",
  "  }",
  "}",
  "export function handler(path) {",
  "  return path;",
  "}",
  "export function hook(res) {",
  "  return res;",
  "}",
  "",
].join("\n");

const PYTHON = [
  "def run(callback, items, hook=None):",
  "    for step in items:",
  "        step()",
  "    callback(items)",
  "    notify = make_notifier()",
  "    notify(items)",
  "    finish = lambda: done(items)",
  "    finish()",
  "    def inner():",
  "        callback()",
  "    inner()",
  "    return report(items)",
  "",
  "def callback(items):",
  "    return items",
  "",
  "def report(items):",
  "    return len(items)",
  "",
].join("\n");

const locals = (calls: readonly { callee: string; local: boolean }[]) => [...new Set(calls.filter((c) => c.local).map((c) => c.callee))].sort();

describe("plain calls of a function's own parameters and variables", () => {
  it("are local in TS/JS: parameters, let and const values and loop variables of any function around the call", async () => {
    const parsed = await parseFile({ path: "compose.js", content: COMPOSE, language: "javascript" });
    expect(locals(parsed.calls)).toEqual(["handler", "hook", "onError"]);
    // A function defined where it is bound, or declared in the body, is called as itself.
    expect(parsed.calls.filter((c) => ["dispatch", "finish"].includes(c.callee)).every((c) => !c.local)).toBe(true);
  });

  it("are local in Python: parameters, assignments and loop variables, not a lambda's name or a nested def", async () => {
    const parsed = await parseFile({ path: "run.py", content: PYTHON, language: "python" });
    // `callback()` in `inner` is `run`'s parameter as well (a closure sees it).
    expect(locals(parsed.calls)).toEqual(["callback", "notify", "step"]);
    expect(parsed.calls.filter((c) => c.callee === "callback").map((c) => c.local)).toEqual([true, true]);
    expect(parsed.calls.filter((c) => ["finish", "inner", "report", "make_notifier"].includes(c.callee)).every((c) => !c.local)).toBe(true);
  });

  it("are local when a comprehension's loop or an unpacking binds them", async () => {
    // Django's `Signal.send`: `[(receiver, receiver(signal=self, …)) for receiver in self._live_receivers(sender)]`
    // calls each connected receiver, not the module's `receiver` decorator beside it.
    const source = [
      "def receiver(signal):",
      "    return signal",
      "",
      "def send(pairs, receivers, named):",
      "    first = [receiver(named) for receiver in receivers]",
      "    for sender, handler in pairs:",
      "        handler(sender)",
      "    check, finish = named",
      "    check()",
      "    return first, {key: value() for key, value in named.items()}, receiver(named)",
      "",
      "def handler(sender):",
      "    return sender",
      "",
    ].join("\n");
    const parsed = await parseFile({ path: "signal.py", content: source, language: "python" });
    expect(locals(parsed.calls)).toEqual(["check", "handler", "receiver", "value"]);
    // The call outside the comprehension is the module's function.
    expect(parsed.calls.filter((c) => c.callee === "receiver").map((c) => c.local)).toEqual([true, false]);
  });

  it("are local in TS/JS when a destructuring binds them", async () => {
    const source = ["export function run(pair, options) {", "  const [first, second] = pair;", "  const { onDone } = options;", "  second(first);", "  onDone();", "  return helper();", "}", "function second() {}", "function helper() {}", ""].join("\n");
    const parsed = await parseFile({ path: "run.js", content: source, language: "javascript" });
    expect(locals(parsed.calls)).toEqual(["onDone", "second"]);
  });
});

const SCOPE: Record<string, string> = { "web/compose.js": COMPOSE, "web/app.js": APP, "web/run.py": PYTHON };

describe("the call graph of a scope with such calls", () => {
  const scopes = withScopes("mesh-locals-", { web: SCOPE });
  const pgc = (): Pgc => scopes().get("web") as Pgc;

  const callers = async (symbol: string) => {
    const result = await pgc().search().expand({ question: parseQuestion(`Who calls ${symbol}?`), mode: "callers", from: { symbol }, covered: {} });
    return result.steps.map((s) => s.qualified).sort();
  };

  it("links no call of a variable to the scope's function of the same name", async () => {
    // `App.route` calls the module's `handler`; `dispatch`'s `handler(…)` and `hook(res)` call values.
    expect(await callers("handler")).toEqual(["App.route"]);
    expect(await callers("hook")).toEqual([]);
    expect(await callers("callback")).toEqual([]);
    expect(await callers("report")).toEqual(["run"]);
  });

  it("follows `this.#m()` to the private method", async () => {
    expect(await callers("#respond")).toEqual(["App.json"]);
    const result = await pgc().search().expand({ question: parseQuestion("How does json build the response?"), mode: "forward", from: { symbol: "App.json" }, covered: {} });
    const reached = new Set(result.leads.flatMap((l) => l.path.map((i) => result.steps[i]?.qualified)));
    expect(reached.has("App.#respond")).toBe(true);
  });
});
