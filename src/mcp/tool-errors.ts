// How a tool call fails and reports progress: our errors become MCP tool errors that carry our code and
// say what to do; a long call reports progress through the token its client sent.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CliError } from "../cli/exit-codes.js";

/** The tool-call context the SDK hands a callback: cancellation, and a way to report progress. */
export interface CallContext {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>;
}

/** A failure as an MCP tool error: our code, what happened, and what to do about it. */
export function toolError(error: unknown): CallToolResult {
  const e = error as Error & { code?: string; hint?: string };
  const code = error instanceof CliError ? cliCode(error) : (e.code ?? "failed");
  const hint = e.hint ?? hintFor(code);
  return { isError: true, content: [{ type: "text", text: `[${code}] ${e.message}${hint ? ` — ${hint}` : ""}` }] };
}

function cliCode(error: CliError): string {
  if (/no fleet is running|lost its manager|no manager/.test(error.message)) return "no_fleet";
  if (/fleets are running/.test(error.message)) return "several_fleets";
  return "failed";
}

function hintFor(code: string): string | undefined {
  switch (code) {
    case "unknown_scope":
      return "call list_agents for the fleet's scopes";
    case "hop_limit":
      return "raise max_hops, or ask from a scope nearer the target";
    case "no_path":
      return "the topology has no route between those scopes; call topology, or drop `to`";
    case "timeout":
      return "the fleet did not answer in time; it may be busy or still indexing — call list_agents";
    case "invalid_plan":
    case "duplicate_id":
    case "unknown_dependency":
    case "dependency_cycle":
      return "nothing ran; fix the plan and call delegate_plan again";
    case "DELEGATION_DEPTH_EXCEEDED":
      return "nothing ran; at that depth, do the work inline (seed 004)";
    case "unauthorized":
      return "the fleet's access policy (mesh-policy.json) does not grant this key that op on that scope, or its keyring does not admit the key; see `mesh keys list`";
    case "cancelled":
      return "the call was cancelled; the task was cancelled on its worker";
    default:
      return undefined;
  }
}

export async function progress(context: CallContext, step: number, total: number, message: string): Promise<void> {
  const token = context._meta?.progressToken;
  if (token === undefined) return;
  await context.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: step, total, message } }).catch(() => undefined);
}

/** Runs a tool body; any failure becomes a tool error, never a dropped connection. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error);
  }
}
