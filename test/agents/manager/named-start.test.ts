// A chain that reaches a function the question names begins there; when that function was a start of its
// own, its own trace is kept, as the scopes the longer chain passed through before it were visited, not
// cited, and must not bar the chain from going back into them (asyncio's `create_connection`, reached from
// streams' `open_connection`, goes back into the selector loop's `sock_connect`). Python parsed for real;
// each scope's own search, the manager's answer in-process.
import { describe, expect, it } from "vitest";
import { answerOver, withScopes } from "../../helpers/scopes.js";

const SOURCES: Record<string, Record<string, string>> = {
  streams: {
    "streams/streams.py": [
      "from base.events import BaseLoop",
      "",
      "def open_link(host):",
      '    """Opens a link without blocking: the loop creates it and connects its socket."""',
      "    loop = BaseLoop()",
      "    return loop.create_link(host)",
      "",
      "class SelectorLoop(BaseLoop):",
      "    def sock_link(self, sock):",
      '        """Connects the socket without blocking, then waits until it is writable."""',
      "        return sock",
      "",
    ].join("\n"),
  },
  base: {
    "base/events.py": [
      "class BaseLoop:",
      "    def create_link(self, host):",
      "        return self.link_sock(host)",
      "",
      "    def link_sock(self, host):",
      "        return self.sock_link(host)",
      "",
      "    def sock_link(self, sock):",
      "        raise NotImplementedError",
      "",
    ].join("\n"),
  },
};

const scopes = withScopes("mesh-named-start-", SOURCES);

const ask = (question: string) => answerOver(scopes(), question);

describe("a chain that reaches the function the question names", () => {
  it("is traced from that function, and goes back into the scope the longer chain had come from", async () => {
    const result = await ask("How does loop.create_link open a link and connect the socket without blocking?");
    expect(result.chain?.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["base:BaseLoop.create_link", "base:BaseLoop.link_sock", "streams:SelectorLoop.sock_link"]);
    expect(result.outcome).toBe("chain");
    const starts = result.decisions?.filter((d) => d.at === "start").map((d) => d.detail) ?? [];
    expect(starts.some((d) => /open_link's chain reaches BaseLoop\.create_link, which the question names, so the chain traced from it is kept/.test(d))).toBe(true);
  });
});
