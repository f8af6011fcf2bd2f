// The built-in executor: answers a task extractively from the scope's PGC (no LLM is assumed).
// It states what the evidence shows — where things are defined, what they call — with citations.
import type { Citation } from "../protocol/index.js";
import type { Executor, ExecutorInput, ExecutorOutput } from "./executor.js";
import type { GroundingSource } from "./grounding-source.js";

/** Sources the built-in executor consults when the worker gathered none (strategy none or pgc_verify). */
export const OWN_QUERY_TOP_K = 5;
export const KEY_FINDINGS = 3;

function finding(c: Citation): string {
  const summary = (c.content.split("\n")[0] ?? "").slice(0, 200);
  return `${summary} — ${c.file_path}:${c.line_start}-${c.line_end}`;
}

export function createPgcExecutor(source: GroundingSource): Executor {
  return {
    name: "pgc",
    async execute(input: ExecutorInput): Promise<ExecutorOutput> {
      const evidence = input.evidence.length > 0 ? input.evidence : await source.query(input.task.task, { topK: OWN_QUERY_TOP_K, signal: input.signal });
      if (evidence.length === 0) {
        return { status: "partial", result: `No source in scope ${input.scope.name} matches this task; it may belong to another scope.`, key_findings: [] };
      }
      const lines = evidence.slice(0, OWN_QUERY_TOP_K).map((c) => `- ${finding(c)} (${c.similarity_kind} ${c.similarity.toFixed(2)})`);
      return {
        status: "completed",
        result: `In scope ${input.scope.name}, the code relevant to "${input.task.task.slice(0, 200)}":\n${lines.join("\n")}`,
        key_findings: evidence.slice(0, KEY_FINDINGS).map(finding),
        referenced_files: [...new Set(evidence.map((c) => c.file_path))],
      };
    },
  };
}
