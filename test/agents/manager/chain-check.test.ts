// A traced chain is validated step by step: lines re-hashed, and an edge joins only if its call line names
// the callee. A chain with a broken step is cut there, and says why.
import { describe, expect, it } from "vitest";
import { citationHash } from "../../../agents/protocol/index.js";
import { checkChain, namesCallee, type CheckableStep } from "../../../agents/manager/validation/index.js";

const FILES: Record<string, string> = {
  "a.py": ["def emit(record):", "    smtp = SMTP(host)", "    smtp.send_message(record)", ""].join("\n"),
  "b.py": ["class SMTP:", "    def __init__(self, host):", "        self.connect(host)", "    def send_message(self, msg):", "        pass", ""].join("\n"),
};
const lines = (file: string, from: number, to: number) => (FILES[file] as string).split("\n").slice(from - 1, to).join("\n");
const span = (file: string, from: number, to: number) => ({ file_path: file, line_start: from, line_end: to, sha256: citationHash(lines(file, from, to)) });
const site = (file: string, line: number) => ({ file_path: file, line, text: lines(file, line, line), sha256: citationHash(lines(file, line, line)) });
const sources = { readFile: async (path: string) => FILES[path] ?? null };

describe("checking a traced chain", () => {
  it("knows a call line by the callee's name, and a constructor by its class's", () => {
    expect(namesCallee("    smtp.send_message(record)", "SMTP.send_message")).toBe(true);
    expect(namesCallee("    smtp = SMTP(host)", "SMTP.__init__")).toBe(true);
    expect(namesCallee("    smtp = SMTP(host)", "SMTP.send_message")).toBe(false);
    expect(namesCallee("    resend_message(x)", "send_message")).toBe(false);
  });

  it("keeps a chain whose every edge is a real call, and cuts it at the first edge that is not", async () => {
    const entry: CheckableStep = { symbol: "emit", role: "entry", ...span("a.py", 1, 3), call_site: null };
    const ctor: CheckableStep = { symbol: "SMTP.__init__", role: "callee", ...span("b.py", 2, 3), call_site: site("a.py", 2) };
    expect(await checkChain([entry, ctor], sources)).toMatchObject({ kept: 2, cut: null });
    const wrongEdge: CheckableStep = { symbol: "SMTP.send_message", role: "callee", ...span("b.py", 4, 5), call_site: site("a.py", 2) };
    const cut = await checkChain([entry, wrongEdge], sources);
    expect(cut.kept).toBe(1);
    expect(cut.cut?.reason).toContain("does not call send_message");
    const forged: CheckableStep = { ...ctor, sha256: "0".repeat(64) };
    expect((await checkChain([entry, forged], sources)).kept).toBe(1);
  });
});
