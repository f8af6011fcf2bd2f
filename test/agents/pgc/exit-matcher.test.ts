// What an exit (a call leaving the scope) matches of a question: its callee's name, its class or module, and
// the object a member call is made on — `self.sock.sendall(…)` in Python 3.11's http.client names a socket
// by its receiver alone (the call graph knows no class for it).
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import { exitMatcher, receiverOf } from "../../../agents/pgc/callgraph/local-search.js";
import { parseQuestion } from "../../../agents/search/question.js";

const STDLIB = "/usr/lib/python3.11";
const available = existsSync(join(STDLIB, "http", "client.py"));
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mesh-exit-match-"));
  if (available) cpSync(join(STDLIB, "http"), join(dir, "code", "http"), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an exit's matches", () => {
  it.skipIf(!available)("count the object a member call is made on, as its class would count", async () => {
    const opened = await openPgc({ scope: "http", root: join(dir, "code"), scopePaths: ["http/"], cacheRoot: join(dir, "cache"), logger: pino({ level: "silent" }) });
    const graph = new CallGraph(new Pgc("http", ["http/"], opened).data);
    const send = graph.named("send").find((n) => n.container === "HTTPConnection");
    const sendall = graph.exitsOf(send!.id).find((e) => e.target === "sendall");
    expect(sendall).toMatchObject({ via: "member", callee: "self.sock.sendall" });
    expect(sendall?.receiver_class).toBeUndefined();
    const matches = exitMatcher(parseQuestion("How does HTTPConnection write the request bytes onto its socket?"))(sendall!);
    expect(matches).toContainEqual({ term: "socket", field: "container", matched: "sock", strength: 0.8 });
  });

  it("take a member call's receiver without its calls' arguments, and nothing from other exits", () => {
    expect(receiverOf({ via: "member", callee: "email.parser.Parser(_class=_class).parsestr", target: "parsestr" })).toBe("email.parser.Parser");
    expect(receiverOf({ via: "member", callee: "this.metadataRegistry.get", target: "get" })).toBe("this.metadataRegistry");
    expect(receiverOf({ via: "member", callee: "make(a(b), c).run", target: "run" })).toBe("make");
    // A module's function and a struct field's call say where they lead by their module and field.
    expect(receiverOf({ via: "reference", callee: "json.dumps", target: "dumps" })).toBe("");
    expect(receiverOf({ via: "field", callee: "ops->ndo_start_xmit", target: "ndo_start_xmit" })).toBe("");
  });
});
