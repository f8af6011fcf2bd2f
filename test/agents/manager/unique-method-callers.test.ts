// "Who calls M?" for a method whose compound name no other scope defines finds its calls through any
// object, a module's shared instance too (`vcs.get_backend_for_scheme(…)` on pip's `vcs = VcsSupport()`,
// whose class no caller's code shows); a short name (`send`), or one another scope also defines, still
// counts only the calls shown to be the class's. Python parsed for real; the manager's answer in-process.
import { describe, expect, it } from "vitest";
import { answerOver, sourceLines, withScopes } from "../../helpers/scopes.js";
import { uniqueMethodName } from "../../../agents/manager/search/trace-callers.js";

const SOURCES: Record<string, Record<string, string>> = {
  vcs: {
    "vcs/support.py": sourceLines(
      "class VcsSupport:",
      "    def get_backend_for_scheme(self, scheme):",
      '        """The version-control backend handling a URL scheme."""',
      "        return self._registry.get(scheme)",
      "",
      "    def send(self, data):",
      "        return data",
      "",
      "vcs = VcsSupport()",
    ),
  },
  req: {
    "req/install.py": sourceLines(
      "from vcs.support import vcs",
      "",
      "def update_editable(link):",
      "    backend = vcs.get_backend_for_scheme(link.scheme)",
      "    return backend.obtain(link)",
      "",
      "def push(sock, data):",
      "    sock.send(data)",
    ),
  },
  ops: {
    "ops/prepare.py": sourceLines(
      "from vcs.support import vcs",
      "",
      "def unpack_vcs_link(link, location):",
      "    backend = vcs.get_backend_for_scheme(link.scheme)",
      "    backend.unpack(location, url=link.url)",
    ),
  },
};

const scopes = withScopes("mesh-unique-method-", SOURCES);

describe("who calls a method with a name of its own", () => {
  it("lists the calls through a module's shared instance, in every scope making one, with their call lines", async () => {
    const result = await answerOver(scopes(), "Which functions call get_backend_for_scheme to find the version-control backend for a URL scheme?");

    expect(result.chain?.[0]).toMatchObject({ scope: "vcs", symbol: "VcsSupport.get_backend_for_scheme" });
    expect(result.chain?.slice(1).map((s) => `${s.scope}:${s.symbol}`).sort()).toEqual(["ops:unpack_vcs_link", "req:update_editable"]);
    expect(result.chain?.find((s) => s.symbol === "update_editable")?.call_site).toMatchObject({ file_path: "req/install.py", line: 4 });
    expect((result.decisions ?? []).some((d) => d.detail.includes("has a name no other scope defines"))).toBe(true);
  });

  it("keeps a short name, or one another scope defines too, to the calls shown to be the class's", async () => {
    const result = await answerOver(scopes(), "Who calls VcsSupport.send?");

    expect(result.chain?.map((s) => s.symbol) ?? []).not.toContain("push");
    const ownership = { ownersOf: (name: string) => (name === "obtain_backend" ? ["vcs", "req"] : ["vcs"]) };
    expect(uniqueMethodName(ownership, "get_backend_for_scheme", "vcs")).toBe(true);
    expect(uniqueMethodName(ownership, "send", "vcs")).toBe(false);
    expect(uniqueMethodName(ownership, "obtain_backend", "vcs")).toBe(false);
  });
});
