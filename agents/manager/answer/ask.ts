// A multi-hop question as the manager answers it: over the scopes the caller may ask, by the call-graph
// search (answer-question.ts) or, with `mode: "planned"`, one delegated task per hop along the route
// (planned-route.ts); each hop's output and the answer go to the audit log.
import type { Logger } from "pino";
import type { MeshNode } from "../../../bus/index.js";
import type { DelegatedTask } from "../../protocol/index.js";
import { DEFAULT_MAX_HOPS } from "../../../topology/index.js";
import type { AgentsDirectory } from "../agents-directory.js";
import type { AuditLog } from "../audit-log.js";
import { crashPoint } from "../crash-points.js";
import { dispatchOp, dispatchTask, type Dispatched } from "../dispatch.js";
import { batchExpands } from "../search/expand-batch.js";
import { ENTRY_TIMEOUT_MS } from "../entry/entry-round.js";
import { restrictOwnership } from "../ownership.js";
import type { ScopeMap } from "../scope-map.js";
import type { HopEvent } from "../search/trace-chain.js";
import type { Verdict } from "../validation/index.js";
import { answerBySearch } from "./answer-question.js";
import { answerPlannedRoute } from "./planned-route.js";
import { MultiHopError, type HopMode, type MultiHopResult } from "./result.js";

export interface AskOptions {
  from?: string;
  to?: string;
  maxHops?: number;
  mode?: HopMode;
  /** The scopes the caller may ask (the access policy); all of them when absent. */
  scopes?: readonly string[];
  /** The answer's id (a live view follows its hops by it). */
  id?: string;
}

export interface AskContext {
  node: MeshNode;
  directory: AgentsDirectory;
  scopeMap: ScopeMap;
  audit: AuditLog;
  logger: Logger;
  /** Reads a file of the code base for re-hashing citations, or null when the manager cannot read the root. */
  readFile: ((path: string) => Promise<string | null>) | null;
  validate: (task: DelegatedTask, dispatched: Dispatched) => Promise<Verdict>;
  /** The code base's names, from its root (project-name.ts); empty when the manager has no root. */
  project?: ReadonlySet<string>;
}

export async function askQuestion(ctx: AskContext, question: string, options: AskOptions & { id: string }): Promise<MultiHopResult> {
  const graph = await ctx.scopeMap.current();
  // A client limited by the access policy: the search sees only the scopes it may ask.
  const scopes = options.scopes ?? ctx.directory.scopes();
  const ownership = options.scopes ? restrictOwnership(ctx.scopeMap, new Set(options.scopes)) : ctx.scopeMap;
  const id = options.id;
  crashPoint("before_answer");
  const maxHops = options.maxHops ?? DEFAULT_MAX_HOPS;
  const onHop = (event: HopEvent) => void ctx.audit.appendLive(id, event);
  const storeHop = (hop: number, output: unknown) => {
    void ctx.audit.writeHopOutput(id, hop, output);
    return ctx.audit.hopRef(id, hop);
  };
  const node = ctx.node;
  let result: MultiHopResult;
  if (options.mode === "planned") {
    if (!options.from || !options.to) throw new MultiHopError("no_path", "a planned route needs both ends: give from and to (--from, --to), or leave out the mode for the traced search");
    result = await answerPlannedRoute(
      {
        managerId: node.id,
        scopes,
        graph,
        ownership,
        dispatch: (scope, task, trail) => dispatchTask(node, ctx.directory, scope, task, { trail, traceId: id }, ctx.logger),
        validate: ctx.validate,
        storeHop,
        onHop,
      },
      { id, question, maxHops, from: options.from, to: options.to },
    );
  } else {
    // Expansions asked of one scope at once go as one request (search/expand-batch.ts).
    const batcher = batchExpands(async (scope, op, args, trail) => {
      const { result: expanded, agent, failovers } = await dispatchOp(node, ctx.directory, scope, op, args, { trail, traceId: id }, ctx.logger);
      return { result: expanded, agent: agent.id, failovers: failovers.length };
    });
    result = await answerBySearch(
      {
        managerId: node.id,
        scopes,
        graph,
        ownership,
        surface: ctx.scopeMap.surface(),
        ...(ctx.project ? { project: ctx.project } : {}),
        askEntry: async (scope, args) => (await dispatchOp(node, ctx.directory, scope, "entry", args, { timeoutMs: ENTRY_TIMEOUT_MS, traceId: id }, ctx.logger)).result,
        expand: batcher.expand,
        hashSources: {
          readFile: ctx.readFile,
          verifyRemote: undefined,
        },
        storeHop,
        onHop,
      },
      { id, question, maxHops, ...(options.from ? { from: options.from } : {}), ...(options.to ? { to: options.to } : {}) },
    );
    if (result.cost) result = { ...result, cost: { ...result.cost, expand_requests: batcher.stats.requests } };
  }
  // Written behind the answer, in order with its hop outputs; `trace` (audit.find) waits for it.
  void ctx.audit.append({ kind: "multi_hop", ...result });
  return result;
}
