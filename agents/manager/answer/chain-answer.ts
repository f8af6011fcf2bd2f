// The answer as a person follows it: the traced path as numbered steps, each edge with its call line
// quoted, then why it started there, where it turned, and why it stopped.
import { dispatchPrefix, eventName } from "../../protocol/index.js";
import type { ChainStep, SearchDecision } from "../search/trace-chain.js";

/** A call line quoted in the answer is cut to this many characters. */
const QUOTED_LINE_CHARS = 120;

function where(step: Pick<ChainStep, "file_path" | "line_start" | "line_end">): string {
  return `${step.file_path}:${step.line_start}${step.line_end > step.line_start ? `-${step.line_end}` : ""}`;
}

function quote(text: string): string {
  const line = text.trim();
  return line.length > QUOTED_LINE_CHARS ? `${line.slice(0, QUOTED_LINE_CHARS - 1)}…` : line;
}

/** One numbered step: `caller (file:line) → callee (file:lines) [scope]`, and the call line under it. */
export function stepLines(step: ChainStep, index: number, previous: ChainStep | undefined, first: ChainStep | undefined): string[] {
  const site = step.call_site;
  if (step.role === "entry" || !site) return [`${index + 1}. ${step.symbol} (${where(step)}) [${step.scope}]`];
  const lines =
    step.role === "caller"
      ? [`${index + 1}. ${step.symbol} (${where(step)}) [${step.scope}] calls ${first?.symbol ?? "it"} at ${site.file_path}:${site.line}`, `     ${site.line} | ${quote(site.text)}`]
      : site.defines
        ? [`${index + 1}. ${previous?.symbol ?? "?"} defines ${step.symbol} (${where(step)}) [${step.scope}] in its body`, `     ${site.line} | ${quote(site.text)}`]
        : [`${index + 1}. ${previous?.symbol ?? "?"} (${site.file_path}:${site.line}) → ${step.symbol} (${where(step)}) [${step.scope}]`, `     ${site.line} | ${quote(site.text)}`];
  // Through a C struct field: the line that stored the callee into it is what makes the edge; through a
  // Python dispatch by a built name, the method's definition.
  const bound = site.bound_at;
  const prefix = bound ? dispatchPrefix(bound.field) : null;
  const event = bound ? eventName(bound.field) : null;
  if (bound) lines.push(prefix !== null ? `     by the name built from ${JSON.stringify(prefix)}, defined at ${bound.file_path}:${bound.line}` : event !== null ? `     as a handler of the event ${JSON.stringify(event)}, registered at ${bound.file_path}:${bound.line}` : `     through the field ${bound.field}, set at ${bound.file_path}:${bound.line}`, `     ${bound.line} | ${quote(bound.text)}`);
  const alias = site.alias_at;
  if (alias) lines.push(`     named ${alias.name} by the re-export at ${alias.file_path}:${alias.line}`, `     ${alias.line} | ${quote(alias.text)}`);
  return lines;
}

export interface AnswerParts {
  steps: readonly ChainStep[];
  outcome: "chain" | "partial" | "no_chain";
  confidence: "high" | "medium" | "low";
  coverage: number;
  decisions: readonly SearchDecision[];
  stopped_because: string;
  cut: string | null;
  callers: boolean;
}

export function chainAnswer(parts: AnswerParts): string {
  if (parts.outcome === "no_chain") {
    return [`No chain found (confidence low): ${parts.stopped_because}.`, ...parts.decisions.map((d) => `  ${d.at}: ${d.detail}`)].join("\n");
  }
  const scopes = [...new Set(parts.steps.map((s) => s.scope))];
  const title = parts.callers ? "Callers" : "Traced path";
  const lines = [`${title} (${parts.steps.length} step${parts.steps.length === 1 ? "" : "s"} across ${scopes.join(" → ")}; covers ${Math.round(parts.coverage * 100)}% of the question; confidence ${parts.confidence}):`];
  parts.steps.forEach((step, i) => lines.push(...stepLines(step, i, parts.steps[i - 1], parts.steps[0])));
  if (parts.cut) lines.push(`Cut: ${parts.cut}; the steps after it are not shown.`);
  lines.push("", "How the search went:", ...parts.decisions.map((d) => `  ${d.at}: ${d.detail}`), `  stopped: ${parts.stopped_because}`);
  return lines.join("\n");
}
