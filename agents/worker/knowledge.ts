// Everything a worker knows about its scope: evidence for tasks, answers for `ask`, and the code facts
// (symbols, cross-scope references) the manager builds the topology from.
import type { AskResult, OverlayId } from "../protocol/index.js";
import type { ScopeFacts } from "../../topology/index.js";
import type { GroundingSource } from "./grounding-source.js";

export interface AskOptions {
  overlays?: readonly OverlayId[];
  topK?: number;
  signal?: AbortSignal;
}

export interface KnowledgeStats {
  /** Content revision of the index (changes whenever any indexed file changes). */
  revision: string;
  documents: number;
  symbols: number;
  files: number;
  overlays: readonly OverlayId[];
  /** How similarities are produced: "calibrated_lexical", "coverage" or "external". */
  similarity: string;
}

export interface ScopeKnowledge extends GroundingSource {
  ask(question: string, options: AskOptions): Promise<AskResult>;
  facts(): ScopeFacts;
  stats(): KnowledgeStats;
}
