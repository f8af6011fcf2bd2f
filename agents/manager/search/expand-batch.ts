// A question asks one scope for several expansions at the same moment — its starts traced side by side,
// the look-aheads of one hop into exits one scope owns — and each request costs both processes more than
// most expansions do (the bus, CURVE, waking the worker on a shared core). Expansions asked of the same
// scope with the same trail before the event loop turns go as one `expand_batch` request (DELEGATION.md
// §13.3); one asked alone goes as `expand`, as does every one of a worker that does not know the batch op.
import { MAX_EXPAND_BATCH, parseExpandBatchResult, type ExpandArgs } from "../../protocol/index.js";
import type { TraceDeps, Trail } from "./trace-chain.js";

type Expand = TraceDeps["expand"];
type Answered = Awaited<ReturnType<Expand>>;

/** One request of `op` to a replica of `scope`, with the trail on the wire (dispatchOp's replica choice and fail-over). */
export type SendExpand = (scope: string, op: "expand" | "expand_batch", args: unknown, trail: Trail) => Promise<Answered>;

interface Waiting {
  args: ExpandArgs;
  resolve: (answered: Answered) => void;
  reject: (error: unknown) => void;
}

interface Group {
  scope: string;
  trail: Trail;
  waiting: Waiting[];
}

export interface ExpandBatcher {
  expand: Expand;
  /** Expansions asked, and requests sent for them. */
  stats: { expansions: number; requests: number };
}

function isUnknownOp(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "unknown_op";
}

export function batchExpands(send: SendExpand): ExpandBatcher {
  const stats = { expansions: 0, requests: 0 };
  let groups = new Map<string, Group>();
  let scheduled = false;
  // Scopes whose worker answered that it has no `expand_batch`: asked one expansion a request from then on.
  const single = new Set<string>();

  const one = (scope: string, trail: Trail, w: Waiting): void => {
    stats.requests++;
    send(scope, "expand", w.args, trail).then(w.resolve, w.reject);
  };

  const many = async (scope: string, trail: Trail, waiting: Waiting[]): Promise<void> => {
    stats.requests++;
    try {
      const answered = await send(scope, "expand_batch", { items: waiting.map((w) => w.args) }, trail);
      const results = parseExpandBatchResult(answered.result, waiting.length);
      waiting.forEach((w, i) => w.resolve({ ...answered, result: results[i] }));
    } catch (error) {
      if (!isUnknownOp(error)) {
        for (const w of waiting) w.reject(error);
        return;
      }
      single.add(scope);
      for (const w of waiting) one(scope, trail, w);
    }
  };

  const flush = (): void => {
    scheduled = false;
    const due = groups;
    groups = new Map();
    for (const { scope, trail, waiting } of due.values()) {
      if (waiting.length === 1 || single.has(scope)) {
        for (const w of waiting) one(scope, trail, w);
        continue;
      }
      for (let at = 0; at < waiting.length; at += MAX_EXPAND_BATCH) {
        const chunk = waiting.slice(at, at + MAX_EXPAND_BATCH);
        if (chunk.length === 1) one(scope, trail, chunk[0] as Waiting);
        else void many(scope, trail, chunk);
      }
    }
  };

  return {
    stats,
    expand: (scope, args, trail) =>
      new Promise<Answered>((resolve, reject) => {
        stats.expansions++;
        // The trail travels on the wire with the request: only expansions with the same one can share it.
        const key = `${scope}\0${trail.path.join("\0")}\0${trail.hops}\0${trail.maxHops}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { scope, trail, waiting: [] }));
        group.waiting.push({ args, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
  };
}
