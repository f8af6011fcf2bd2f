// One question's expansions asked once: over Python parsed for real and the scope's own call-graph search,
// the same (scope, arguments) is sent to the worker once and its answer shared, whatever order the
// coverage's terms come in; other arguments, a trail the wire's guards would refuse, and a failed request
// are sent as they are; and a question whose two starts look into the same exit alike asks it once.
import { describe, expect, it } from "vitest";
import { memoizeExpand, expandKey } from "../../../agents/manager/search/expand-memo.js";
import type { Trail } from "../../../agents/manager/search/trace-chain.js";
import { parseExpandArgs, type ExpandArgs } from "../../../agents/protocol/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { searchDepsOf, withScopes } from "../../helpers/scopes.js";
import { answerBySearch } from "../../../agents/manager/answer/answer-question.js";

const scopes = withScopes("mesh-memo-", {
  mail: {
    "mail/smtp.py": [
      "class SMTP:",
      "    def send_message(self, msg):",
      "        return self.sendmail(msg)",
      "",
      "    def sendmail(self, msg):",
      "        return self.data(msg)",
      "",
      "    def data(self, msg):",
      "        return msg",
      "",
    ].join("\n"),
  },
  // Two entry points alike in two scopes, each handing the letter to the same relay: both starts look into
  // `deliver` with the same coverage.
  post: {
    "post/office.py": ["from relay.queue import deliver", "", "def post_letter(letter):", "    return deliver(letter)", ""].join("\n"),
  },
  desk: {
    "desk/counter.py": ["from relay.queue import deliver", "", "def post_letter(letter):", "    return deliver(letter)", ""].join("\n"),
  },
  relay: {
    "relay/queue.py": ["def deliver(letter):", '    """Hands the letter to the courier."""', "    return courier(letter)", "", "def courier(letter):", "    return letter", ""].join("\n"),
  },
});

const question = parseQuestion("How does SMTP send a message with sendmail?");
const TRAIL: Trail = { path: ["manager"], hops: 1, maxHops: 6 };

/** The scope's real search, counting the requests that reach it. */
function worker() {
  const sent: string[] = [];
  const expand = async (scope: string, args: ExpandArgs, _trail: Trail) => {
    sent.push(scope);
    const pgc = scopes().get(scope) as Pgc | undefined;
    if (!pgc) throw new Error(`no worker for ${scope}`);
    return { result: await pgc.search().expand(parseExpandArgs(args)), agent: `${scope}-1`, failovers: 1 };
  };
  return { sent, expand };
}

const args = (covered: Record<string, number> = {}): ExpandArgs => ({ question, mode: "forward", from: { symbol: "SMTP.send_message" }, covered });

describe("memoizeExpand", () => {
  it("sends the same expansion once, in flight or after, and shares its answer", async () => {
    const { sent, expand } = worker();
    const memo = memoizeExpand(expand);
    const [a, b] = await Promise.all([memo.expand("mail", args(), TRAIL), memo.expand("mail", args(), TRAIL)]);
    const c = await memo.expand("mail", args(), { ...TRAIL, path: ["manager", "other-1"], hops: 2 });
    expect(sent).toEqual(["mail"]);
    // Three asked, all a start's own paths (from no call): one sent, two shared.
    expect(memo.stats).toEqual({ sent: 1, shared: 2, kinds: { starts: 3, callees: 0, callers: 0 } });
    expect(b.result).toBe(a.result);
    expect(c.result).toBe(a.result);
    // A shared answer took no failover of its own.
    expect([a.failovers, b.failovers, c.failovers]).toEqual([1, 0, 0]);
    expect((a.result as { resolved: boolean }).resolved).toBe(true);
  });

  it("tells arguments apart by what the worker's answer depends on, not by the order of the coverage's terms", async () => {
    const { sent, expand } = worker();
    const memo = memoizeExpand(expand);
    await memo.expand("mail", args({ send: 1, smtp: 0.5 }), TRAIL);
    await memo.expand("mail", args({ smtp: 0.5, send: 1 }), TRAIL);
    expect(sent).toHaveLength(1);
    await memo.expand("mail", args({ send: 1 }), TRAIL);
    await memo.expand("mail", { ...args(), from: { symbol: "SMTP.sendmail" } }, TRAIL);
    await memo.expand("mail", { ...args(), max_depth: 1 }, TRAIL);
    expect(sent).toHaveLength(4);
    expect(expandKey("mail", args({ a: 1, b: 1 }))).toBe(expandKey("mail", args({ b: 1, a: 1 })));
    expect(expandKey("mail", args())).not.toBe(expandKey("mail2", args()));
  });

  it("sends a request whose trail the guards would refuse, so the worker says why, and does not remember a failure", async () => {
    const { sent, expand } = worker();
    const memo = memoizeExpand(expand);
    await memo.expand("mail", args(), TRAIL);
    // The agent that answered is on this trail already (a cycle), or the trail is past its budget.
    await memo.expand("mail", args(), { ...TRAIL, path: ["manager", "mail-1"], hops: 2 });
    await memo.expand("mail", args(), { ...TRAIL, hops: 7 });
    expect(sent).toEqual(["mail", "mail", "mail"]);
    await expect(memo.expand("gone", args(), TRAIL)).rejects.toThrow("no worker for gone");
    await expect(memo.expand("gone", args(), TRAIL)).rejects.toThrow("no worker for gone");
    expect(sent.filter((s) => s === "gone")).toHaveLength(2);
  });
});

describe("a question's search", () => {
  it("asks each expansion once, though two starts look into the same exit with the same coverage", async () => {
    const sent: string[] = [];
    const deps = await searchDepsOf(scopes(), { onExpand: (scope, expandArgs) => sent.push(expandKey(scope, expandArgs)) });
    const result = await answerBySearch(deps, { id: "q", question: "How does post_letter deliver a letter to the courier?", maxHops: 6 });
    expect(result.decisions?.some((d) => /traced from [2-5] starts.*post_letter \[desk\].*post_letter \[post\]/.test(d.detail))).toBe(true);
    expect(sent.filter((k) => k.startsWith('["relay"')).length).toBeGreaterThan(0);
    // Each (scope, arguments) reached a worker once.
    expect(new Set(sent).size).toBe(sent.length);
    // The answer says what it asked: every scope's entry, and its expansions, some answered by an earlier one's answer.
    expect(result.cost).toEqual({ entry_requests: scopes().size, expansions: sent.length + (result.cost?.expansions_shared ?? 0), expansions_shared: expect.any(Number) as number, expansions_by_kind: expect.any(Object) as object });
    expect(result.cost?.expansions_shared).toBeGreaterThan(0);
    // By kind: each start's own paths, the exits' callees looked into (`deliver`), and the climb's callers.
    const kinds = result.cost?.expansions_by_kind;
    expect((kinds?.starts ?? 0) + (kinds?.callees ?? 0) + (kinds?.callers ?? 0)).toBe(result.cost?.expansions);
    expect(kinds?.starts).toBeGreaterThanOrEqual(2);
    expect(kinds?.callees).toBeGreaterThan(0);
  });
});
