// A traced chain is validated step by step: lines re-hashed, and an edge joins only if its call line names
// the callee. A chain with a broken step is cut there, and says why.
import { describe, expect, it } from "vitest";
import { citationHash } from "../../../agents/protocol/index.js";
import { bindsCallee, checkChain, namesCallee, renames, type CheckableStep } from "../../../agents/manager/validation/index.js";

const FILES: Record<string, string> = {
  "a.py": ["def emit(record):", "    smtp = SMTP(host)", "    smtp.send_message(record)", ""].join("\n"),
  "dev.c": ["int dev_queue_xmit(struct sk_buff *skb)", "{", "\treturn ops->ndo_start_xmit(skb, dev);", "}", ""].join("\n"),
  "veth.c": ["static int veth_xmit(struct sk_buff *skb)", "{", "\treturn 0;", "}", "static const struct net_device_ops ops = {", "\t.ndo_open = veth_open,", "\t.ndo_start_xmit = veth_xmit,", "};", ""].join("\n"),
  "schemas.ts": ["export function min(n: number) {", "  return checks.minLength(n);", "}", ""].join("\n"),
  "checks.ts": ["export {", "  _minLength as minLength,", "  _maxLength as maxLength,", '} from "../core/api.js";', ""].join("\n"),
  "api.ts": ["export function _minLength(n: number) {", "  return n;", "}", ""].join("\n"),
  "retry.py": ["def retrying(func):", "    @functools.wraps(func)", "    def wrapper(*args):", "        return func(*args)", "    return wrapper", "", "def other():", "    pass", ""].join("\n"),
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

  it("takes a call through a C struct field only with the line that stored the callee into that field", async () => {
    expect(bindsCallee("\t.ndo_start_xmit = veth_xmit,", "ndo_start_xmit", "veth_xmit")).toBe(true);
    expect(bindsCallee("\tdev->ops.xmit = &loop_xmit;", "xmit", "loop_xmit")).toBe(true);
    expect(bindsCallee("\t.ndo_open = veth_xmit_open,", "ndo_open", "veth_xmit")).toBe(false);
    expect(bindsCallee("\t.ndo_start_xmit = veth_xmit,", "ndo_open", "veth_xmit")).toBe(false);
    // Deferred work: a call handing the field's address and then the callee (PGC.md rule 7).
    expect(bindsCallee("\tINIT_WORK(&vi->config_work, virtnet_config_changed_work);", "config_work", "virtnet_config_changed_work")).toBe(true);
    expect(bindsCallee("\ttimer_setup(&port->poll.timer, port_poll, 0);", "timer", "port_poll")).toBe(true);
    expect(bindsCallee("\tINIT_WORK(&vi->config_work_x, virtnet_config_changed_work);", "config_work", "virtnet_config_changed_work")).toBe(false);
    expect(bindsCallee("\tschedule_work(&vi->config_work);", "config_work", "virtnet_config_changed_work")).toBe(false);
    const entry: CheckableStep = { symbol: "dev_queue_xmit", role: "entry", ...span("dev.c", 1, 4), call_site: null };
    const through = (bindingLine: number, field = "ndo_start_xmit"): CheckableStep => ({
      symbol: "veth_xmit",
      role: "callee",
      ...span("veth.c", 1, 4),
      call_site: { ...site("dev.c", 3), bound_at: { field, ...site("veth.c", bindingLine) } },
    });
    expect(await checkChain([entry, through(7)], sources)).toMatchObject({ kept: 2, cut: null, citations_checked: 4, citations_verified: 4 });
    // Without the binding, the call line names only the field: the edge is not real.
    expect((await checkChain([entry, { ...through(7), call_site: site("dev.c", 3) }], sources)).cut?.reason).toContain("does not call veth_xmit");
    expect((await checkChain([entry, through(6)], sources)).cut?.reason).toContain("veth.c:6 does not store veth_xmit into ndo_start_xmit");
    expect((await checkChain([entry, through(7, "ndo_stop")], sources)).cut?.reason).toContain("does not call through the field ndo_stop");
    const forged = through(7);
    const bound = forged.call_site?.bound_at;
    if (bound) bound.sha256 = "0".repeat(64);
    expect((await checkChain([entry, forged], sources)).kept).toBe(1);
  });

  it("takes a function defined in the step before's body only at the line that defines it, inside the callee's lines and after the caller's first", async () => {
    const outer: CheckableStep = { symbol: "retrying", role: "entry", ...span("retry.py", 1, 5), call_site: null };
    const defined = (line: number, callee: { symbol: string; from: number; to: number } = { symbol: "wrapper", from: 2, to: 4 }): CheckableStep => ({
      symbol: callee.symbol,
      role: "callee",
      ...span("retry.py", callee.from, callee.to),
      call_site: { ...site("retry.py", line), defines: true },
    });
    // The `def` under the decorator names it.
    expect(await checkChain([outer, defined(3)], sources)).toMatchObject({ kept: 2, cut: null });
    // The decorator line does not name it; the return line names it but is not in its lines.
    expect((await checkChain([outer, defined(2)], sources)).cut?.reason).toContain("retry.py:2 is not where wrapper is defined");
    expect((await checkChain([outer, defined(5)], sources)).cut?.reason).toContain("retry.py:5 is not where wrapper is defined");
    // A function defined before the caller's first line is not in its body.
    const later: CheckableStep = { symbol: "other", role: "entry", ...span("retry.py", 7, 8), call_site: null };
    expect((await checkChain([later, defined(3)], sources)).cut?.reason).toContain("retry.py:3 is not inside other");
  });

  it("takes a call by a re-exported or imported name only with the line that renames the callee to it", async () => {
    expect(renames("  _minLength as minLength,", "_minLength", "minLength")).toBe(true);
    expect(renames("  _maxLength as maxLength,", "_minLength", "minLength")).toBe(false);
    // An import renaming a class: its constructor is called by the new name.
    expect(renames("from email._parseaddr import AddressList as _AddressList", "AddressList.__init__", "_AddressList")).toBe(true);
    expect(renames("from email._parseaddr import AddressList as _AddressList", "AddressList.parse", "_AddressList")).toBe(false);
    const entry: CheckableStep = { symbol: "min", role: "entry", ...span("schemas.ts", 1, 3), call_site: null };
    const renamed = (line: number): CheckableStep => ({ symbol: "_minLength", role: "callee", ...span("api.ts", 1, 3), call_site: { ...site("schemas.ts", 2), alias_at: { name: "minLength", ...site("checks.ts", line) } } });
    expect(await checkChain([entry, renamed(2)], sources)).toMatchObject({ kept: 2, cut: null, citations_checked: 4, citations_verified: 4 });
    expect((await checkChain([entry, renamed(3)], sources)).cut?.reason).toContain("checks.ts:3 does not rename _minLength to minLength");
    expect((await checkChain([entry, { ...renamed(2), call_site: site("schemas.ts", 2) }], sources)).cut?.reason).toContain("does not call _minLength");
  });
});
