// What a multi-hop answer is, whichever way it was found (the traced search or a planned route of
// delegated tasks): its hop records, the traced chain, the safety block; and the errors it can end with.
import type { Citation, TaskResponse } from "../../protocol/index.js";
import type { Verdict } from "../validation/index.js";

/** `traced`: the call-graph search (the default); `planned`: a DelegatedTask per hop along the scope graph's route. */
export type HopMode = "planned" | "traced";

interface CitedLine {
  file_path: string;
  line: number;
  text: string;
  sha256: string;
}

export interface HopRecord {
  hop: number;
  scope: string;
  agent: string;
  question: string;
  focus: string[];
  status: TaskResponse["status"];
  key_findings: string[];
  citations: Pick<Citation, "file_path" | "line_start" | "line_end" | "sha256" | "similarity" | "similarity_kind" | "overlay">[];
  confidence: string | null;
  verdict: Pick<Verdict, "status" | "code" | "reasons" | "warnings" | "citations_checked" | "citations_verified">;
  output_ref: string;
  failovers: number;
}

/** One step of a traced chain as the answer carries it (`--json`'s `chain`). */
export interface ChainStepRecord {
  scope: string;
  agent: string;
  symbol: string;
  file_path: string;
  line_start: number;
  line_end: number;
  sha256: string;
  /** `bound_at`: a call through a C struct field, the line that stored this step's function into it. */
  /** `alias_at`: the call names the step's function by another name, which this re-export line gives it. */
  call_site: { file_path: string; line: number; text: string; sha256: string; bound_at?: { field: string } & CitedLine; alias_at?: { name: string } & CitedLine } | null;
}

export interface MultiHopResult {
  id: string;
  question: string;
  mode: HopMode;
  query_path: string[];
  knowledge_chain: HopRecord[];
  /** The traced path (mode "traced" and planned routes on the search); absent from the older modes. */
  chain?: ChainStepRecord[];
  outcome?: "chain" | "partial" | "no_chain";
  confidence?: "high" | "medium" | "low";
  /** Share of the question's weighted terms the chain covers. */
  coverage?: number;
  /** Why the search started where it did, which exits it took, why it stopped. */
  decisions?: { at: string; detail: string }[];
  answer: string;
  total_agents_queried: number;
  safety: { max_hops: number; actual_hops: number; visited_agents: string[]; stopped_because: string };
  elapsed_ms: number;
  /** What the search asked of the fleet (mode "traced"; absent from the older modes): see SearchCost. */
  cost?: SearchCost;
}

/**
 * What one traced answer asked of the fleet: what its latency is made of on a fleet whose workers share
 * the machine's cores.
 */
export interface SearchCost {
  /** Scopes asked `entry` (the fan-out round). */
  entry_requests: number;
  /** Expansions the search asked for (forward and callers), and how many of those shared an earlier identical one's answer (expand-memo.ts). */
  expansions: number;
  expansions_shared: number;
  /** The expansions by what they were asked for: a start's own paths, an exit's callee (a look-ahead, or the hop it leads to), a function's callers (the climb, "who calls"). */
  expansions_by_kind: { starts: number; callees: number; callers: number };
  /** Requests sent for the expansions not shared: `expand`, or `expand_batch` for several of one scope at once (expand-batch.ts). Absent when the search ran without the bus. */
  expand_requests?: number;
}

export class MultiHopError extends Error {
  override readonly name = "MultiHopError";
  constructor(
    readonly code: "unknown_scope" | "no_path" | "hop_limit" | "no_start",
    message: string,
  ) {
    super(message);
  }
}

/** Scopes listed in full in an unknown-scope error; a larger fleet is summed up. */
const LISTED_SCOPES = 12;

/** A scope no worker serves: say which ones do, and the likeliest one meant ("driver" → drivers). */
export function unknownScope(name: string, scopes: readonly string[]): MultiHopError {
  const lower = name.toLowerCase();
  const near = scopes.filter((scope) => scope.toLowerCase().startsWith(lower) || lower.startsWith(scope.toLowerCase()) || scope.toLowerCase().includes(lower));
  const sorted = [...scopes].sort();
  const listed = sorted.length > LISTED_SCOPES ? `${sorted.slice(0, LISTED_SCOPES).join(", ")}, … (${sorted.length} in all; mesh agents lists them)` : sorted.join(", ");
  const hint = near.length > 0 && near.length <= 3 ? `; did you mean ${near.map((s) => `"${s}"`).join(" or ")}?` : "";
  return new MultiHopError("unknown_scope", `no worker serves scope "${name}" (scopes: ${listed || "none"})${hint}`);
}
