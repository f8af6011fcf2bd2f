// TS/JS: a call leaving the scope through an imported capitalised name (`NoOutputGeneratedError.isInstance(e)`
// after `import { NoOutputGeneratedError } from "../error"`) is made on that class: its exit names the class
// beside the module, so the module's scope is asked for the class's own method, not the first of its classes'
// methods of that name (tried on the Vercel AI SDK: `InvalidArgumentError.isInstance` had been cited for it).
// A capitalised namespace (`Effect.gen(…)`) is no class there, and its member is found by its module as before.
import { describe, expect, it } from "vitest";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";

const SOURCES = {
  gen: {
    "gen/stream.ts": sourceLines(
      'import { NoOutputGeneratedError } from "../error";',
      'import { Effect } from "../effect";',
      "export function streamText(error: unknown) {",
      "  if (NoOutputGeneratedError.isInstance(error)) return 1;",
      "  return Effect.gen(error);",
      "}",
    ),
  },
  error: {
    "error/index.ts": sourceLines('export { InvalidArgumentError } from "./invalid";', 'export { NoOutputGeneratedError } from "./no-output";'),
    "error/invalid.ts": sourceLines("export class InvalidArgumentError extends Error {", "  static isInstance(error: unknown): boolean {", "    return false;", "  }", "}"),
    "error/no-output.ts": sourceLines("export class NoOutputGeneratedError extends Error {", "  static isInstance(error: unknown): boolean {", "    return true;", "  }", "}"),
  },
  effect: {
    "effect/index.ts": sourceLines("export function gen(value: unknown) {", "  return value;", "}"),
  },
};

describe("a call through an imported capitalised name", () => {
  const scopes = withScopes("mesh-imported-class-", SOURCES);
  const question = parseQuestion("How does streamText tell that no output was generated?");
  const pgc = (scope: string) => scopes().get(scope) as Pgc;

  it("leaves the scope naming the class beside the module", async () => {
    const result = await pgc("gen").search().expand({ question, mode: "forward", from: { symbol: "streamText" }, covered: {} });
    const exits = result.leads.flatMap((l) => (l.exit ? [`${l.exit.receiver_class ?? "-"}.${l.exit.target} from ${l.exit.module ?? "-"}`] : []));
    expect(exits).toEqual(expect.arrayContaining(["NoOutputGeneratedError.isInstance from ../error", "Effect.gen from ../effect"]));
  });

  it("is the class's own method in the module's scope, and a namespace's member by its module", async () => {
    const own = await pgc("error").search().expand({ question, mode: "forward", from: { symbol: "NoOutputGeneratedError.isInstance", module: "../error", called: true }, covered: {} });
    expect(own.steps[0]?.file_path).toBe("error/no-output.ts");
    const member = await pgc("effect").search().expand({ question, mode: "forward", from: { symbol: "Effect.gen", module: "../effect", called: true }, covered: {} });
    expect(member.steps[0]?.qualified).toBe("gen");
  });
});
