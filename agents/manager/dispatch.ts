// Sending a DelegatedTask to a scope: the least-loaded replica first, fail-over to another replica
// when one dies, is busy or draining; the first valid TaskResponse wins, so a task completes once.
import type { Logger } from "pino";
import { BusError, NackError, type MeshNode, type RequestOptions } from "../../bus/index.js";
import { parseTaskResponse, ProtocolSchemaError, type DelegatedTask, type TaskResponse } from "../protocol/index.js";
import type { AgentInfo, AgentsDirectory } from "./agents-directory.js";

export const DEFAULT_TASK_TIMEOUT_MS = 60_000;

export class NoWorkerError extends Error {
  override readonly name = "NoWorkerError";
  readonly code = "no_route";
  readonly retryable = true;
}

export interface Dispatched {
  response: TaskResponse;
  agent: AgentInfo;
  /** Replicas tried before this one answered, with why each failed. */
  failovers: { agent: string; reason: string }[];
}

export interface DispatchOptions {
  timeoutMs?: number;
  trail?: RequestOptions["trail"];
  traceId?: string;
  /** Replicas not to use (e.g. one whose answer was just rejected). */
  exclude?: ReadonlySet<string>;
  /** Only replicas that pass this test (e.g. speaking protocol 2.0). */
  accept?: (agent: AgentInfo) => boolean;
  /** The caller gave up: the request in flight is cancelled on the bus (a CANCEL to its worker), and no other replica is tried. */
  signal?: AbortSignal;
  /** Send under this message id (a journaled task re-sent after a restart: the worker's reply cache knows it). */
  messageId?: string;
  /** Told which replica a request goes to, before it is sent (the journal records it). */
  onAgent?: (agent: AgentInfo) => void;
  /**
   * Until this time (epoch ms), a scope with no replica at all is waited for rather than refused: a manager
   * that has just started has not yet heard from the workers that will re-join it (Manager, JOIN_GRACE_MS).
   */
  awaitReplicaUntil?: number;
}

/** Failures after which another replica may succeed; anything else is the task's own outcome. */
function isReplicaFailure(error: unknown): boolean {
  if (error instanceof NackError) return error.retryable;
  if (error instanceof BusError) return error.code === "peer_unavailable" || error.code === "busy" || error.code === "node_stopped";
  return false;
}

export async function dispatchTask(node: MeshNode, directory: AgentsDirectory, scope: string, task: DelegatedTask, options: DispatchOptions, logger: Logger): Promise<Dispatched> {
  const { result, agent, failovers } = await dispatchOp(node, directory, scope, "task", task, options, logger);
  return { response: parseTaskResponse(result), agent, failovers };
}

/**
 * Resolves true as soon as `present()` holds (checked at once and whenever a peer joins or changes state),
 * false at `until` or when `signal` aborts. Listeners and timer are removed either way.
 */
export function replicaJoins(node: Pick<MeshNode, "on" | "off">, present: () => boolean, until: number, signal?: AbortSignal): Promise<boolean> {
  if (present()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (found: boolean) => {
      clearTimeout(timer);
      node.off("peer:join", check);
      node.off("peer:state", check);
      signal?.removeEventListener("abort", aborted);
      resolve(found);
    };
    const check = () => {
      if (present()) finish(true);
    };
    const aborted = () => finish(false);
    const timer = setTimeout(() => finish(present()), Math.max(0, until - Date.now()));
    node.on("peer:join", check);
    node.on("peer:state", check);
    signal?.addEventListener("abort", aborted, { once: true });
    if (signal?.aborted) finish(false);
  });
}

/** Any op on one replica of a scope, with the same replica choice and fail-over as a task. */
export async function dispatchOp(
  node: MeshNode,
  directory: AgentsDirectory,
  scope: string,
  op: string,
  args: unknown,
  options: DispatchOptions,
  logger: Logger,
): Promise<{ result: unknown; agent: AgentInfo; failovers: Dispatched["failovers"] }> {
  const tried = new Set(options.exclude ?? []);
  const failovers: Dispatched["failovers"] = [];
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS);
  const acceptable = (a: AgentInfo) => options.accept?.(a) ?? true;
  for (;;) {
    let agent = directory.replicas(scope, tried).find(acceptable);
    // Only before any replica was tried: a scope whose replicas all failed is not waited for again.
    if (!agent && tried.size === (options.exclude?.size ?? 0) && options.awaitReplicaUntil !== undefined) {
      const until = Math.min(options.awaitReplicaUntil, deadline);
      if (Date.now() < until) {
        logger.info({ scope, op, wait_ms: until - Date.now() }, "no replica of the scope yet; waiting for one to join the just-started manager");
        if (await replicaJoins(node, () => directory.replicas(scope, tried).some(acceptable), until, options.signal)) agent = directory.replicas(scope, tried).find(acceptable);
      }
    }
    if (!agent) {
      const detail = failovers.length > 0 ? `; tried ${failovers.map((f) => `${f.agent} (${f.reason})`).join(", ")}` : "";
      throw new NoWorkerError(`no worker of scope "${scope}" can take the ${op === "task" ? "task" : `request ${op}`}${detail}`);
    }
    tried.add(agent.id);
    options.onAgent?.(agent);
    try {
      const result = await directory.track(agent.id, () =>
        node.request(agent.id, op, args, {
          ...(options.messageId ? { messageId: options.messageId } : {}),
          timeoutMs: Math.max(1, deadline - Date.now()),
          ...(options.trail ? { trail: options.trail } : {}),
          ...(options.traceId ? { traceId: options.traceId } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      );
      return { result, agent, failovers };
    } catch (error) {
      if (error instanceof ProtocolSchemaError || options.signal?.aborted) throw error;
      if (!isReplicaFailure(error) || Date.now() >= deadline) throw error;
      const reason = (error as Error).message;
      logger.warn({ scope, worker: agent.id, op, reason }, "replica failed; failing over");
      failovers.push({ agent: agent.id, reason });
    }
  }
}
