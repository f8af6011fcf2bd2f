// A mixin's call on its own object: `self.execute_command(…)` in redis-py's `BasicKeyCommands.set`, a
// method neither the class nor its bases define in the scope. The exit names the calling class
// (`caller_class`), so the manager can continue it in the scopes whose classes derive from it (the client's
// `Redis`), not in any scope defining a method of that name; and the scope's facts list its classes' bases.
import { describe, expect, it } from "vitest";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";

const CORE = sourceLines(
  "class CommandsProtocol:",
  "    pass",
  "",
  "class BasicKeyCommands(CommandsProtocol):",
  "    def set(self, name, value):",
  '        """Set the value at key ``name`` to ``value``."""',
  '        return self.execute_command("SET", name, value)',
  "",
  "    def getset(self, name, value):",
  '        """Set the value and return the old one."""',
  '        return self.execute_command("GETSET", name, value)',
  "",
  "class HashCommands(CommandsProtocol):",
  "    def hset(self, name, key, value):",
  "        return self.format_pairs(name, key, value)",
  "",
  "    def format_pairs(self, name, key, value):",
  "        return [name, key, value]",
  "",
  "class DataAccessCommands(BasicKeyCommands, HashCommands):",
  "    pass",
);

describe("a mixin's call on its own object", () => {
  const scopes = withScopes("mesh-mixin-calls-", { redis: { "redis/commands/core.py": CORE } });
  const question = parseQuestion("How does set send the SET command to the server?");
  const core = () => scopes().get("redis") as Pgc;

  it("leaves the scope naming the class it is made in, when nothing here defines the method", async () => {
    const result = await core().search().expand({ question, mode: "forward", from: { symbol: "BasicKeyCommands.set" }, covered: {} });
    const exits = result.leads.flatMap((l) => (l.exit ? [l.exit] : []));
    expect(exits.find((e) => e.target === "execute_command")).toMatchObject({ via: "member", caller_class: "BasicKeyCommands" });
  });

  it("stays inside the scope for a method its class defines, naming no class", async () => {
    const result = await core().search().expand({ question, mode: "forward", from: { symbol: "HashCommands.hset" }, covered: {} });
    expect(result.steps.map((s) => s.qualified)).toContain("HashCommands.format_pairs");
    expect(result.leads.some((l) => l.exit?.caller_class !== undefined)).toBe(false);
  });

  it("reports its classes' bases in its facts", () => {
    expect(core().facts().class_bases).toEqual({ BasicKeyCommands: ["CommandsProtocol"], DataAccessCommands: ["BasicKeyCommands", "HashCommands"], HashCommands: ["CommandsProtocol"] });
  });
});
