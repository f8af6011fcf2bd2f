// `mesh mcp`: the running fleet as an MCP server, for coding agents. Tools (each with an input and an output
// schema, and a text rendering): list_agents, topology, ask, ask_scope, delegate, delegate_plan, trace. Resources: the
// topology (Mermaid), the agent list, and an audit record by id. Errors are tool errors that carry our code
// and say what to do; long calls report progress and honour cancellation (a cancelled delegate sends
// CANCEL on the bus, and the manager cancels the task on its worker).
import { newQuestionId } from "../../agents/manager/question-id.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentInfo } from "../../agents/manager/agents-directory.js";
import type { MultiHopResult } from "../../agents/manager/answer/result.js";
import { recheckCitations } from "../../agents/manager/recheck.js";
import { GROUNDING_STRATEGIES, OVERLAY_IDS } from "../../agents/protocol/index.js";
import { parseGraphJson, renderGraph } from "../../topology/index.js";
import { buildTask, delegateTask, liveScopes, UnknownScopeError } from "../delegation.js";
import { delegatePlan } from "../plans/index.js";
import { PlanSchema } from "../plans/plan.js";
import { formatResult } from "../multi-hop-report.js";
import type { FleetLink } from "../fleet/fleet-link.js";
import { guarded, progress, type CallContext } from "./tool-errors.js";
import { agentRows, agentShape, agentsText, answerOutput, answerShape, citationShape } from "./tool-shapes.js";

export const SERVER_NAME = "lattice-mesh";

/** An answer's audit record, from the manager (which writes it behind the answer and flushes before it looks). */
async function findRecord(link: FleetLink, id: string): Promise<{ record: MultiHopResult; root: string }> {
  const { fleet } = await link.fleet();
  const record = (await link.request("trace", { id })) as Record<string, unknown> | null;
  if (!record) throw Object.assign(new Error(`no answer "${id}" in the audit log of the fleet for ${fleet.root}`), { code: "not_found", hint: "ids are returned by ask and ask_scope" });
  return { record: record as unknown as MultiHopResult, root: fleet.root };
}

export function createMcpServer(link: FleetLink, version: string): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version }, { capabilities: { logging: {} } });

  server.registerTool(
    "list_agents",
    {
      title: "List the fleet's agents",
      description: "Every worker agent of the running fleet: its scope (the part of the code base it owns), id, state, load and index revision.",
      outputSchema: { root: z.string(), agents: z.array(agentShape) },
      annotations: { readOnlyHint: true },
    },
    async () =>
      guarded(async () => {
        const { fleet } = await link.fleet();
        const agents = (await link.request("agents", {})) as AgentInfo[];
        return { content: [{ type: "text", text: agentsText(agents) }], structuredContent: { root: fleet.root, agents: agentRows(agents) } };
      }),
  );

  server.registerTool(
    "topology",
    {
      title: "The scope graph",
      description: "The fleet's scopes and which calls or includes which (an edge A → B: code in A uses code owned by B), discovered from the code.",
      inputSchema: { format: z.enum(["text", "mermaid", "json"]).default("text").describe("text, mermaid, or json (the graph as data)") },
      outputSchema: { format: z.string(), rendering: z.string(), scopes: z.array(z.string()), edges: z.array(z.object({ from: z.string(), to: z.string(), weight: z.number() })) },
      annotations: { readOnlyHint: true },
    },
    async ({ format }) =>
      guarded(async () => {
        const { graph } = (await link.request("topology", {})) as { graph: unknown };
        const parsed = parseGraphJson(graph);
        const rendering = renderGraph(parsed, format).trimEnd();
        const structured = { format, rendering, scopes: parsed.nodes().map((s) => s.name), edges: parsed.edges().map((e) => ({ from: e.from, to: e.to, weight: e.weight })) };
        return { content: [{ type: "text", text: rendering }], structuredContent: structured };
      }),
  );

  const askInput = {
    question: z.string().min(1).max(4000).describe('a question about the code, e.g. "How does the e1000 driver allocate DMA buffers?" or "Who calls kmalloc?"'),
    from: z.string().optional().describe("start in this scope"),
    to: z.string().optional().describe("end in this scope (only exits along the topology's route to it are followed)"),
    max_hops: z.number().int().min(1).max(32).optional().describe("most scopes the answer may go through (default 6)"),
  };
  const ask = async (args: { question: string; from?: string; to?: string; max_hops?: number }, context: CallContext): Promise<CallToolResult> =>
    guarded(async () => {
      await progress(context, 0, 1, "asking the fleet");
      // Under an id drawn here: if the manager dies mid-question, its successor is asked again under it.
      const named = { ...args, id: newQuestionId() };
      const result = (await link.request("ask", named, { signal: context.signal, recover: { op: "ask", args: named } })) as MultiHopResult;
      await progress(context, 1, 1, `answered: ${result.outcome ?? "done"}`);
      return { content: [{ type: "text", text: formatResult(result) }], structuredContent: answerOutput(result) };
    });

  server.registerTool(
    "ask",
    {
      title: "Ask the fleet",
      description:
        "A question that may cross scopes, answered as a traced path through the code: each step a function that calls the next, with the call line quoted, every cited line re-hashed against the code; or 'no chain found' with low confidence. Who-calls questions list the callers.",
      inputSchema: askInput,
      outputSchema: answerShape,
      annotations: { readOnlyHint: true },
    },
    async (args, context) => ask(args, context as unknown as CallContext),
  );

  server.registerTool(
    "ask_scope",
    {
      title: "Ask one scope",
      description: "A question answered inside one scope only: its best starting function and the calls it makes there, checked like any answer.",
      inputSchema: { scope: z.string().describe("the scope, as list_agents names it"), question: askInput.question },
      outputSchema: answerShape,
      annotations: { readOnlyHint: true },
    },
    async ({ scope, question }, context) => ask({ question, from: scope, max_hops: 1 }, context as unknown as CallContext),
  );

  server.registerTool(
    "delegate",
    {
      title: "Delegate a task to a scope",
      description:
        "One DelegatedTask to a scope's worker through the manager (least-loaded replica, fail-over), its evidence validated before it is accepted. Writes the task's CDP workspace (HANDOFF.md, OUTPUT.md) and a MANIFEST.jsonl line.",
      inputSchema: {
        scope: z.string().describe("the scope, as list_agents names it"),
        task: z.string().min(1).max(20_000).describe("what to do"),
        criteria: z.array(z.string()).optional().describe("acceptance criteria the answer must meet"),
        strategy: z.enum(GROUNDING_STRATEGIES).optional().describe("grounding strategy (default pgc_cite: evidence required)"),
        overlays: z.array(z.enum(OVERLAY_IDS)).optional().describe("overlay hints"),
        critical: z.boolean().optional().describe("validate every citation; low confidence is rejected"),
      },
      outputSchema: {
        task_id: z.string(),
        agent: z.string(),
        status: z.string(),
        verdict: z.object({ status: z.string(), code: z.string().optional(), reasons: z.array(z.string()), warnings: z.array(z.string()) }),
        result: z.string(),
        key_findings: z.array(z.string()),
        citations: z.array(citationShape),
        workspace: z.string(),
      },
    },
    async ({ scope, task, criteria, strategy, overlays, critical }, extra) =>
      guarded(async () => {
        const context = extra as unknown as CallContext;
        const { dir, fleet } = await link.fleet();
        const delegated = buildTask({ task, ...(criteria ? { criteria } : {}), ...(strategy ? { strategy } : {}), ...(overlays ? { overlays } : {}), ...(critical ? { critical } : {}) });
        await progress(context, 0, 1, `delegating ${delegated.id} to ${scope}`);
        const agents = (await link.request("agents", {})) as AgentInfo[];
        const outcome = await delegateTask(dir, fleet, liveScopes(fleet, agents), scope, delegated, (args) => link.request("delegate", args, { signal: context.signal, recover: { op: "delegation", args: { task_id: delegated.id } } }));
        await progress(context, 1, 1, `${outcome.response.status}, verdict ${outcome.verdict.status}`);
        const { response, verdict } = outcome;
        const structured = {
          task_id: delegated.id,
          agent: outcome.agent,
          status: response.status,
          verdict: { status: verdict.status, ...(verdict.code ? { code: verdict.code } : {}), reasons: verdict.reasons, warnings: verdict.warnings },
          result: response.result,
          key_findings: response.key_findings ?? [],
          citations: (response.grounding_evidence?.citations ?? []).map(({ file_path, line_start, line_end, sha256 }) => ({ file_path, line_start, line_end, sha256 })),
          workspace: outcome.workspace,
        };
        const rejected = verdict.status === "rejected" ? `\n[${verdict.code ?? "rejected"}] the manager rejected the answer's evidence: ${verdict.reasons.join("; ") || "see verdict"} — narrow the task to what the scope holds, or delegate it again` : "";
        const text = `${delegated.id} → ${outcome.agent}: ${response.status}, verdict ${verdict.status}${verdict.code ? ` (${verdict.code})` : ""}\n${response.result}\nworkspace: ${outcome.workspace}${rejected}`;
        return { content: [{ type: "text", text }], structuredContent: structured, ...(verdict.status === "rejected" ? { isError: true } : {}) };
      }),
  );

  const stepShape = z.object({
    id: z.string(),
    scope: z.string(),
    task_id: z.string(),
    status: z.enum(["waiting", "running", "completed", "failed", "blocked", "cancelled"]),
    agent: z.string().nullable(),
    verdict: z.object({ status: z.string(), code: z.string().optional(), reasons: z.array(z.string()), warnings: z.array(z.string()) }).nullable(),
    key_findings: z.array(z.string()),
    citations: z.array(citationShape),
    workspace: z.string().nullable(),
    reason: z.string().nullable(),
    handed: z.array(z.string()).describe("the steps whose key findings this step was handed"),
  });
  server.registerTool(
    "delegate_plan",
    {
      title: "Run a delegation plan",
      description:
        "Several tasks for the fleet's scopes, some depending on others, run as one plan: checked whole first (unknown scopes, dependency cycles: nothing runs), then parallel, sequential, pipeline or fan-out-fan-in as its complexity and dependency count choose (or as it names). Each step gets only the key findings of the steps it follows; a failed step blocks its dependents. Progress per step; cancelling cancels the running steps on their workers.",
      inputSchema: PlanSchema.shape,
      outputSchema: {
        id: z.string(),
        status: z.enum(["completed", "partial", "blocked"]),
        strategy: z.object({ mode: z.string(), complexity: z.number(), model_hint: z.string(), auto_calculated: z.boolean(), reason: z.string() }),
        steps: z.array(stepShape),
        aggregate: z.object({ summary: z.string(), citations: z.array(citationShape) }).nullable(),
      },
    },
    async (plan, extra) =>
      guarded(async () => {
        const context = extra as unknown as CallContext;
        const { dir, fleet } = await link.fleet();
        const agents = (await link.request("agents", {})) as AgentInfo[];
        const total = plan.tasks.length;
        const result = await delegatePlan({ dir, fleet, scopes: liveScopes(fleet, agents), request: (op, args, signal, recover) => link.request(op, args, { ...(signal ? { signal } : {}), ...(recover ? { recover } : {}) }) }, plan, {
          signal: context.signal,
          onProgress: (counts, event) => void progress(context, counts.completed + counts.failed + counts.blocked + counts.cancelled, total, event),
        });
        const lines = [`plan ${result.id}: ${result.status} — ${result.strategy.mode} (${result.strategy.reason})`, ...result.steps.map((s) => `${s.id} [${s.scope}] ${s.status}${s.reason ? ` — ${s.reason}` : ""}`)];
        if (result.aggregate) lines.push(`fan-in:\n${result.aggregate.summary}`);
        return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: result as unknown as Record<string, unknown>, ...(result.status === "completed" ? {} : { isError: result.status === "blocked" }) };
      }),
  );

  server.registerTool(
    "trace",
    {
      title: "Replay an answer",
      description: "The audit record of an answer by its id: path, chain, decisions, citations and verdicts; with verify, every citation re-hashed against the code as it is now.",
      inputSchema: { id: z.string().min(1).describe("the id ask returned (a unique prefix is enough)"), verify: z.boolean().optional().describe("re-check every citation against the files now") },
      outputSchema: { ...answerShape, recheck: z.object({ matching: z.number(), checked: z.number(), changed: z.array(z.string()) }).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ id, verify }) =>
      guarded(async () => {
        const { record, root } = await findRecord(link, id);
        const structured: Record<string, unknown> = answerOutput(record);
        let text = formatResult(record);
        if (verify) {
          const report = recheckCitations(record, root);
          const changed = report.citations.filter((c) => c.outcome !== "match").map((c) => `${c.file_path}:${c.line_start}-${c.line_end} (${c.outcome})`);
          structured["recheck"] = { matching: report.matching, checked: report.citations.length, changed };
          text += `\n${report.matching} of ${report.citations.length} citation(s) still match the code${changed.length > 0 ? `; changed: ${changed.join(", ")}` : ""}`;
        }
        return { content: [{ type: "text", text }], structuredContent: structured };
      }),
  );

  server.registerResource("topology", "mesh://topology", { title: "Scope graph (Mermaid)", description: "The fleet's scope graph as a Mermaid flowchart", mimeType: "text/plain" }, async (uri) => {
    const { graph } = (await link.request("topology", {})) as { graph: unknown };
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text: renderGraph(parseGraphJson(graph), "mermaid") }] };
  });
  server.registerResource("agents", "mesh://agents", { title: "Agents", description: "The fleet's worker agents (JSON)", mimeType: "application/json" }, async (uri) => {
    const agents = (await link.request("agents", {})) as AgentInfo[];
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(agentRows(agents), null, 2) }] };
  });
  server.registerResource(
    "audit-record",
    new ResourceTemplate("mesh://audit/{id}", { list: undefined }),
    { title: "An answer's audit record", description: "The stored record of one answer, by the id ask returned (JSON)", mimeType: "application/json" },
    async (uri, variables) => {
      const id = String(Array.isArray(variables["id"]) ? variables["id"][0] : variables["id"]);
      const { record } = await findRecord(link, id);
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(record, null, 2) }] };
    },
  );
  return server;
}

export { UnknownScopeError };
