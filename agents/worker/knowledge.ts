// Everything a worker knows about its scope: evidence for tasks, answers for `ask`, and the code facts
// (symbols, cross-scope references) the manager builds the topology from.
import type { AskResult, Citation, OverlayId } from "../protocol/index.js";
import type { ScopeFacts } from "../../topology/index.js";
import type { EntryResult, ExpandArgs, ExpandResult, SearchQuestion } from "../protocol/index.js";
import type { GroundingSource } from "./grounding-source.js";
import type { WarmUpStats } from "../pgc/callgraph/warm-up.js";

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
  /** Lines of code in the scope's files (absent where the source does not count them). */
  lines?: number;
  overlays: readonly OverlayId[];
  /** How similarities are produced: "calibrated_lexical", "coverage" or "external". */
  similarity: string;
}

export type CitationRef = Pick<Citation, "file_path" | "line_start" | "line_end" | "sha256">;

export interface ScopeKnowledge extends GroundingSource {
  ask(question: string, options: AskOptions): Promise<AskResult>;
  /** Re-hash cited lines against the scope's files as they are now; one boolean per citation. */
  verify(citations: readonly CitationRef[]): Promise<boolean[]>;
  facts(): ScopeFacts;
  /** The call-graph search (ops `entry`, `expand`); absent for a knowledge source without a call graph. */
  search?: {
    entry(question: SearchQuestion, topK?: number): EntryResult;
    expand(args: ExpandArgs): Promise<ExpandResult>;
    /** Do the work the first questions would otherwise wait for (the call graph, the entry index, the bodies' terms, compiled code); `stopped` ends it early. */
    warmUp?(stopped?: () => boolean): Promise<WarmUpStats>;
  };
  stats(): KnowledgeStats;
}
