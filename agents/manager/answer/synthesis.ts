// The answer a multi-hop question gets, extracted from its hops: each accepted hop's key findings,
// quoted as what they name and where.
import type { HopRecord } from "./result.js";

/** The longest finding the synthesis quotes whole; an index line is shortened to what and where. */
const MAX_FINDING_CHARS = 160;

/**
 * A finding as the answer quotes it. An index line (`function:innerFrom | params:1 | … — path:lines`, or
 * `call_chain: a → b | … — path:lines`) becomes what it names and where: `function innerFrom
 * (internal/observable/innerFrom.ts:16-42)`, `a → b (…)`. Any other finding (an agent's own words) is
 * quoted as it is, cut at MAX_FINDING_CHARS.
 */
export function briefFinding(finding: string): string {
  const indexLine = /^([a-z_]+):\s*([^|]+?)\s*\|.* — (\S+)$/.exec(finding);
  if (indexLine) {
    const [, kind, what, where] = indexLine as unknown as [string, string, string, string];
    return `${kind === "call_chain" ? what : `${kind.replace(/_/g, " ")} ${what}`} (${where})`;
  }
  // A chain of calls leaving the scope: "Call chain: a.c:f() → b.c:g() → h() [outside scope] — a.c:9-9".
  const chain = /^Call chain: (.+?) — (\S+)$/.exec(finding);
  if (chain) {
    const [, steps, where] = chain as unknown as [string, string, string];
    const names = steps.split(" → ").map((step) => /^(?:\S+:)?([^\s:(]+)\(\)(?: \[outside scope\])?$/.exec(step)?.[1] ?? step);
    return `${names.join(" → ")} (${where})`;
  }
  return finding.length > MAX_FINDING_CHARS ? `${finding.slice(0, MAX_FINDING_CHARS - 1)}…` : finding;
}

/** The extractive answer across hops: each accepted hop's first findings, briefly, in path order. */
export function synthesize(chain: readonly HopRecord[]): string {
  const accepted = chain.filter((h) => h.verdict.status !== "rejected");
  if (accepted.length === 0) return "No hop produced an accepted, grounded answer.";
  const lines = accepted.map((h) => {
    const findings = h.key_findings.length > 0 ? h.key_findings.slice(0, 3).map(briefFinding).join("; ") : "(no key findings)";
    return `${h.hop + 1}. In ${h.scope}: ${findings}`;
  });
  return `Path ${chain.map((h) => h.scope).join(" → ")}:\n${lines.join("\n")}`;
}
