// A method call through an object of a class the scope defines, where neither the class nor its bases in
// the scope define the method (PGC.md, call rule 3): the method is inherited from a base the scope does not
// define, and the exit names that base, so the manager continues where the base is defined — or nowhere,
// rather than in whichever scope defines a method of the same name. Over code written here in the shape of
// pip's `PipSession(requests.Session)` with `session.get(…)`, and another scope's unrelated `WheelCache.get`.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { traceFrom, withScopes } from "../../helpers/scopes.js";

const NETWORK = {
  "network/session.py": [
    "import requests",
    "from base.transport import BaseTransport",
    "",
    "class PipSession(requests.Session):",
    "    def request(self, method, url):",
    "        return super().request(method, url)",
    "",
    "class RetryingTransport(BaseTransport):",
    "    pass",
    "",
    "class Plain:",
    "    def run(self):",
    "        return 1",
    "",
    "def download_wheel(session: PipSession, url):",
    "    return session.get(url)",
    "",
    "def send_wheel(transport: RetryingTransport, url):",
    "    return transport.send_request(url)",
    "",
    "def stop_plain(plain: Plain):",
    "    return plain.stop()",
    "",
  ].join("\n"),
};

const CACHE = {
  "cache/wheel_cache.py": [
    "class WheelCache:",
    "    def get(self, link):",
    "        return self.lookup_wheel(link)",
    "",
    "    def lookup_wheel(self, link):",
    "        return link",
    "",
  ].join("\n"),
};

const BASE = {
  "base/transport.py": ["class BaseTransport:", "    def send_request(self, url):", "        return self.open_wheel(url)", "", "    def open_wheel(self, url):", "        return url", ""].join("\n"),
};

describe("a method inherited from a base the scope does not define", () => {
  const scopes = withScopes("mesh-inherited-", { network: NETWORK, cache: CACHE, base: BASE });
  const network = (): Pgc => scopes().get("network") as Pgc;

  const exitsFrom = async (symbol: string, text: string) => {
    const result = await network().search().expand({ question: parseQuestion(text), mode: "forward", from: { symbol }, covered: {} });
    return result.leads.flatMap((l) => (l.exit ? [{ target: l.exit.target, receiver_class: l.exit.receiver_class }] : []));
  };

  it("leaves the scope naming the base the method comes from, or not at all when the class has no such base", async () => {
    expect(await exitsFrom("download_wheel", "How does download_wheel get the wheel?")).toContainEqual({ target: "get", receiver_class: "Session" });
    expect(await exitsFrom("send_wheel", "How does send_wheel send the request?")).toContainEqual({ target: "send_request", receiver_class: "BaseTransport" });
    expect((await exitsFrom("stop_plain", "How does stop_plain stop it?")).filter((e) => e.target === "stop")).toEqual([]);
  });

  it("does not continue into another scope's method of the same name; does continue where the base is defined", async () => {
    const facts = [...scopes().values()].map((p) => p.facts());
    const fromSession = await traceFrom(scopes(), facts, "How does download_wheel get the wheel over the session?", "download_wheel");
    expect(fromSession.steps.map((s) => s.scope)).not.toContain("cache");
    expect(fromSession.decisions.some((d) => /Session, the class get is called through, is no class of the code base/.test(d.detail))).toBe(true);
    const fromTransport = await traceFrom(scopes(), facts, "How does send_wheel send the request and open the wheel?", "send_wheel");
    expect(fromTransport.steps.map((s) => `${s.scope}:${s.symbol}`)).toEqual(expect.arrayContaining(["base:BaseTransport.send_request"]));
  });
});
