// A multi-hop result as a person reads it: the path, each hop's findings, citations and verdict.
import type { HopRecord, MultiHopResult } from "../agents/manager/answer/result.js";

function hopLines(hop: HopRecord): string[] {
  const lines = [
    `  hop ${hop.hop + 1}: ${hop.scope} (${hop.agent}) — ${hop.status}, confidence ${hop.confidence ?? "n/a"}, verdict ${hop.verdict.status}${hop.verdict.code ? ` ${hop.verdict.code}` : ""} (${hop.verdict.citations_verified}/${hop.verdict.citations_checked} checked citations match)`,
    `    asked: ${hop.question}`,
  ];
  for (const finding of hop.key_findings.slice(0, 5)) lines.push(`    • ${finding}`);
  for (const c of hop.citations) lines.push(`      cites ${c.file_path}:${c.line_start}-${c.line_end} sha256 ${c.sha256.slice(0, 12)}… ${c.similarity_kind} ${c.similarity.toFixed(2)}`);
  for (const note of [...hop.verdict.reasons, ...hop.verdict.warnings]) lines.push(`    note: ${note}`);
  return lines;
}

/** "; asked 4 scopes for entry points, 21 expansions (6 shared) in 9 requests": what the answer cost the fleet. */
function costText(cost: MultiHopResult["cost"]): string {
  if (!cost) return "";
  const requests = cost.expand_requests === undefined ? "" : ` in ${cost.expand_requests} request${cost.expand_requests === 1 ? "" : "s"}`;
  return `; asked ${cost.entry_requests} scope${cost.entry_requests === 1 ? "" : "s"} for entry points, ${cost.expansions} expansion${cost.expansions === 1 ? "" : "s"} (${cost.expansions_shared} shared)${requests}`;
}

export function formatResult(result: MultiHopResult): string {
  if (result.chain !== undefined) {
    return [
      `${result.id}: ${result.question}`,
      `path ${result.query_path.join(" → ") || "(none)"} (${result.mode}; ${result.safety.actual_hops} of at most ${result.safety.max_hops} hops; ${result.elapsed_ms} ms${costText(result.cost)})`,
      "",
      result.answer,
      "",
      "Checked:",
      ...result.knowledge_chain.flatMap(hopLines),
    ].join("\n");
  }
  return [
    `${result.id}: ${result.question}`,
    `path ${result.query_path.join(" → ")} (${result.mode}; ${result.safety.actual_hops} of at most ${result.safety.max_hops} hops; stopped: ${result.safety.stopped_because})`,
    ...result.knowledge_chain.flatMap(hopLines),
    "",
    result.answer,
  ].join("\n");
}
