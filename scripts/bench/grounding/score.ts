// Scoring one answer against its gold chain. The answer's steps are its traced chain when it has one,
// else the citations of its hops in order (the one-scope baseline's answer has no chain). A gold step is
// cited when a step of the answer is in the same file and either names the same function or covers the
// gold definition line (or, for a gold step that is a whole class or built value, is a method of it);
// chain recall is the longest in-order run of cited gold steps (a longest common
// subsequence) over the gold chain's length. Every citation is re-hashed against the corpus on disk.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { citationHash, lastName } from "../../../agents/protocol/index.js";
import type { MultiHopResult } from "../../../agents/manager/answer/result.js";
import type { GoldStep, GroundingQuestion } from "./cases.js";

export interface AnswerStep {
  scope: string;
  file_path: string;
  line_start: number;
  line_end: number;
  symbol: string | null;
}

export interface QuestionScore {
  id: string;
  kind: GroundingQuestion["kind"];
  /** The answer's first step is in the gold chain's first scope (null for an off-topic question). */
  start_right: boolean | null;
  /** The answer cites the gold chain's last scope (for "who calls": a caller's scope). */
  final_right: boolean | null;
  /** In-order share of the gold steps cited, 0–1 (null for an off-topic question). */
  recall: number | null;
  /** Off-topic only: the answer says no chain was found, with low confidence (null otherwise). */
  honest_no_chain: boolean | null;
  citations_checked: number;
  citations_verified: number;
  outcome: string;
  confidence: string;
  steps: number;
  scopes: string[];
}

/** What scoring reads of an answer: a traced answer whole, or only the cited hops of one without a chain. */
export type ScoredAnswer = Pick<MultiHopResult, "chain" | "outcome" | "confidence"> & {
  knowledge_chain: readonly { scope: string; citations: readonly Pick<MultiHopResult["knowledge_chain"][number]["citations"][number], "file_path" | "line_start" | "line_end" | "sha256">[] }[];
};

/** What an answer cites, in order: its chain, or its hops' citations when it has none. */
export function answerSteps(result: ScoredAnswer): AnswerStep[] {
  if (result.chain && result.chain.length > 0) return result.chain.map((s) => ({ scope: s.scope, file_path: s.file_path, line_start: s.line_start, line_end: s.line_end, symbol: s.symbol }));
  return result.knowledge_chain.flatMap((hop) => hop.citations.map((c) => ({ scope: hop.scope, file_path: c.file_path, line_start: c.line_start, line_end: c.line_end, symbol: null })));
}

/** `ZodType` of `ZodType.clone`; null for an unqualified name. */
function containerOf(symbol: string): string | null {
  const dot = symbol.lastIndexOf(".");
  return dot > 0 ? lastName(symbol.slice(0, dot)) : null;
}

export function cites(step: AnswerStep, gold: GoldStep): boolean {
  if (step.file_path !== gold.file) return false;
  if (step.symbol !== null && lastName(step.symbol) === lastName(gold.symbol)) return true;
  // A gold step that is a whole unit (a class, a value built with methods) is cited by a method of it, the narrower citation.
  if (step.symbol !== null && !gold.symbol.includes(".") && containerOf(step.symbol) === gold.symbol) return true;
  return step.line_start <= gold.line && gold.line <= step.line_end;
}

/** Length of the longest run of gold steps cited in order by the answer's steps. */
export function inOrderCited(gold: readonly GoldStep[], steps: readonly AnswerStep[]): number {
  const table = Array.from({ length: gold.length + 1 }, () => new Array<number>(steps.length + 1).fill(0));
  for (let i = 1; i <= gold.length; i++) {
    for (let j = 1; j <= steps.length; j++) {
      const row = table[i]!;
      const above = table[i - 1]!;
      row[j] = cites(steps[j - 1]!, gold[i - 1]!) ? above[j - 1]! + 1 : Math.max(above[j]!, row[j - 1]!);
    }
  }
  return table[gold.length]![steps.length]!;
}

/** Every span an answer cites (steps, call lines, hop citations), once each. */
function citedSpans(result: ScoredAnswer): { file_path: string; line_start: number; line_end: number; sha256: string }[] {
  const spans = new Map<string, { file_path: string; line_start: number; line_end: number; sha256: string }>();
  const add = (s: { file_path: string; line_start: number; line_end: number; sha256: string }) => spans.set(`${s.file_path}:${s.line_start}-${s.line_end}:${s.sha256}`, s);
  for (const hop of result.knowledge_chain) for (const c of hop.citations) add(c);
  for (const step of result.chain ?? []) {
    add(step);
    if (step.call_site) add({ file_path: step.call_site.file_path, line_start: step.call_site.line, line_end: step.call_site.line, sha256: step.call_site.sha256 });
  }
  return [...spans.values()];
}

/** Re-hash each cited span from the corpus on disk. */
export function verifyCitations(result: ScoredAnswer, root: string): { checked: number; verified: number } {
  const files = new Map<string, string[] | null>();
  const lines = (path: string) => {
    if (!files.has(path)) {
      try {
        files.set(path, readFileSync(join(root, path), "utf8").split("\n"));
      } catch {
        files.set(path, null);
      }
    }
    return files.get(path) ?? null;
  };
  const spans = citedSpans(result);
  const verified = spans.filter((s) => {
    const text = lines(s.file_path);
    return text !== null && citationHash(text.slice(s.line_start - 1, s.line_end).join("\n")) === s.sha256;
  }).length;
  return { checked: spans.length, verified };
}

export function scoreAnswer(question: GroundingQuestion, gold: readonly GoldStep[], result: ScoredAnswer, root: string): QuestionScore {
  const steps = answerSteps(result);
  const { checked, verified } = verifyCitations(result, root);
  const common = {
    id: question.id,
    kind: question.kind,
    citations_checked: checked,
    citations_verified: verified,
    outcome: result.outcome ?? (steps.length > 0 ? "hits" : "no_chain"),
    confidence: result.confidence ?? "n/a",
    steps: steps.length,
    scopes: [...new Set(steps.map((s) => s.scope))],
  };
  if (question.kind === "offtopic") {
    // An answer without an outcome (the one-scope baseline's hits) is honest only when it cites nothing.
    const honest = result.outcome !== undefined ? result.outcome === "no_chain" && result.confidence === "low" : steps.length === 0;
    return { ...common, start_right: null, final_right: null, recall: null, honest_no_chain: honest };
  }
  const scopes = new Set(steps.map((s) => s.scope));
  const start = gold[0]!;
  const finals = question.kind === "callers" ? gold.slice(1) : [gold.at(-1)!];
  const recall = question.kind === "callers" ? gold.filter((g) => steps.some((s) => cites(s, g))).length / gold.length : inOrderCited(gold, steps) / gold.length;
  return {
    ...common,
    start_right: steps[0]?.scope === start.scope,
    final_right: finals.some((g) => scopes.has(g.scope)),
    recall: Math.round(recall * 1000) / 1000,
    honest_no_chain: null,
  };
}
