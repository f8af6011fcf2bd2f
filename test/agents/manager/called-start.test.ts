// "Who calls X?" begins at X even when a function that uses X, described in more of the question's words,
// scores higher as an entry; and a subclass's own calls of the method it inherits are its callers. Tried on
// TanStack Query's core: "Which code starts or restarts the garbage-collection countdown … by calling
// scheduleGc?" had begun at `Mutation.removeObserver`. Python parsed for real; the manager's answer in-process.
import { describe, expect, it } from "vitest";
import { answerOver, withScopes } from "../../helpers/scopes.js";

const SOURCES: Record<string, Record<string, string>> = {
  timers: {
    "timers/removable.py": [
      "class Removable:",
      "    def schedule_gc(self):",
      "        self.gc_timeout = 300",
      "",
    ].join("\n"),
  },
  cache: {
    "cache/mutation.py": [
      "from timers.removable import Removable",
      "",
      "class Mutation(Removable):",
      "    def __init__(self, options):",
      "        self.options = options",
      "        self.schedule_gc()",
      "",
      "    def remove_observer(self, observer):",
      '        """Restarts the garbage collection countdown of a mutation once its last observer is removed."""',
      "        self.observers.remove(observer)",
      "        self.schedule_gc()",
      "",
    ].join("\n"),
  },
};

const scopes = withScopes("mesh-called-start-", SOURCES);

const ask = (question: string) => answerOver(scopes(), question);

describe("a who-calls question", () => {
  it("begins at the function it names, and finds the calls a subclass makes of it on its own object", async () => {
    const result = await ask("Which code starts or restarts the garbage collection countdown of a mutation by calling schedule_gc?");
    expect(result.chain?.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["timers:Removable.schedule_gc", "cache:Mutation.remove_observer", "cache:Mutation.__init__"]);
    expect(result.chain?.[1]?.call_site).toMatchObject({ file_path: "cache/mutation.py", line: 11 });
  });
});
