// One question's expansions, asked once: the starts traced side by side, the exits looked into at each hop
// and the exits looked through often ask a scope the same thing (the same function, followed with the same
// coverage), and a worker's answer to the same arguments is the same. The first request is sent; the others
// share its answer, unless the wire's guards would have refused them (their trail already visits the agent
// that answered, or is past its hop budget): those are sent as they are, so the worker says why.
import type { ExpandArgs } from "../../protocol/index.js";
import type { TraceDeps, Trail } from "./trace-chain.js";

type Expand = TraceDeps["expand"];
type Answered = Awaited<ReturnType<Expand>>;

/** The arguments a worker's answer depends on, as one string: the question is the same for every request of one search. */
export function expandKey(scope: string, args: ExpandArgs): string {
  const covered = Object.entries(args.covered).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const from = Object.entries(args.from).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([scope, args.mode, from, covered, args.max_depth ?? null]);
}

/** Whether the responder's guards (bus/responder.ts) let a request with this trail reach `agent`. */
function passesGuards(trail: Trail, agent: string): boolean {
  return trail.hops <= trail.maxHops && !trail.path.includes(agent);
}

/** What an expansion was asked for: a start's own paths, an exit's callee (a look-ahead, or the hop it leads to), or a function's callers. */
export type ExpansionKind = "starts" | "callees" | "callers";

export function expansionKind(args: ExpandArgs): ExpansionKind {
  return args.mode === "callers" ? "callers" : args.from.called === true ? "callees" : "starts";
}

export interface ExpandMemo {
  expand: Expand;
  /** Requests sent to workers, requests answered by an earlier one's answer, and all asked by kind. */
  readonly stats: { sent: number; shared: number; kinds: Record<ExpansionKind, number> };
}

/** `expand`, asking each (scope, arguments) of one question once. A failed request is not remembered. */
export function memoizeExpand(expand: Expand): ExpandMemo {
  const known = new Map<string, Promise<Answered>>();
  const stats = { sent: 0, shared: 0, kinds: { starts: 0, callees: 0, callers: 0 } };
  const send = (scope: string, args: ExpandArgs, trail: Trail): Promise<Answered> => {
    stats.sent++;
    return expand(scope, args, trail);
  };
  return {
    stats,
    expand: (scope, args, trail) => {
      stats.kinds[expansionKind(args)]++;
      const key = expandKey(scope, args);
      const earlier = known.get(key);
      if (earlier) {
        return earlier.then(
          (answered) => {
            if (!passesGuards(trail, answered.agent)) return send(scope, args, trail);
            stats.shared++;
            return { ...answered, failovers: 0 };
          },
          () => send(scope, args, trail),
        );
      }
      const answered = send(scope, args, trail);
      known.set(key, answered);
      answered.catch(() => {
        if (known.get(key) === answered) known.delete(key);
      });
      return answered;
    },
  };
}
