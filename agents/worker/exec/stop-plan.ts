// When to stop a command so that its caller still answers before the deadline: SIGTERM first,
// SIGKILL after a grace period, both ahead of the deadline by a reply margin.

/** Time between SIGTERM and SIGKILL for an agent's process group. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** The process group is gone this long before the task's deadline, so the worker can still reply. */
export const DEFAULT_REPLY_MARGIN_MS = 500;
/** Largest share of a short budget given to the grace period, so a short deadline still leaves work time. */
export const MAX_GRACE_SHARE = 0.2;
/** Largest share of a short budget kept as reply margin. */
export const MAX_MARGIN_SHARE = 0.1;

export interface StopPlan {
  /** Epoch ms: SIGTERM to the process group. */
  readonly termAt: number;
  /** SIGKILL follows SIGTERM after this long. */
  readonly killGraceMs: number;
  /** Epoch ms: SIGKILL; the caller has its result by then. */
  readonly killAt: number;
}

export interface StopBudget {
  killGraceMs: number;
  replyMarginMs: number;
}

/** The stop times for work starting `now` that must be over by `deadline`; undefined when no time is left. */
export function planStop(now: number, deadline: number, budget: StopBudget): StopPlan | undefined {
  const available = deadline - now;
  if (!(available > 0)) return undefined;
  const margin = Math.min(budget.replyMarginMs, Math.floor(available * MAX_MARGIN_SHARE));
  const grace = Math.min(budget.killGraceMs, Math.floor(available * MAX_GRACE_SHARE));
  const killAt = deadline - margin;
  return Object.freeze({ termAt: killAt - grace, killGraceMs: grace, killAt });
}
