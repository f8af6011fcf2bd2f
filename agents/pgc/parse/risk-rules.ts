// The O2 table: risky APIs per language family, each with the reason it is risky and when it applies.
import type { Node } from "web-tree-sitter";
import { realChildren } from "./node-text.js";

export type RiskFamily = "c" | "js" | "python";

export interface RiskRule {
  /** Qualified names as they are called ("strcpy", "os.system", "child_process.exec"). */
  names: readonly string[];
  reason: string;
  severity: "high" | "medium" | "low";
  /** Only a finding when this holds for the argument list; always when absent. */
  when?: (args: readonly Node[]) => boolean;
}

const argText = (args: readonly Node[], index: number): string => args[index]?.text ?? "";
const anyArg = (args: readonly Node[], pattern: RegExp): boolean => args.some((arg) => pattern.test(arg.text));

/** A size built only from literals, macros (UPPER_CASE) and sizeof is a compile-time constant. */
export function isConstantSize(text: string): boolean {
  const withoutSizeof = text.replace(/sizeof\s*(\([^()]*(\([^()]*\))?[^()]*\)|\s+\w+)/g, "1");
  return !/\b[a-z_][a-z0-9_]*\b/.test(withoutSizeof.replace(/\b0x[0-9a-f]+\b|\b\d+[uUlL]*\b/g, "1"));
}

/** A command built from a template with substitutions or by concatenation can carry injected text. */
function isBuiltCommand(arg: Node | undefined): boolean {
  if (!arg) return false;
  if (arg.type === "template_string") return arg.text.includes("${");
  return arg.type === "binary_expression" && arg.text.includes("+");
}

const C_RULES: readonly RiskRule[] = [
  { names: ["strcpy", "stpcpy"], reason: "copies without a bound on the destination size", severity: "high" },
  { names: ["strcat"], reason: "appends without a bound on the destination size", severity: "high" },
  { names: ["sprintf", "vsprintf"], reason: "formats without a bound on the destination size", severity: "high" },
  { names: ["gets"], reason: "reads a line with no bound at all (removed in C11)", severity: "high" },
  { names: ["system", "popen"], reason: "runs a command through the shell", severity: "high" },
  { names: ["alloca"], reason: "stack allocation of a runtime size can overflow the stack", severity: "medium" },
  {
    names: ["memcpy", "memmove"],
    reason: "copy length is not a compile-time constant: check it is bounded by the destination",
    severity: "medium",
    when: (args) => args.length >= 3 && !isConstantSize(argText(args, 2)),
  },
  { names: ["strncpy"], reason: "does not NUL-terminate the destination on truncation", severity: "low" },
];

const JS_RULES: readonly RiskRule[] = [
  { names: ["eval"], reason: "evaluates a string as code", severity: "high" },
  { names: ["Function"], reason: "`new Function` compiles a string as code", severity: "high" },
  {
    names: ["child_process.exec", "child_process.execSync"],
    reason: "shell command built from a template or concatenation (command injection)",
    severity: "high",
    when: (args) => isBuiltCommand(args[0]),
  },
  {
    names: ["child_process.spawn", "child_process.spawnSync", "child_process.execFile", "child_process.execFileSync"],
    reason: "`shell: true` passes the arguments through a shell",
    severity: "high",
    when: (args) => anyArg(args, /shell\s*:\s*true/),
  },
  { names: ["document.write"], reason: "writes raw HTML into the document (XSS)", severity: "medium" },
  { names: ["*.insertAdjacentHTML"], reason: "inserts raw HTML (XSS)", severity: "medium" },
];

const SUBPROCESS_CALLS = ["run", "call", "check_call", "check_output", "Popen"].map((name) => `subprocess.${name}`);

const PYTHON_RULES: readonly RiskRule[] = [
  { names: ["eval", "exec"], reason: "evaluates a string as code", severity: "high" },
  { names: ["pickle.loads", "pickle.load", "marshal.loads"], reason: "deserialising untrusted data runs code", severity: "high" },
  { names: ["os.system", "os.popen"], reason: "runs a command through the shell", severity: "high" },
  {
    names: SUBPROCESS_CALLS,
    reason: "`shell=True` passes the command through a shell (command injection)",
    severity: "high",
    when: (args) => anyArg(args, /^shell\s*=\s*True$/),
  },
  {
    names: ["yaml.load"],
    reason: "yaml.load without an explicit Loader can construct arbitrary objects",
    severity: "high",
    when: (args) => args.length < 2 && !anyArg(args, /^Loader\s*=/),
  },
];

const RULES: Readonly<Record<RiskFamily, readonly RiskRule[]>> = { c: C_RULES, js: JS_RULES, python: PYTHON_RULES };
const INDEX: Readonly<Record<RiskFamily, ReadonlyMap<string, RiskRule>>> = {
  c: indexRules(C_RULES),
  js: indexRules(JS_RULES),
  python: indexRules(PYTHON_RULES),
};

function indexRules(rules: readonly RiskRule[]): Map<string, RiskRule> {
  const index = new Map<string, RiskRule>();
  for (const rule of rules) for (const name of rule.names) index.set(name, rule);
  return index;
}

/** Every rule of a family, for documentation and tests. */
export function riskRules(family: RiskFamily): readonly RiskRule[] {
  return RULES[family];
}

/** The rule a call matches, trying each candidate name; `args` is read only for conditional rules. */
export function matchRisk(family: RiskFamily, candidates: readonly string[], argList: Node | null): RiskRule | null {
  for (const name of candidates) {
    const rule = INDEX[family].get(name);
    if (!rule) continue;
    if (!rule.when || rule.when(realChildren(argList))) return rule;
  }
  return null;
}

/** Property writes and JSX attributes that inject raw HTML. */
export const HTML_SINK_REASONS: ReadonlyMap<string, string> = new Map([
  ["innerHTML", "assigning innerHTML parses the string as HTML (XSS)"],
  ["outerHTML", "assigning outerHTML parses the string as HTML (XSS)"],
  ["dangerouslySetInnerHTML", "dangerouslySetInnerHTML bypasses React's escaping (XSS)"],
]);
