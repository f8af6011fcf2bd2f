// A method called through an object of a class its own class derives from, in a scope that does not know the
// derived class (tornado's `HTTP1Connection._read_message` calls `delegate.headers_received(…)` on an
// `HTTPMessageDelegate`; the `_ProxyAdapter` deriving from it is another scope's): the method's step names its
// class's bases (`class_bases`), and a chain's climb from it asks the scopes calling a base's method of that
// name. Found on tornado, where the climb from `_ProxyAdapter.headers_received` found no caller but other
// delegates' forwarding methods.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { placeOf } from "../../../agents/pgc/callgraph/line-citer.js";
import { climbOver, factsMapOf, sourceLines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  conn: {
    "conn/connection.py": sourceLines(
      "from server import delegates",
      "",
      "class Connection:",
      "    def read_message(self, delegate: delegates.MessageDelegate):",
      '        """Read one message and hand its headers to the delegate."""',
      "        start_line = self.read_start_line()",
      "        return delegate.headers_received(start_line)",
      "",
      "    def read_start_line(self):",
      "        return self.stream.read_until(b'\\r\\n')",
    ),
  },
  server: {
    "server/delegates.py": sourceLines(
      "class MessageDelegate(object):",
      "    def headers_received(self, start_line):",
      '        """Called when the headers of a message have been read."""',
      "        pass",
    ),
    "server/proxy.py": sourceLines(
      "from .delegates import MessageDelegate",
      "",
      "class ProxyAdapter(MessageDelegate):",
      "    def headers_received(self, start_line):",
      '        """Apply the X-Real-Ip header of a request that came through a proxy."""',
      "        return self.apply_xheaders(start_line)",
      "",
      "    def apply_xheaders(self, start_line):",
      "        return start_line",
    ),
  },
};

describe("a method called through an object of a base class another scope defines", () => {
  const scopes = withScopes("base-class-callers-", SOURCES);

  it("is a step naming its class's bases", () => {
    const graph = new CallGraph((scopes().get("server") as Pgc).data);
    const adapter = graph.nodes.find((n) => n.qualified === "ProxyAdapter.headers_received");
    expect(adapter && placeOf(adapter).class_bases).toEqual(["MessageDelegate"]);
    const base = graph.nodes.find((n) => n.qualified === "MessageDelegate.headers_received");
    expect(base && placeOf(base).class_bases).toBeUndefined();
  });

  it("is where a chain's climb from the method finds its caller in the scope calling the base's method", async () => {
    const climbed = await climbOver(scopes(), "server", "ProxyAdapter.headers_received", "When a message's headers have been read, how does the proxy adapter apply the X-Real-Ip header?", await factsMapOf(scopes()));
    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`).slice(0, 2)).toEqual(["conn:Connection.read_message", "server:ProxyAdapter.headers_received"]);
    expect(climbed.steps[1]?.call_site?.line).toBe(7);
  });
});
