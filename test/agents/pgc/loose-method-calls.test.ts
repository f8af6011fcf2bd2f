// A method call through an object of unknown class whose name several classes of the scope define
// (`directive_instance.run()`, the object built from a class passed in as a parameter) may be any class's
// method, here or in another scope (PGC.md, call rule 4): no search follows it (there are too many places
// it may go), but it is a caller of that name, the scope's facts count it as a call of the name, and a
// chain's climb from another scope's method of that name finds it. Found on docutils, where the climb from
// `Image.run` stopped ("nothing else calls it") because `run_directive`'s call had been dropped as
// ambiguous. A receiver named after a class in snake case (`state_machine`, `StateMachine`) is that
// class's object, not any class holding the words (`NestedStateMachine`).
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { answerBySearch } from "../../../agents/manager/answer/answer-question.js";
import { climbOver, factsMapOf, searchDepsOf, sourceLines, withScopes } from "../../helpers/scopes.js";
import type { TraceOutcome } from "../../../agents/manager/search/trace-chain.js";

const SOURCES = {
  parsers: {
    "parsers/states.py": sourceLines(
      "class StateMachine:",
      "    def run(self, lines):",
      "        return lines",
      "",
      "class NestedStateMachine(StateMachine):",
      "    def run(self, lines):",
      "        return lines[1:]",
      "",
      "class Reporter:",
      "    def run(self, message):",
      "        return message",
      "",
      "class Body:",
      "    def __init__(self, state_machine):",
      "        self.state_machine = state_machine",
      "",
      "    def nested_parse(self, lines):",
      "        return self.state_machine.run(lines)",
      "",
      "    def run_directive(self, directive, name):",
      "        directive_instance = directive(name, self)",
      "        return directive_instance.run()",
    ),
  },
  directives: {
    "directives/images.py": sourceLines(
      "def image_node(arguments):",
      "    return list(arguments)",
      "",
      "class Figure:",
      "    def run(self):",
      '        """Insert a figure node into the document."""',
      "        return [self.arguments]",
      "",
      "class Image:",
      "    def run(self):",
      '        """Insert the image node of an image directive into the document."""',
      "        return image_node(self.arguments)",
    ),
  },
};

/** The climb from `symbol` in `scope`, with the manager's map built from the scopes' own facts, as the manager's is. */
async function climbFrom(pgcs: ReadonlyMap<string, Pgc>, scope: string, symbol: string, text: string): Promise<TraceOutcome> {
  return climbOver(pgcs, scope, symbol, text, await factsMapOf(pgcs));
}

describe("a method call through an object of unknown class", () => {
  const scopes = withScopes("loose-method-", SOURCES);
  const graphOf = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);

  it("is a caller of that name, and a call the scope's facts count, when several of its classes define the method, though no search follows it", () => {
    const graph = graphOf("parsers");
    const runDirective = graph.nodes.find((n) => n.qualified === "Body.run_directive");
    expect(runDirective).toBeDefined();
    expect(graph.callsOf(runDirective?.id ?? -1)).toEqual([]);
    expect(graph.exitsOf(runDirective?.id ?? -1)).toEqual([]);
    expect(graph.looseCalls()).toEqual([{ target: "run", from_file: "parsers/states.py", line: 22, count: 1 }]);
    expect(graph.callersOf("run").map((c) => `${c.node.qualified}:${c.line}:${c.to?.qualified ?? "-"}`)).toEqual(["Body.nested_parse:18:StateMachine.run", "Body.run_directive:22:-"]);
    const facts = (scopes().get("parsers") as Pgc).facts();
    expect(facts.references).toContainEqual({ kind: "call", target: "run", from_file: "parsers/states.py", line: 22, count: 1 });
  });

  it("through a receiver named after a class in snake case, calls that class's method only", () => {
    const graph = graphOf("parsers");
    const nested = graph.nodes.find((n) => n.qualified === "Body.nested_parse");
    expect(graph.callsOf(nested?.id ?? -1).map((e) => graph.nodes[e.to]?.qualified)).toEqual(["StateMachine.run"]);
    expect(graph.exitsOf(nested?.id ?? -1)).toEqual([]);
  });

  it("is where a chain's climb from another scope's method of that name finds its caller", async () => {
    const climbed = await climbFrom(scopes(), "directives", "Image.run", "When the parser meets an image directive, how does it end up running the image directive's code?");
    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["parsers:Body.run_directive", "directives:Image.run"]);
    expect(climbed.steps[1]?.call_site?.line).toBe(22);
  });

  it("is no caller of a class's method asked for by its class, and the answer says why the scope gave none", async () => {
    const pgcs = scopes();
    const deps = await searchDepsOf(pgcs);
    const result = await answerBySearch(deps, { id: "c", question: "Who calls Image.run?", maxHops: 6 });
    expect(result.chain?.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["directives:Image.run"]);
    expect(result.decisions?.map((d) => d.detail)).toContain("parsers's code calls run, but none of its calls is shown to be Image.run's");
  });
});

// A member call of a name the scope does not define, through an object of unknown class
// (`self.req.load_pyproject_toml()` in pip's distributions package), is a member exit the forward search
// follows; it is a call the scope's facts count as well, so a climb from that method elsewhere finds it.
// Found on pip, where the climb from `InstallRequirement.load_pyproject_toml` stopped: "nothing else calls it".
const MEMBER_SOURCES = {
  dists: {
    "dists/sdist.py": sourceLines(
      "class SourceDistribution:",
      "    def __init__(self, req):",
      "        self.req = req",
      "",
      "    def prepare_distribution_metadata(self, finder):",
      '        """Prepare the metadata of a source distribution before it is built."""',
      "        self.req.load_pyproject_toml()",
      "        return self.req.metadata",
    ),
  },
  req: {
    "req/install.py": sourceLines(
      "class InstallRequirement:",
      "    def load_pyproject_toml(self):",
      '        """Read the pyproject.toml of the requirement, if it has one."""',
      "        return self.source_dir",
    ),
  },
};

describe("a member call through an object of unknown class whose name the scope does not define", () => {
  const scopes = withScopes("member-method-", MEMBER_SOURCES);

  it("is a call the scope's facts count, with its call site", () => {
    const facts = (scopes().get("dists") as Pgc).facts();
    expect(facts.references).toContainEqual({ kind: "call", target: "load_pyproject_toml", from_file: "dists/sdist.py", line: 7, count: 1 });
  });

  it("is where a chain's climb from the method in another scope finds its caller", async () => {
    const climbed = await climbFrom(scopes(), "req", "InstallRequirement.load_pyproject_toml", "When a source distribution's metadata is prepared, how is its pyproject.toml loaded?");
    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["dists:SourceDistribution.prepare_distribution_metadata", "req:InstallRequirement.load_pyproject_toml"]);
    expect(climbed.steps[1]?.call_site?.line).toBe(7);
  });
});

// A member call through an object of unknown class whose name one or two classes of the scope define
// (`self.schedule.is_due(…)` in celery's beat, beside `ScheduleEntry.is_due` and `Scheduler.is_due`) may as well
// be another scope's class's method (celery's `crontab.is_due`): it calls the scope's own and is a member exit
// too, so the scope's facts count it and a climb from the other scope's method finds it. A receiver named
// after a class only in part (`schedule` in `ScheduleEntry`) is no sign of which. Found on celery, where the
// climb from `crontab.is_due` stopped: "nothing else calls it". A name of one word (`connect`) is as likely a
// built-in object's method (a socket's): no exit.
const OWN_NAME_SOURCES = {
  beat: {
    "beat/beat.py": sourceLines(
      "class ScheduleEntry:",
      "    def __init__(self, schedule):",
      "        self.schedule = schedule",
      "",
      "    def is_due(self):",
      '        """See whether the entry is due to run."""',
      "        return self.schedule.is_due(self.last_run_at)",
      "",
      "class Scheduler:",
      "    def is_due(self, entry):",
      "        return entry.is_due()",
      "",
      "class Connection:",
      "    def connect(self):",
      "        return self.sock.connect(self.host)",
    ),
  },
  schedules: {
    "schedules/crontab.py": sourceLines(
      "class crontab:",
      "    def is_due(self, last_run_at):",
      '        """Return whether the crontab schedule is due, and when it runs next."""',
      "        return self.remaining_estimate(last_run_at)",
    ),
  },
};

describe("a member call through an object of unknown class whose name one or two of the scope's classes define", () => {
  const scopes = withScopes("own-name-method-", OWN_NAME_SOURCES);

  it("is a member exit besides, and a call the scope's facts count", () => {
    const graph = new CallGraph((scopes().get("beat") as Pgc).data);
    const entry = graph.nodes.find((n) => n.qualified === "ScheduleEntry.is_due");
    expect(graph.exitsOf(entry?.id ?? -1).map((e) => `${e.target}:${e.line}`)).toEqual(["is_due:7"]);
    const facts = (scopes().get("beat") as Pgc).facts();
    expect(facts.references).toContainEqual(expect.objectContaining({ kind: "call", target: "is_due", from_file: "beat/beat.py" }));
  });

  it("of one word (`self.sock.connect(…)`, as likely a socket's) is no exit", () => {
    const graph = new CallGraph((scopes().get("beat") as Pgc).data);
    const connect = graph.nodes.find((n) => n.qualified === "Connection.connect");
    expect(connect).toBeDefined();
    expect(graph.exitsOf(connect?.id ?? -1)).toEqual([]);
  });

  it("is where a chain's climb from the method in another scope finds its caller", async () => {
    const climbed = await climbFrom(scopes(), "schedules", "crontab.is_due", "How does the beat scheduler's entry decide whether a crontab schedule is due?");
    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`).slice(-2)).toEqual(["beat:ScheduleEntry.is_due", "schedules:crontab.is_due"]);
    expect(climbed.steps.at(-1)?.call_site?.line).toBe(7);
  });
});
