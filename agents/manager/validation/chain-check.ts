// A traced chain is checked step by step: every step's cited lines and call line are re-hashed (by the
// manager, or by another replica), and an edge is real only if its call line names the callee. The chain
// is cut at the first step that fails, and says why.
import { dispatchPrefix, eventName, lastName, type Citation } from "../../protocol/index.js";
import { checkHashes, type HashSources } from "./hash-check.js";

export interface CheckableStep {
  symbol: string;
  role: "entry" | "callee" | "caller";
  file_path: string;
  line_start: number;
  line_end: number;
  sha256: string;
  call_site: (CitedLine & { bound_at?: CitedLine & { field: string }; alias_at?: CitedLine & { name: string }; defines?: true }) | null;
}

interface CitedLine {
  file_path: string;
  line: number;
  text: string;
  sha256: string;
}

export interface ChainCheck {
  /** Steps before the first failure (all of them when none failed). */
  kept: number;
  cut: { step: number; reason: string } | null;
  citations_checked: number;
  citations_verified: number;
}


/** A constructor is called by its class's name: `SMTP(host)` calls `SMTP.__init__`, `new Foo()` `Foo.constructor`. */
const CONSTRUCTOR_NAMES = new Set(["__init__", "constructor"]);

/** The name a call of the symbol writes: its last name, or a constructor's class's (`SMTP` for `SMTP.__init__`). */
export function calledAs(symbol: string): string {
  const last = lastName(symbol);
  return CONSTRUCTOR_NAMES.has(last) && symbol.includes(".") ? lastName(symbol.slice(0, symbol.length - last.length - 1)) : last;
}

/** Whether a call line names the callee as a call or a reference (`foo(`, `.foo(`, `new Foo(`, `foo` passed on). */
export function namesCallee(line: string, callee: string): boolean {
  const name = calledAs(callee);
  const escaped = name.replace(/[$]/g, "\\$");
  return new RegExp(`(^|[^\\w$])${escaped}([^\\w$]|$)`).test(line);
}

/**
 * A `defines` edge (no call: the callee is a function defined in the caller's body) is real only if its
 * line is among the callee's cited lines (its first, or its `def` under decorators) and names it, in the
 * caller's file after the caller's first line (a long caller is cited by its head, so where its body ends
 * is the worker's word, as which `foo` a call line naming `foo` calls is). Null when it is, else why not.
 */
function definedInside(caller: CheckableStep | undefined, callee: CheckableStep, site: CitedLine, read: string): string | null {
  const where = `${site.file_path}:${site.line}`;
  if (site.file_path !== callee.file_path || site.line < callee.line_start || site.line > callee.line_end || !namesCallee(read, callee.symbol)) return `${where} is not where ${lastName(callee.symbol)} is defined`;
  if (!caller || caller.file_path !== callee.file_path || callee.line_start <= caller.line_start) return `${where} is not inside ${caller?.symbol ?? "the step before"}`;
  return null;
}

/** A name as a literal piece of a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether a line stores the callee into the field: an initializer or assignment (`.ndo_start_xmit =
 * veth_xmit,`, `po->prot_hook.func = packet_rcv;`), or a C call handing the field's address and then the
 * callee's name (`INIT_WORK(&vi->config_work, virtnet_config_changed_work);`: deferred work, PGC.md rule 7).
 */
export function bindsCallee(line: string, field: string, callee: string): boolean {
  const name = escape(lastName(callee));
  if (new RegExp(`(^|[^\\w$])${escape(field)}\\s*=\\s*(\\([^)]*\\)\\s*)?&?\\s*${name}([^\\w$]|$)`).test(line)) return true;
  return new RegExp(`\\(\\s*&[^,()]*?(->|\\.)\\s*${escape(field)}\\s*,.*[^\\w$]${name}([^\\w$]|$)`).test(line);
}

/**
 * Whether a line gives the callee another name: a re-export (`_minLength as minLength,`) or an import
 * (`from email._parseaddr import AddressList as _AddressList`, a constructor by its class's name); or, for a
 * class's `__call__`, the name of an object built from the class (`_QUOTER = _Quoter(…)`: PGC.md, calling an object).
 */
export function renames(line: string, callee: string, name: string): boolean {
  if (lastName(callee) === "__call__" && callee.includes(".")) {
    // A built object called: the line builds it from the callee's class (`self._log_render = LogRender(…)`).
    const cls = lastName(callee.slice(0, -".__call__".length));
    return new RegExp(`(^|[^\\w$])${escape(lastName(name))}\\s*=\\s*(await\\s+)?([\\w$]+\\.)*${escape(cls)}\\s*\\(`).test(line);
  }
  return new RegExp(`(^|[^\\w$])${escape(calledAs(callee))}\\s+as\\s+${escape(name)}([^\\w$]|$)`).test(line);
}

function asCitation(span: { file_path: string; line_start: number; line_end: number; sha256: string }): Citation {
  return { ...span, overlay: "O3", content: "", relevance: "", similarity: 1, similarity_kind: "exact" } as Citation;
}

/**
 * Why a dispatch edge is not real, or null when it is: the call line writes the prefix as the start of a
 * string literal (`mname = 'do_' + self.command`, `f"visit_{…}"`), the callee's name begins with it, and the
 * binding line is where the callee is defined (`def do_GET(self):`).
 */
function dispatchBroken(site: CitedLine, read: string, bound: CitedLine, boundText: string, prefix: string, callee: string): string | null {
  const name = lastName(callee);
  if (!new RegExp(`(^|[^\\w])[rRuUfF]{0,2}['"]${escape(prefix)}`).test(read)) return `${site.file_path}:${site.line} does not build a name from ${JSON.stringify(prefix)}`;
  if (!name.startsWith(prefix) || !new RegExp(`^\\s*(async\\s+)?def\\s+${escape(name)}\\s*\\(`).test(boundText)) return `${bound.file_path}:${bound.line} does not define ${name}, a method named ${JSON.stringify(prefix)}…`;
  return null;
}

/**
 * Why an event edge is not real, or null when it is: the call line writes a string literal spelling the event's
 * key, then its end or a placeholder (`event_name = f"needs-retry.{service_id}…"`, `self.emit('close')`), and
 * the binding line names the callee (`handler.needs_retry,` in the call registering it under the key: PGC.md rule 11).
 */
function eventBroken(site: CitedLine, read: string, bound: CitedLine, boundText: string, event: string, callee: string): string | null {
  if (!new RegExp(`(^|[^\\w])[rRuUfF]{0,2}['"\`]${escape(event)}(\\.?[^\\w:.-]|$)`).test(read)) return `${site.file_path}:${site.line} does not name the event ${JSON.stringify(event)}`;
  if (!new RegExp(`(^|[^\\w$])${escape(lastName(callee))}([^\\w$]|$)`).test(boundText)) return `${bound.file_path}:${bound.line} does not name ${lastName(callee)}`;
  return null;
}

export async function checkChain(steps: readonly CheckableStep[], sources: HashSources): Promise<ChainCheck> {
  const spans: Citation[] = [];
  const owners: number[] = [];
  steps.forEach((step, i) => {
    spans.push(asCitation(step));
    owners.push(i);
    for (const line of [step.call_site, step.call_site?.bound_at, step.call_site?.alias_at]) {
      if (!line) continue;
      spans.push(asCitation({ file_path: line.file_path, line_start: line.line, line_end: line.line, sha256: line.sha256 }));
      owners.push(i);
    }
  });
  const checks = await checkHashes(spans, sources);
  const verified = checks.filter((c) => c.outcome === "verified").length;
  const target = steps[0]?.symbol ?? "";
  for (const [i, step] of steps.entries()) {
    const failed = checks.findIndex((c, k) => owners[k] === i && c.outcome === "fabricated");
    if (failed >= 0) return { kept: i, cut: { step: i, reason: `step ${i + 1} (${step.symbol}): ${checks[failed]?.detail ?? "the cited lines do not match"}` }, citations_checked: checks.length, citations_verified: verified };
    const site = step.call_site;
    if (site) {
      const callee = step.role === "caller" ? target : step.symbol;
      const read = checks[owners.indexOf(i) + 1]?.text ?? site.text;
      const bound = site.bound_at;
      const alias = site.alias_at;
      const aliasLine = checks[owners.indexOf(i) + (bound ? 3 : 2)]?.text ?? alias?.text ?? "";
      // Through a C struct field, the call line names the field and the binding line stores the callee into it;
      // through a Python dispatch by a built name, the call line writes the prefix and the binding line defines the callee.
      const prefix = bound ? dispatchPrefix(bound.field) : null;
      const event = bound ? eventName(bound.field) : null;
      const broken = bound && prefix !== null
        ? dispatchBroken(site, read, bound, checks[owners.indexOf(i) + 2]?.text ?? bound.text, prefix, callee)
        : bound && event !== null
        ? eventBroken(site, read, bound, checks[owners.indexOf(i) + 2]?.text ?? bound.text, event, callee)
        : bound
        ? !namesCallee(read, bound.field)
          ? `${site.file_path}:${site.line} does not call through the field ${bound.field}`
          : !bindsCallee(checks[owners.indexOf(i) + 2]?.text ?? bound.text, bound.field, callee)
            ? `${bound.file_path}:${bound.line} does not store ${lastName(callee)} into ${bound.field}`
            : null
        : alias
          ? !namesCallee(read, alias.name)
            ? `${site.file_path}:${site.line} does not call ${alias.name}`
            : !renames(aliasLine, callee, alias.name)
              ? `${alias.file_path}:${alias.line} does not rename ${calledAs(callee)} to ${alias.name}`
              : null
          : site.defines
            ? definedInside(steps[i - 1], step, site, read)
            : !namesCallee(read, callee)
              ? `${site.file_path}:${site.line} does not call ${lastName(callee)}`
              : null;
      if (broken) return { kept: i, cut: { step: i, reason: `step ${i + 1}: ${broken}` }, citations_checked: checks.length, citations_verified: verified };
    } else if (step.role !== "entry") {
      return { kept: i, cut: { step: i, reason: `step ${i + 1} (${step.symbol}) has no call line linking it to the chain` }, citations_checked: checks.length, citations_verified: verified };
    }
  }
  return { kept: steps.length, cut: null, citations_checked: checks.length, citations_verified: verified };
}
