// The worker runtime: one scope, one knowledge source, one executor, served on a mesh node.
// Ops: `task` (DelegatedTask → TaskResponse), `ask` (seed `ask --json` shape), `references` (code facts).
import type { Logger } from "pino";
import type { MeshNode, RequestContext } from "../../bus/index.js";
import { encodeAskResult, parseEntryArgs, parseExpandArgs, parseExpandBatchArgs, ProtocolSchemaError, PROTOCOL_VERSIONS, TASK_REPLY_RETENTION_MS, type ExpandResult } from "../protocol/index.js";
import type { Executor, ScopeInfo } from "./executor.js";
import { handleTask } from "./handle-task.js";
import type { ScopeKnowledge } from "./knowledge.js";
import { z } from "zod";

export const WORKER_ROLE = "worker";
export const DEFAULT_ASK_TOP_K = 5;
export const MAX_ASK_TOP_K = 50;

const askArgsSchema = z.object({
  question: z.string().min(1).max(4_000),
  overlays: z.array(z.enum(["O1", "O2", "O3", "O4", "O5", "O6", "O7"])).optional(),
  top_k: z.number().int().min(1).max(MAX_ASK_TOP_K).optional(),
});

const verifyArgsSchema = z.object({
  citations: z
    .array(z.object({ file_path: z.string().min(1).max(1024), line_start: z.number().int().min(1), line_end: z.number().int().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }))
    .max(100),
});

export interface WorkerParts {
  node: MeshNode;
  scope: ScopeInfo;
  knowledge: ScopeKnowledge;
  executor: Executor;
  logger: Logger;
}

/** The card metadata a worker advertises (the manager's listAgents reads it). */
export function workerMeta(scope: ScopeInfo, knowledge: ScopeKnowledge, executor: Executor): Record<string, unknown> {
  const stats = knowledge.stats();
  return {
    scope: scope.name,
    scope_paths: [...scope.paths],
    overlays: [...stats.overlays],
    index_revision: stats.revision,
    protocol_versions: [...PROTOCOL_VERSIONS],
    documents: stats.documents,
    symbols: stats.symbols,
    files: stats.files,
    ...(stats.lines !== undefined ? { lines: stats.lines } : {}),
    similarity: stats.similarity,
    executor: executor.name,
  };
}

function searchOf(knowledge: ScopeKnowledge): NonNullable<ScopeKnowledge["search"]> {
  if (!knowledge.search) throw Object.assign(new Error("this worker's knowledge source has no call graph (an external ask tool)"), { code: "INVALID_TASK" });
  return knowledge.search;
}

/** Schema violations of the search ops come back as INVALID_TASK with the field at fault. */
function searchArgs<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ProtocolSchemaError) throw Object.assign(new Error(error.message), { code: "INVALID_TASK" });
    throw error;
  }
}

export { TASK_REPLY_RETENTION_MS };
const ackArgsSchema = z.object({ message_ids: z.array(z.string().min(1).max(64)).max(1_000) });

/** Register the worker's ops on a node (call before node.start(), then publish the meta). */
export function serveWorker(parts: WorkerParts): void {
  const { node, scope, knowledge, executor, logger } = parts;
  const log = logger.child({ component: "agents:worker", scope: scope.name });
  // A task's reply is kept until the manager acknowledges it (or TASK_REPLY_RETENTION_MS passes): a
  // manager that restarts resumes its journal under the same message ids and gets it without a second run.
  node.handle(
    "task",
    (args: unknown, ctx: RequestContext) => handleTask(args, { source: knowledge, executor, scope, workerId: node.id, logger: log }, { deadline: ctx.deadline, signal: ctx.signal }),
    { retainReplyMs: TASK_REPLY_RETENTION_MS },
  );
  node.handle("ack", (args: unknown, ctx: RequestContext) => {
    const parsed = ackArgsSchema.safeParse(args);
    if (!parsed.success) throw Object.assign(new Error(`invalid ack arguments: ${parsed.error.issues[0]?.message ?? "?"}`), { code: "INVALID_TASK" });
    return { forgotten: parsed.data.message_ids.filter((id) => node.forgetReply(ctx.from, id)).length };
  });
  node.handle("ask", async (args: unknown, ctx: RequestContext) => {
    const parsed = askArgsSchema.safeParse(args);
    if (!parsed.success) throw Object.assign(new Error(`invalid ask arguments: ${parsed.error.issues[0]?.message ?? "?"}`), { code: "INVALID_TASK" });
    const { question, overlays, top_k: topK } = parsed.data;
    return encodeAskResult(await knowledge.ask(question, { ...(overlays ? { overlays } : {}), topK: topK ?? DEFAULT_ASK_TOP_K, signal: ctx.signal }));
  });
  node.handle("references", () => knowledge.facts());
  node.handle("entry", (args: unknown) => {
    const search = searchOf(knowledge);
    const parsed = searchArgs(() => parseEntryArgs(args));
    return search.entry(parsed.question, parsed.top_k);
  });
  node.handle("expand", (args: unknown) => searchOf(knowledge).expand(searchArgs(() => parseExpandArgs(args))));
  // Several expansions in one request, answered in order, one after another (they share the question's caches).
  node.handle("expand_batch", async (args: unknown) => {
    const search = searchOf(knowledge);
    const { items } = searchArgs(() => parseExpandBatchArgs(args));
    const results: ExpandResult[] = [];
    for (const item of items) results.push(await search.expand(item));
    return { results };
  });
  node.handle("verify", (args: unknown) => {
    const parsed = verifyArgsSchema.safeParse(args);
    if (!parsed.success) throw Object.assign(new Error(`invalid verify arguments: ${parsed.error.issues[0]?.message ?? "?"}`), { code: "INVALID_TASK" });
    return knowledge.verify(parsed.data.citations);
  });
}
