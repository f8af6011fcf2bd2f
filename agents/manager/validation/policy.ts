// The validation policy: defaults as named constants, a caller's partial policy checked once at the edge.
import { z } from "zod";

export interface ValidationPolicy {
  /** What a low-confidence answer to a critical task gets: "reject" (default, sent for review) or "warn". */
  lowConfidenceCritical: "reject" | "warn";
  /** Citations verified per response for non-critical tasks (default 2; critical tasks: all). */
  sampleSize: number;
}

/** Seed 002 §5.5: "Manager samples 1-2 citations to verify relevance before accepting". */
export const DEFAULT_SAMPLE_SIZE = 2;

export const DEFAULT_VALIDATION_POLICY: Readonly<ValidationPolicy> = Object.freeze({
  lowConfidenceCritical: "reject",
  sampleSize: DEFAULT_SAMPLE_SIZE,
});

// sampleSize 0 would check nothing, which is the trust this module exists to remove.
const PolicySchema = z.strictObject({
  lowConfidenceCritical: z.enum(["reject", "warn"]),
  sampleSize: z.number().int().min(1),
});

/** A policy option is not one the checklist understands. */
export class ValidationPolicyError extends Error {
  override readonly name = "ValidationPolicyError";
  readonly code = "invalid_policy";
  readonly retryable = false;
}

/** Policies this module built (frozen and checked): resolving one again returns it as it is. */
const resolved = new WeakSet<object>([DEFAULT_VALIDATION_POLICY]);

/**
 * The defaults overlaid with `policy`, frozen; throws ValidationPolicyError on an unknown or bad option.
 * Resolve once where the policy enters (the Manager does at construction): a resolved policy passed again
 * costs nothing, so the checklist can call this on every response.
 */
export function resolvePolicy(policy: Partial<ValidationPolicy> | undefined): Readonly<ValidationPolicy> {
  if (policy === undefined) return DEFAULT_VALIDATION_POLICY;
  if (resolved.has(policy)) return policy as Readonly<ValidationPolicy>;
  // An option given as undefined keeps its default, as if it were left out.
  const given = Object.fromEntries(Object.entries(policy ?? {}).filter(([, value]) => value !== undefined));
  const parsed = PolicySchema.safeParse({ ...DEFAULT_VALIDATION_POLICY, ...given });
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "policy"}: ${issue.message}`).join("; ");
    throw new ValidationPolicyError(`invalid validation policy: ${detail}`, { cause: parsed.error });
  }
  const frozen = Object.freeze(parsed.data);
  resolved.add(frozen);
  return frozen;
}
