// Python's optional imports: a definition in the `except ImportError` of a `try` that imports the same name
// is a stand-in. Where the module is another scope's, a call of the name leaves the scope by the import (the
// stand-in is not its callee and not a start), and the climb to where a chain begins finds the callers of a
// constructor by its class's name. Where the module is a standard one (a C accelerator), the stand-in is the
// only code to read and stays an ordinary definition. Real parsed code, each scope through its own search.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { extractFile } from "../../../agents/pgc/overlays/index.js";
import { openScopes } from "../../helpers/scopes.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { climbCallers } from "../../../agents/manager/search/climb-callers.js";
import { calledAs } from "../../../agents/manager/validation/chain-check.js";
import { toStep, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import { parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";
import type { Ownership } from "../../../agents/manager/ownership.js";

let dir: string;
let scopes: Map<string, Pgc>;

const SOURCES: Record<string, Record<string, string>> = {
  proxies: {
    "proxies/socks.py": [
      "class SocksManager:",
      '    """A pool manager that makes connections through a SOCKS proxy."""',
      "",
      "    def __init__(self, proxy_url):",
      "        self.scheme = read_scheme(proxy_url)",
      "",
      "def read_scheme(url):",
      '    """Reads the scheme of a proxy URL."""',
      "    return url.split(':')[0]",
      "",
    ].join("\n"),
  },
  client: {
    "client/adapter.py": [
      "import locale",
      "",
      "try:",
      "    from proxies.socks import SocksManager",
      "except ImportError:",
      "    def SocksManager(*args, **kwargs):",
      '        """Stands in for the SOCKS proxy manager when its dependencies are missing."""',
      '        raise RuntimeError("Missing dependencies for SOCKS support.")',
      "",
      "try:",
      "    from _locale import getencoding",
      "except ImportError:",
      "    def getencoding():",
      '        return "utf-8"',
      "",
      "class Adapter:",
      "    def proxy_manager_for(self, proxy):",
      '        """Returns the proxy manager for a SOCKS proxy URL."""',
      "        return SocksManager(proxy)",
      "",
      "    def text_encoding(self):",
      "        return getencoding()",
      "",
    ].join("\n"),
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mesh-optional-import-"));
  scopes = await openScopes(dir, SOURCES);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const expandIn = (scope: string, args: ExpandArgs) => (scopes.get(scope) as Pgc).search().expand(parseExpandArgs(args));

describe("Python definitions standing in for a failed import", () => {
  it("are marked with the module they stand in for; a definition under another import is not", async () => {
    const content = [
      "try:",
      "    from posix import _path_normpath",
      "except ImportError:",
      "    def normpath(path):",
      "        return path",
      "try:",
      "    from urllib3.contrib import socks as socks_module",
      "except ImportError:",
      "    class socks_module:",
      "        pass",
      "",
    ].join("\n");
    const { parsed } = await extractFile({ path: "m.py", content });

    expect(parsed.symbols.map((s) => [s.name, s.fallback_of])).toEqual([["normpath", undefined], ["socks_module", "urllib3.contrib"]]);
  });

  it("on real code: the standard library's queue.py marks its `Empty` as standing in for _queue's", async () => {
    const path = "/usr/lib/python3.11/queue.py";
    const { parsed } = await extractFile({ path: "queue.py", content: readFileSync(path, "utf8") });

    expect(parsed.symbols.find((s) => s.name === "Empty")?.fallback_of).toBe("_queue");
    expect(parsed.symbols.find((s) => s.name === "Full")?.fallback_of).toBeUndefined();
  });

  it("do not hide an import from another scope: the call leaves by the import, and the stand-in is no start", async () => {
    const question = parseQuestion("How does the adapter create the SOCKS proxy manager?");
    const forward = await expandIn("client", { question, mode: "forward", from: { symbol: "Adapter.proxy_manager_for" }, covered: {} });

    const exit = forward.leads.find((l) => l.exit?.target === "SocksManager")?.exit;
    expect(exit).toMatchObject({ module: "proxies.socks", call_site: { file_path: "client/adapter.py", line: 19 } });
    expect(forward.steps.map((s) => s.qualified)).not.toContain("SocksManager");

    const entry = (scopes.get("client") as Pgc).search().entry(question);
    const named = entry.candidates.map((c) => c.qualified);
    expect(named).toContain("Adapter.proxy_manager_for");
    expect(named).not.toContain("SocksManager");
  });

  it("stay the callee where the module is a standard one's accelerator, which has no code to read", async () => {
    const question = parseQuestion("How does the adapter get the text encoding?");
    const forward = await expandIn("client", { question, mode: "forward", from: { symbol: "Adapter.text_encoding" }, covered: {} });

    expect(forward.steps.map((s) => s.qualified)).toContain("getencoding");
    expect(forward.leads.some((l) => l.exit?.target === "getencoding")).toBe(false);
    const entry = (scopes.get("client") as Pgc).search().entry(parseQuestion("Which function gets the encoding?"));
    expect(entry.candidates.map((c) => c.qualified)).toContain("getencoding");
  });
});

describe("the climb from a constructor", () => {
  it("asks for callers of the class's name, and goes back into the scope that constructs it", async () => {
    expect(calledAs("SocksManager.__init__")).toBe("SocksManager");
    expect(calledAs("Parser.constructor")).toBe("Parser");
    expect(calledAs("Adapter.send")).toBe("send");

    const question = parseQuestion("How does the adapter create the SOCKS proxy manager and read the proxy URL's scheme?");
    const ownership: Ownership = {
      ownersOf: (symbol) => (symbol === "SocksManager" ? ["proxies"] : []),
      callersOf: (symbol) => (symbol === "SocksManager" ? [{ scope: "client", count: 1 }] : []),
    };
    const expand = async (scope: string, args: ExpandArgs) => ({ result: await expandIn(scope, args), agent: `${scope}-1`, failovers: 0 });
    const args: ExpandArgs = { question, mode: "forward", from: { symbol: "SocksManager.__init__" }, covered: {} };
    const first = await expandIn("proxies", args);
    const entry = toStep(first.steps[0]!, "proxies", "proxies-1", null);
    const outcome: TraceOutcome = { steps: [entry], hops: [{ scope: "proxies", agent: "proxies-1", args, result: first, steps: [entry], failovers: 0 }], decisions: [], coverage: 0.5, stopped_because: "" };
    const climbed = await climbCallers({ expand, managerId: "manager", ownership }, question, outcome, 6);

    expect(climbed.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["client:Adapter.proxy_manager_for", "proxies:SocksManager.__init__"]);
    expect(climbed.steps[1]).toMatchObject({ role: "callee", call_site: { file_path: "client/adapter.py", line: 19, text: "        return SocksManager(proxy)" } });
  });
});
