// Delegation depth and chain (seed 004): who may delegate further, and what the sub-task carries.
import { DelegationCycleError, DelegationDepthError } from "./errors.js";
import { MAX_DELEGATION_DEPTH } from "./limits.js";
import type { DelegatedTask } from "./task.js";

type DelegationFields = Pick<DelegatedTask, "delegation_depth" | "delegation_chain">;

/** The receiving agent's depth; an absent field means the primary agent (0). */
export function delegationDepthOf(task: DelegationFields): number {
  return task.delegation_depth ?? 0;
}

/** True when the receiver of `task` may delegate part of it onwards. */
export function canDelegate(task: DelegationFields): boolean {
  return delegationDepthOf(task) < MAX_DELEGATION_DEPTH;
}

/**
 * The delegation fields for a sub-task that agent `selfId`, having received `task`, sends onwards.
 * Throws DelegationDepthError at the depth limit and DelegationCycleError if `selfId` is already in the chain.
 */
export function nextDelegation(task: DelegationFields, selfId: string): Required<DelegationFields> {
  const depth = delegationDepthOf(task);
  if (depth >= MAX_DELEGATION_DEPTH) throw new DelegationDepthError(depth, MAX_DELEGATION_DEPTH);
  const chain = task.delegation_chain ?? [];
  if (chain.includes(selfId)) throw new DelegationCycleError(selfId, chain);
  return { delegation_depth: depth + 1, delegation_chain: [...chain, selfId] };
}

/** The seed 004 preamble that tells a delegated agent where it stands in the chain. */
export function delegationPreamble(task: DelegationFields): string {
  const depth = delegationDepthOf(task);
  const chain = task.delegation_chain ?? [];
  return [
    "[AI-TO-AI DELEGATION]",
    `From: ${chain.at(-1) ?? "human"}`,
    `Chain: ${["human", ...chain, "you"].join(" -> ")}`,
    `Max-Depth: ${MAX_DELEGATION_DEPTH} | Your-Depth: ${depth} | Can-Spawn: ${canDelegate(task) ? "YES" : "NO"}`,
  ].join("\n");
}
