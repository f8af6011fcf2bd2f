// Scope ACLs of a secured fleet: which client keys may ask, delegate or run plans on which scopes. One
// file (mesh-policy.json beside mesh-scopes.json), checked by the manager for every client request and by
// each worker again for requests sent to it directly. The fleet's own key may do everything; a key with no
// grant may do nothing. The file is read again when it changes; a broken edit keeps the last good policy.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { z } from "zod";
import { Z85_KEY } from "../../bus/index.js";

export const POLICY_FILE = "mesh-policy.json";
export const POLICY_OPS = ["ask", "delegate", "delegate_plan"] as const;
export type PolicyOp = (typeof POLICY_OPS)[number];

const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A scope name, or a pattern where `*` stands for any run of characters ("drivers*", "*"). */
const SCOPE_PATTERN = /^[A-Za-z0-9*][A-Za-z0-9._*/-]{0,63}$/;

const grantSchema = z
  .object({
    /** A key of the fleet's keyring, by the name of its file (`keyring/NAME.pub`). */
    client: z.string().regex(KEY_NAME, "client: the name of a key in the keyring (NAME of NAME.pub)").optional(),
    /** A public key (40 Z85 characters). */
    key: z.string().regex(Z85_KEY, "key: a CURVE public key, 40 Z85 characters").optional(),
    ops: z.array(z.enum(POLICY_OPS)).min(1),
    scopes: z.array(z.string().regex(SCOPE_PATTERN, "scopes: scope names, or patterns with *")).min(1).max(1_000),
  })
  .strict()
  .refine((g) => (g.client === undefined) !== (g.key === undefined), "a grant names a client or a key (one of the two)");

export const policySchema = z.object({ version: z.literal(1), grants: z.array(grantSchema).max(10_000) }).strict();
export type PolicyDocument = z.infer<typeof policySchema>;

export class PolicyError extends Error {
  override readonly name = "PolicyError";
}

/** Parses a policy document, with the file and the field at fault in the message. */
export function parsePolicy(text: string, file: string): PolicyDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new PolicyError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = policySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PolicyError(`${file}: ${issue?.path.length ? `${issue.path.join(".")}: ` : ""}${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

function patternMatches(pattern: string, scope: string): boolean {
  if (!pattern.includes("*")) return pattern === scope;
  const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.\\/+?^${}()|[\]-]/g, "\\$&")).join(".*")}$`);
  return re.test(scope);
}

export interface AccessPolicyOptions {
  /** The policy file; absent or missing: the default policy (the node's own key only). */
  file?: string | undefined;
  /** The key that may do everything: the fleet's own (every process of a fleet holds it). */
  ownKey: string;
  /** Where `client` names resolve: the keyring directory. */
  keyringDir?: string | undefined;
  logger: Logger;
}

export interface Decision {
  allowed: boolean;
  /** Why, in words: shown in the NACK and the audit line. */
  reason: string;
}

export class AccessPolicy {
  private document: PolicyDocument = { version: 1, grants: [] };
  private stamp = "";
  private failedStamp = "";

  constructor(private readonly options: AccessPolicyOptions) {
    // A broken policy at start is an error the operator sees at once, not a fleet that refuses everyone.
    if (options.file && existsSync(options.file)) {
      this.document = parsePolicy(readFileSync(options.file, "utf8"), options.file);
      this.stamp = this.stampOf(options.file);
    }
  }

  private stampOf(file: string): string {
    try {
      const s = statSync(file);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      return "";
    }
  }

  /** Reads the file again if it changed since; a broken edit keeps the last good policy (logged once). */
  private refresh(): void {
    const file = this.options.file;
    if (!file) return;
    const stamp = this.stampOf(file);
    if (stamp === this.stamp || stamp === this.failedStamp) return;
    if (stamp === "") {
      this.document = { version: 1, grants: [] };
      this.stamp = "";
      this.options.logger.warn({ file }, "the access policy file is gone: only the fleet's own key is granted");
      return;
    }
    try {
      this.document = parsePolicy(readFileSync(file, "utf8"), file);
      this.stamp = stamp;
      this.options.logger.info({ file, grants: this.document.grants.length }, "access policy reloaded");
    } catch (error) {
      this.failedStamp = stamp;
      this.options.logger.error({ file, err: error }, "the access policy file is invalid: the last good policy stays in force");
    }
  }

  private keyOf(name: string): string | undefined {
    if (!this.options.keyringDir) return undefined;
    try {
      const key = readFileSync(join(this.options.keyringDir, `${name}.pub`), "utf8").trim();
      return Z85_KEY.test(key) ? key : undefined;
    } catch {
      return undefined;
    }
  }

  /** The grants that apply to a key. */
  private grantsOf(principal: string): PolicyDocument["grants"] {
    this.refresh();
    return this.document.grants.filter((g) => (g.key !== undefined ? g.key === principal : this.keyOf(g.client as string) === principal));
  }

  /** May `principal` do `op` on `scope`? (`grants`: the key's grants when the caller already read them.) */
  check(principal: string | undefined, op: PolicyOp, scope: string, grants?: PolicyDocument["grants"]): Decision {
    if (principal === this.options.ownKey) return { allowed: true, reason: "the fleet's own key" };
    if (principal === undefined) return { allowed: false, reason: `${op} on scope "${scope}" needs a key the policy knows (the request proved none)` };
    const grant = (grants ?? this.grantsOf(principal)).find((g) => g.ops.includes(op) && g.scopes.some((p) => patternMatches(p, scope)));
    return grant
      ? { allowed: true, reason: `granted ${op} on ${grant.scopes.join(", ")}` }
      : { allowed: false, reason: `key ${principal.slice(0, 8)}… may not ${op} on scope "${scope}" (${this.options.file ?? POLICY_FILE})` };
  }

  /** The scopes among `scopes` where `principal` may do `op`. */
  scopesFor(principal: string | undefined, op: PolicyOp, scopes: readonly string[]): string[] {
    // The file and the keyring are looked at once for the whole list, not once per scope.
    const grants = principal === undefined || principal === this.options.ownKey ? [] : this.grantsOf(principal);
    return scopes.filter((scope) => this.check(principal, op, scope, grants).allowed);
  }

  /** Does the key hold any grant at all (read-only ops need one)? */
  knows(principal: string | undefined): boolean {
    return principal === this.options.ownKey || (principal !== undefined && this.grantsOf(principal).length > 0);
  }
}
