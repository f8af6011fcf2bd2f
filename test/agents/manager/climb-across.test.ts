// The climb to where a chain begins, across scopes: when nothing in the first step's own scope calls it
// (or nothing that bears enough on the question), the scopes calling it from outside are asked, and the
// best caller there becomes the chain's first step, in a hop of its own, with its real call line.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { climbOver, scopeMapOf, withScopes } from "../../helpers/scopes.js";
import type { TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import type { Ownership } from "../../../agents/manager/ownership.js";


const SOURCES: Record<string, Record<string, string>> = {
  core: {
    "core/queue.py": ["def queue_packet(packet):", '    """Puts a packet on the receive queue."""', "    _append(packet)", "", "def _append(packet):", "    QUEUE.append(packet)", "", "QUEUE = []", ""].join("\n"),
  },
  net: {
    "net/receive.py": [
      "from core.queue import queue_packet",
      "",
      "def receive_packet(frame):",
      '    """Receives a packet frame from the wire."""',
      "    return queue_packet(frame)",
      "",
      "def log_line(text):",
      "    return queue_packet(text)",
      "",
    ].join("\n"),
  },
};

const scopes = withScopes("mesh-climb-across-", SOURCES);

/** The manager's view: net's references call queue_packet twice. */
const OWNERSHIP: Ownership = {
  ownersOf: (symbol) => (symbol === "queue_packet" ? ["core"] : []),
  callersOf: (symbol) => (symbol === "queue_packet" ? [{ scope: "net", count: 2 }] : []),
};

const climbFrom = (text: string, withOwnership: boolean) => climbOver(scopes(), "core", "queue_packet", text, withOwnership ? OWNERSHIP : undefined);

describe("climbCallers across scopes", () => {
  it("goes back into the scope whose code calls the first step, to the caller bearing most on the question, as a hop of its own", async () => {
    const climbed = await climbFrom("How is a received packet put on the queue?", true);

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["net:receive_packet", "core:queue_packet"]);
    expect(climbed.steps[0]).toMatchObject({ role: "entry", call_site: null });
    expect(climbed.steps[1]).toMatchObject({ role: "callee", call_site: { file_path: "net/receive.py", line: 5, text: "    return queue_packet(frame)" } });
    expect(climbed.hops.map((h) => [h.scope, h.steps.map((s) => s.symbol)])).toEqual([["net", ["receive_packet"]], ["core", ["queue_packet"]]]);
    expect(climbed.decisions.map((d) => d.detail).join("\n")).toMatch(/went back to receive_packet \(net\/receive\.py:5, in net\), which calls queue_packet: it is worth [\d.]+ as a step(, times [\d.]+, its share of what the callers found in other scopes are worth)?, at least [\d.]+ \(it bears [\d.]+ on the question[\s\S]*began at receive_packet: nothing else calls it/);
  });

  it("stays in the first step's scope when the manager knows of no caller elsewhere", async () => {
    const climbed = await climbFrom("How is a received packet put on the queue?", false);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["queue_packet"]);
    expect(climbed.decisions.at(-1)?.detail).toBe("began at queue_packet: nothing else calls it");
  });
});

describe("climbCallers to a method's caller through an object of its class", () => {
  // cli defines a `parse_args` of its own, so its call of the parser's is no call "of a name it does not
  // define"; what says it calls parser's is the object's class, which `make_parser` returns.
  const CLASS_SOURCES: Record<string, Record<string, string>> = {
    parser: {
      "parser/options.py": [
        "class OptionParser:",
        '    """Splits a command line into long options and positional arguments."""',
        "    def parse_args(self, args):",
        '        """Parses the long options and positional arguments of a command line."""',
        "        return self._split(args)",
        "",
        "    def _split(self, args):",
        "        return [a for a in args if a.startswith('--')]",
        "",
      ].join("\n"),
    },
    cli: {
      "cli/command.py": [
        "from parser.options import OptionParser",
        "",
        "class Command:",
        "    def make_parser(self) -> OptionParser:",
        "        return OptionParser()",
        "",
        "    def parse_args(self, args):",
        '        """Parses the command line of a command."""',
        "        parser = self.make_parser()",
        "        return parser.parse_args(args)",
        "",
      ].join("\n"),
    },
  };
  const classScopes = withScopes("mesh-climb-class-", CLASS_SOURCES);

  async function climbMethod(withClassCalls: boolean): Promise<TraceOutcome> {
    const map = await scopeMapOf([...classScopes().values()].map((pgc) => pgc.facts()));
    const ownership: Ownership = withClassCalls ? map : { ownersOf: (s) => map.ownersOf(s), callersOf: (s) => map.callersOf(s) };
    return climbOver(classScopes(), "parser", "OptionParser.parse_args", "How does a command parse the long options and positional arguments of its command line?", ownership);
  }

  it("reports the class's methods called from outside in the scope's facts", () => {
    expect(classScopes().get("cli")?.facts().class_calls).toEqual({ "OptionParser.parse_args": 1 });
    expect(classScopes().get("cli")?.facts().references.some((r) => r.target === "parse_args")).toBe(false);
  });

  it("goes back into the scope calling the method through an object of its class", async () => {
    const climbed = await climbMethod(true);

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["cli:Command.parse_args", "parser:OptionParser.parse_args"]);
    expect(climbed.steps[1]).toMatchObject({ role: "callee", call_site: { file_path: "cli/command.py", line: 10, text: "        return parser.parse_args(args)" } });
  });

  it("finds no caller elsewhere from the callers of the name alone", async () => {
    const climbed = await climbMethod(false);

    expect(climbed.steps.map((s) => s.symbol)).toEqual(["OptionParser.parse_args"]);
  });
});

describe("climbCallers through a C struct field a climbed caller is stored into", () => {
  // The chain starts at veth_forward_skb; its caller veth_xmit is stored into `.ndo_start_xmit`, which
  // core's dev_queue_xmit calls through: the field is looked up for a caller the climb added, as for the first step.
  const C_SOURCES: Record<string, Record<string, string>> = {
    core: {
      "core/dev.c": [
        "/* dev_queue_xmit - queue a buffer for transmission on its device */",
        "int dev_queue_xmit(struct sk_buff *skb)",
        "{",
        "\tconst struct net_device_ops *ops = skb->dev->netdev_ops;",
        "\treturn ops->ndo_start_xmit(skb, skb->dev);",
        "}",
        "",
      ].join("\n"),
    },
    drivers: {
      "drivers/veth.c": [
        "/* veth_forward_skb - forward a frame to the peer */",
        "static int veth_forward_skb(struct net_device *peer, struct sk_buff *skb)",
        "{",
        "\tskb->dev = peer;",
        "\treturn 0;",
        "}",
        "",
        "/* veth_xmit - transmit a frame to the veth peer */",
        "static int veth_xmit(struct sk_buff *skb, struct net_device *dev)",
        "{",
        "\treturn veth_forward_skb(dev, skb);",
        "}",
        "",
        "static const struct net_device_ops veth_ops = {",
        "\t.ndo_start_xmit = veth_xmit,",
        "};",
        "",
      ].join("\n"),
    },
  };
  const cScopes = withScopes("mesh-climb-field-", C_SOURCES);

  it("goes back from the stored function into the scope calling through the field", async () => {
    const map = await scopeMapOf([...cScopes().values()].map((pgc) => pgc.facts()));
    const climbed = await climbOver(cScopes(), "drivers", "veth_forward_skb", "How is a buffer queued for transmission forwarded as a frame to the veth peer?", map);

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["core:dev_queue_xmit", "drivers:veth_xmit", "drivers:veth_forward_skb"]);
    expect(climbed.steps[1]?.call_site).toMatchObject({ file_path: "core/dev.c", line: 5, bound_at: { field: "ndo_start_xmit", file_path: "drivers/veth.c", line: 15 } });
  });
});

describe("climbCallers to one of several callers alike in another scope", () => {
  // Each adapter hands its requests to core's resolve_request: one adapter's handler is one use of it, not
  // where "how is a request resolved" begins — unless it is the only caller, or the question names it.
  const core = {
    "core/resolve.py": ["def resolve_request(request):", '    """Resolves and handles an HTTP request: runs the procedure it names."""', "    return run_procedure(request)", "", "def run_procedure(request):", "    return request", ""].join("\n"),
  };
  const handler = (name: string) => [`from core.resolve import resolve_request`, "", `def ${name}_handler(request):`, `    """Handles an HTTP request from ${name}."""`, "    return resolve_request(request)", ""].join("\n");
  const two = withScopes("mesh-climb-share-", { core, adapters: { "adapters/express.py": handler("express"), "adapters/fetch.py": handler("fetch") } });
  const one = withScopes("mesh-climb-one-", { core, adapters: { "adapters/express.py": handler("express") } });

  async function climbResolve(within: Map<string, Pgc>, text: string): Promise<TraceOutcome> {
    const map = await scopeMapOf([...within.values()].map((pgc) => pgc.facts()));
    return climbOver(within, "core", "resolve_request", text, map);
  }

  it("stays below two callers worth the same, each counting for half", async () => {
    const climbed = await climbResolve(two(), "How is an HTTP request handled and resolved?");

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["core:resolve_request"]);
    const stop = /^began at resolve_request: its best caller, (?:express|fetch)_handler in adapters, is worth ([\d.]+) as a step, times 0\.50, its share of what the callers found in other scopes are worth \(it bears [\d.]+ on the question\), less than ([\d.]+)/.exec(climbed.decisions.at(-1)?.detail ?? "");
    expect(stop).not.toBeNull();
    // Alone, the caller would be worth enough: its half share is what keeps the chain where it is.
    expect(Number(stop?.[1])).toBeGreaterThanOrEqual(Number(stop?.[2]));
    expect(Number(stop?.[1]) * 0.5).toBeLessThan(Number(stop?.[2]));
  });

  it("goes back to the only caller, and to the one of several the question names", async () => {
    const only = await climbResolve(one(), "How is an HTTP request handled and resolved?");
    const named = await climbResolve(two(), "How is an HTTP request from fetch handled and resolved?");

    expect(only.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["adapters:express_handler", "core:resolve_request"]);
    expect(named.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["adapters:fetch_handler", "core:resolve_request"]);
  });
});
