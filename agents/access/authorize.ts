// The access policy applied to requests, before any handler runs: the manager's for its clients, a
// worker's for requests sent to it directly. A refusal becomes a NACK `unauthorized` naming the op and
// the scope, and an audit line (docs/MANAGER.md, "Access policy").
import type { Authorizer, AuthorizeRequest } from "../../bus/index.js";
import type { AccessPolicy, PolicyOp } from "./policy.js";

/** Ops of the bus itself: any admitted key may use them. */
const BUS_OPS = new Set(["ping", "peers"]);

export interface Refusal {
  op: string;
  scope: string | null;
  principal: string | undefined;
  reason: string;
}

function field(args: unknown, name: string): unknown {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

function text(args: unknown, name: string): string | undefined {
  const value = field(args, name);
  return typeof value === "string" ? value : undefined;
}

function refuse(onRefused: (r: Refusal) => void, request: AuthorizeRequest, scope: string | null, reason: string): string {
  onRefused({ op: request.op, scope, principal: request.principal, reason });
  return `${request.op}${scope ? ` on scope "${scope}"` : ""}: ${reason}`;
}

/** Checks `op` on each scope; the first refused one refuses the request. */
function checkScopes(policy: AccessPolicy, request: AuthorizeRequest, op: PolicyOp, scopes: readonly string[], onRefused: (r: Refusal) => void): string | undefined {
  for (const scope of scopes) {
    const decision = policy.check(request.principal, op, scope);
    if (!decision.allowed) return refuse(onRefused, request, scope, decision.reason);
  }
  return undefined;
}

/**
 * The manager's authorizer. `ask` needs the ask grant on its `from` and `to` when given, and on at least
 * one scope (the search then sees only the granted ones); `delegate` the delegate grant on its scope, or
 * delegate_plan when it is a plan's step; `authorize` checks an op on a list of scopes up front (a plan is
 * checked whole before any step runs); the read-only ops need any grant.
 */
export function managerAuthorizer(policy: AccessPolicy, scopes: () => readonly string[], onRefused: (r: Refusal) => void): Authorizer {
  return (request) => {
    if (BUS_OPS.has(request.op)) return undefined;
    const { args } = request;
    switch (request.op) {
      case "ask": {
        const named = [text(args, "from"), text(args, "to")].filter((s): s is string => s !== undefined);
        const refused = checkScopes(policy, request, "ask", named, onRefused);
        if (refused) return refused;
        if (named.length === 0 && policy.scopesFor(request.principal, "ask", scopes()).length === 0) return refuse(onRefused, request, null, "this key may not ask on any scope");
        return undefined;
      }
      case "delegate": {
        const scope = text(args, "scope") ?? "";
        return checkScopes(policy, request, field(args, "plan") === undefined ? "delegate" : "delegate_plan", [scope], onRefused);
      }
      case "skipped_step":
        return checkScopes(policy, request, "delegate_plan", [text(args, "scope") ?? ""], onRefused);
      case "authorize": {
        const op = text(args, "op");
        const listed = field(args, "scopes");
        if ((op !== "ask" && op !== "delegate" && op !== "delegate_plan") || !Array.isArray(listed)) return undefined; // the handler says what is wrong
        return checkScopes(policy, request, op, listed.map(String), onRefused);
      }
      default:
        return policy.knows(request.principal) ? undefined : refuse(onRefused, request, null, "this key holds no grant in the access policy");
    }
  };
}

/** The ops of a worker, as the policy names them: its search and evidence ops are asking, a task is delegating. */
const WORKER_OPS: Record<string, PolicyOp> = { task: "delegate", ask: "ask", entry: "ask", expand: "ask", expand_batch: "ask", references: "ask", verify: "ask" };

/** A worker's authorizer: the fleet's key (its manager) may do everything; another key what the policy grants on this scope. */
export function workerAuthorizer(policy: AccessPolicy, scope: string, onRefused: (r: Refusal) => void): Authorizer {
  return (request) => {
    if (BUS_OPS.has(request.op)) return undefined;
    const op = WORKER_OPS[request.op];
    if (!op) return policy.knows(request.principal) ? undefined : refuse(onRefused, request, scope, "this key holds no grant in the access policy");
    return checkScopes(policy, request, op, [scope], onRefused);
  };
}
