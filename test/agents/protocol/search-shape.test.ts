// The search ops' hand-written checks (search-shape.ts) against their zod schemas: what a check passes, zod
// accepts and returns unchanged; a message zod refuses, the check never passes. Real results of a scope's
// search, messages with every optional field, and thousands of seeded mutations of them.
import { describe, expect, it } from "vitest";
import { withScopes } from "../../helpers/scopes.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { mulberry32 } from "../../../agents/pgc/retrieval/prng.js";
import { EntryArgsSchema, EntryResultSchema, ExpandArgsSchema, ExpandResultSchema, parseEntryArgs, parseEntryResult, parseExpandArgs, parseExpandResult, ProtocolSchemaError } from "../../../agents/protocol/index.js";
import { isPlainEntryArgs, isPlainEntryResult, isPlainExpandArgs, isPlainExpandResult } from "../../../agents/protocol/search-shape.js";
import { agrees, fuzz } from "../../helpers/shape-fuzz.js";

const SOURCES: Record<string, Record<string, string>> = {
  mail: {
    "mail/send.py": [
      "from mail.wire import open_connection",
      "",
      "def send_message(host, message):",
      '    """Sends a message to the mail server over a fresh connection."""',
      "    conn = open_connection(host)",
      "    return deliver(conn, message)",
      "",
      "def deliver(conn, message):",
      '    """Writes the message on the connection."""',
      "    return conn.write(message)",
      "",
    ].join("\n"),
    "mail/wire.py": ["def open_connection(host):", '    """Opens a connection to the host."""', "    return host", ""].join("\n"),
  },
};

const scopes = withScopes("mesh-search-shape-", SOURCES);

const SHA = "ab".repeat(32);
const LINE = { file_path: "drivers/net/veth.c", line: 12, text: "\tveth_xmit(skb, dev);", sha256: SHA };
const QUESTION = parseQuestion("How does send_message open the connection to the mail server?");

/** An expand result with every optional field the schema knows. */
const FULL_EXPAND_RESULT = {
  scope: "drivers",
  resolved: true,
  bound_at: { field: "ndo_start_xmit", ...LINE },
  entry_fields: [{ field: "ndo_start_xmit", ...LINE, line: 40 }],
  steps: [
    { symbol: "veth_xmit", qualified: "veth_xmit", kind: "function", file_path: "drivers/net/veth.c", line_start: 10, line_end: 30, cite: { line_start: 10, line_end: 30, sha256: SHA }, matches: [{ term: "veth", field: "name", matched: "veth", strength: 0.9 }, { term: "ndo_start_xmit", field: "bound", matched: "ndo_start_xmit", strength: 0.95 }] },
    { symbol: "helper", qualified: "Helper.helper", kind: "method", file_path: "drivers/net/veth.c", line_start: 31, line_end: 33, class_bases: ["BaseHelper", "Base"], cite: { line_start: 31, line_end: 33, sha256: SHA }, matches: [] },
  ],
  leads: [
    { path: [0, 1], call_sites: [{ ...LINE, bound_at: { field: "xmit", ...LINE }, alias_at: { name: "minLength", ...LINE } }], exit: null, score: 0.25, coverage: 0.5 },
    {
      path: [0],
      call_sites: [],
      exit: { target: "netif_rx", callee: "netif_rx", module: "../core", via: "member", receiver_class: "Device", call_site: { ...LINE, defines: true }, matches: [{ term: "rx", field: "name", matched: "rx", strength: 0.63 }] },
      score: 0,
      coverage: 1,
    },
  ],
};

const FULL_EXPAND_ARGS = {
  question: QUESTION,
  mode: "forward",
  from: { symbol: "send_message", file_path: "mail/send.py", line: 3, module: "mail.send", called: true, member: false, field: false, method_of: "SMTP" },
  covered: { send: 0.9, messag: 1 },
  max_depth: 4,
};

const FULL_ENTRY_RESULT = {
  scope: "mail",
  nodes: 3,
  df: { send: 1, connect: 2 },
  candidates: [{ symbol: "send_message", qualified: "send_message", kind: "function", file_path: "mail/send.py", line_start: 3, line_end: 6, matches: [{ term: "send", field: "name", matched: "send", strength: 0.9 }], address_taken: true, class_bases: ["Sender"] }],
};

const FULL_ENTRY_ARGS = { question: { ...QUESTION, terms: QUESTION.terms.map((t, i) => (i === 0 ? { ...t, fragment: true } : t)) }, top_k: 5 };

const CASES = [
  { name: "expand result", schema: ExpandResultSchema, check: isPlainExpandResult, parse: parseExpandResult, full: FULL_EXPAND_RESULT },
  { name: "expand arguments", schema: ExpandArgsSchema, check: isPlainExpandArgs, parse: parseExpandArgs, full: FULL_EXPAND_ARGS },
  { name: "entry result", schema: EntryResultSchema, check: isPlainEntryResult, parse: parseEntryResult, full: FULL_ENTRY_RESULT },
  { name: "entry arguments", schema: EntryArgsSchema, check: isPlainEntryArgs, parse: parseEntryArgs, full: FULL_ENTRY_ARGS },
] as const;

describe("the search ops' hand-written checks", () => {
  it("pass a real scope's entry and expand messages, as zod returns them", async () => {
    const search = (scopes().get("mail") as NonNullable<ReturnType<ReturnType<typeof scopes>["get"]>>).search();
    const entryArgs = { question: QUESTION, top_k: 5 };
    const entry = search.entry(QUESTION, 5);
    const expandArgs = { question: QUESTION, mode: "forward" as const, from: { symbol: "send_message" }, covered: {} };
    const expanded = await search.expand(expandArgs);
    expect(expanded.steps.length).toBeGreaterThan(1);
    for (const [check, schema, message] of [
      [isPlainEntryArgs, EntryArgsSchema, entryArgs],
      [isPlainEntryResult, EntryResultSchema, entry],
      [isPlainExpandArgs, ExpandArgsSchema, expandArgs],
      [isPlainExpandResult, ExpandResultSchema, expanded],
    ] as const) {
      expect(check(message)).toBe(true);
      expect(agrees(schema, check, message).zod).toBe(true);
    }
  });

  for (const c of CASES) {
    it(`pass a(n) ${c.name} with every optional field, and the parse returns it as it came`, () => {
      expect(c.check(c.full)).toBe(true);
      expect(c.parse(c.full)).toBe(c.full);
      expect(agrees(c.schema, c.check, c.full).zod).toBe(true);
    });

    it(`never pass a(n) ${c.name} that zod refuses, over 3,000 seeded mutations`, () => {
      const random = mulberry32(0x5ea2c4 + c.name.length);
      const { refused, passed } = fuzz(c.schema, c.check, c.parse, c.full, random, 3_000, ProtocolSchemaError);
      // The mutations reach both sides: many break the message, some leave it valid.
      expect(refused).toBeGreaterThan(1_000);
      expect(passed).toBeGreaterThan(100);
    });
  }

  it("leave to zod what it alone can say: a null for an absent field, an unknown key, an escaping path", () => {
    const expect_refused = (message: unknown, said: RegExp) => {
      expect(isPlainExpandResult(message)).toBe(false);
      expect(() => parseExpandResult(message)).toThrow(said);
    };
    expect_refused({ ...FULL_EXPAND_RESULT, bound_at: null }, /bound_at/);
    expect_refused({ ...FULL_EXPAND_RESULT, stepz: [] }, /stepz|Unrecognized/);
    const escaping = structuredClone(FULL_EXPAND_RESULT);
    escaping.steps[0] = { ...(escaping.steps[0] as (typeof escaping.steps)[number]), file_path: "../etc/passwd" };
    expect_refused(escaping, /steps\[0\]\.file_path/);
  });

  it("send a message holding `undefined` through zod, which leaves the key out", () => {
    const message = { ...FULL_EXPAND_ARGS, max_depth: undefined };
    expect(isPlainExpandArgs(message)).toBe(false);
    expect("max_depth" in parseExpandArgs(message)).toBe(false);
  });
});
