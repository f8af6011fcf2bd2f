// Where the question says its path ends: an exit whose chain reaches it is followed even when a path staying
// in the scope picks up more of the question's other words ("… end up with a development server bound to a
// port?": `flask run` stays in flask's banner code by its words, and reaches the port only in werkzeug's
// `run_simple`), as long as it covers more once the destination's terms count twice. Python parsed for
// real, each scope's own search.
import { describe, expect, it } from "vitest";
import { traceFrom, withScopes } from "../../helpers/scopes.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { destinationTerms } from "../../../agents/search/question-roles.js";
import type { TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import type { ScopeFacts } from "../../../topology/index.js";

const SOURCES: Record<string, Record<string, string>> = {
  cli: {
    "cli/run.py": [
      "from server.serve import run_simple",
      "",
      "def run_command(app, host, port):",
      '    """Runs the run command: a development server for the app."""',
      "    show_banner(app)",
      "    return run_simple(host, port, app)",
      "",
      "def show_banner(app):",
      '    """Shows the banner of the development server when the user types the command."""',
      "    return describe_app(app)",
      "",
      "def describe_app(app):",
      '    """Describes what the typed command serves, and what it is bound to: the app and its debugger."""',
      "    return app",
      "",
    ].join("\n"),
  },
  server: {
    "server/serve.py": [
      "def run_simple(host, port, app):",
      '    """Starts a server."""',
      "    return bind_port(host, port, app)",
      "",
      "def bind_port(host, port, app):",
      '    """Binds it."""',
      "    return (host, port, app)",
      "",
    ].join("\n"),
  },
};

const FACTS: ScopeFacts[] = [
  { scope: "cli", paths: ["cli/"], symbols: ["run_command", "show_banner", "describe_app"], references: [] },
  { scope: "server", paths: ["server/"], symbols: ["run_simple", "bind_port"], references: [] },
];

const scopes = withScopes("mesh-destination-", SOURCES);

function trace(text: string): Promise<TraceOutcome> {
  return traceFrom(scopes(), FACTS, text, "run_command");
}

describe("the exit towards where the question says its path ends", () => {
  // Said in the passive: "When the user types …" reads the typing as a call (written-names.ts, ACTOR_VERB), which
  // the banner's doc matches only in part, and the staying path would no longer cover more.
  const question = "When the run command is typed by the user, how does it end up with a development server bound to a port?";

  it("is followed though the path staying in the scope covers more of the question's other words", async () => {
    expect([...destinationTerms(parseQuestion(question))]).toEqual(["port"]);
    const traced = await trace(question);

    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["cli:run_command", "server:run_simple", "server:bind_port"]);
    expect(traced.decisions.find((d) => d.at === "exit")?.detail).toMatch(/^left cli by run_simple \(cli\/run\.py:6\) into server: .*, and covers more than staying does once where the question says its path ends counts twice \(staying covers ([\d.]+) of the question, it ([\d.]+)\)$/);
  });

  it("is not followed when the path staying covers more than the destination adds, counted twice", async () => {
    // The banner's path covers the banner, the app and its debugger; the server's path only the port.
    const asked = "When the run command is typed by the user, how does it show the banner that describes the app and its debugger, bound to a port?";
    expect([...destinationTerms(parseQuestion(asked))]).toEqual(["port"]);
    const traced = await trace(asked);

    expect(traced.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["cli:run_command", "cli:show_banner", "cli:describe_app"]);
    expect(traced.decisions.find((d) => d.at === "end")?.detail).toMatch(/^the best path in cli covers more of the question/);
  });

  it("is not preferred when the question names no destination", async () => {
    const traced = await trace("When the user types the run command, how does the development server show its banner?");

    expect(new Set(traced.steps.map((s) => s.scope))).toEqual(new Set(["cli"]));
  });
});
