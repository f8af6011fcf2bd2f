// The output schemas of the MCP tools and the values they are filled from: an answer (with its traced
// chain) and the agent list.
import { z } from "zod";
import type { AgentInfo } from "../../agents/manager/agents-directory.js";
import type { MultiHopResult } from "../../agents/manager/answer/result.js";

export const citationShape = z.object({ file_path: z.string(), line_start: z.number(), line_end: z.number(), sha256: z.string() });
const chainStepShape = z.object({
  scope: z.string(),
  agent: z.string(),
  symbol: z.string(),
  file_path: z.string(),
  line_start: z.number(),
  line_end: z.number(),
  sha256: z.string(),
  call_site: z
    .object({
      file_path: z.string(),
      line: z.number(),
      text: z.string(),
      sha256: z.string(),
      bound_at: z.object({ field: z.string(), file_path: z.string(), line: z.number(), text: z.string(), sha256: z.string() }).optional().describe("a C call through a struct field: the line that stored the callee into it"),
      alias_at: z.object({ name: z.string(), file_path: z.string(), line: z.number(), text: z.string(), sha256: z.string() }).optional().describe("the call names the callee by another name: the re-export line that gives it"),
      defines: z.literal(true).optional().describe("not a call: the callee is a function defined in the caller's body (a closure it returns), and the line is its first"),
    })
    .nullable(),
});
export const answerShape = {
  id: z.string().describe("the answer's id: `trace` replays it"),
  question: z.string(),
  outcome: z.enum(["chain", "partial", "no_chain"]).optional().describe("a whole chain, one cut at a step that failed its check, or none found"),
  confidence: z.enum(["high", "medium", "low"]).optional(),
  coverage: z.number().optional().describe("share of the question's weighted terms the chain covers"),
  query_path: z.array(z.string()).describe("the scopes the answer went through, in order"),
  chain: z.array(chainStepShape).optional().describe("the traced path: each step calls the next at its call_site line"),
  hops: z.array(z.object({ scope: z.string(), agent: z.string(), verdict: z.string(), citations_checked: z.number(), citations_verified: z.number(), citations: z.array(citationShape) })),
  decisions: z.array(z.object({ at: z.string(), detail: z.string() })).optional().describe("why the search started, went and stopped where it did"),
  answer: z.string(),
  stopped_because: z.string(),
};

export function answerOutput(result: MultiHopResult): z.infer<z.ZodObject<typeof answerShape>> {
  return {
    id: result.id,
    question: result.question,
    ...(result.outcome ? { outcome: result.outcome } : {}),
    ...(result.confidence ? { confidence: result.confidence } : {}),
    ...(result.coverage !== undefined ? { coverage: result.coverage } : {}),
    query_path: result.query_path,
    ...(result.chain ? { chain: result.chain } : {}),
    hops: result.knowledge_chain.map((h) => ({
      scope: h.scope,
      agent: h.agent,
      verdict: h.verdict.status,
      citations_checked: h.verdict.citations_checked,
      citations_verified: h.verdict.citations_verified,
      citations: h.citations.map(({ file_path, line_start, line_end, sha256 }) => ({ file_path, line_start, line_end, sha256 })),
    })),
    ...(result.decisions ? { decisions: result.decisions } : {}),
    answer: result.answer,
    stopped_because: result.safety.stopped_because,
  };
}

export const agentShape = z.object({ id: z.string(), scope: z.string(), state: z.string(), load: z.number(), index_revision: z.string(), protocol_versions: z.array(z.string()), executor: z.string(), endpoint: z.string() });

export function agentRows(agents: readonly AgentInfo[]): z.infer<typeof agentShape>[] {
  return agents.map(({ id, scope, state, load, index_revision, protocol_versions, executor, endpoint }) => ({ id, scope, state, load, index_revision, protocol_versions, executor, endpoint }));
}

export function agentsText(agents: readonly AgentInfo[]): string {
  return agents.map((a) => `${a.scope}  ${a.id}  ${a.state}  load ${a.load}  index ${a.index_revision}`).join("\n") || "(no workers)";
}
