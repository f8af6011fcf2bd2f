// The browser side of `mesh web`: the scope graph (Cytoscape.js, force-directed layout), the agents
// table, the ask box with the traced chain, and the feed of answers, kept live by Server-Sent Events.
// Bundled by scripts/build-bundle.mjs into dist/web/app.js; typed against the DOM (tsconfig.json here).
import type { AuditEntry, CitedLines } from "../types.js";
import { ScopeGraphView, topSymbols, type Health, type Topology } from "./graph.js";
import type { Agent, Agents, Answer, ChainStep, FeedItem } from "./shapes.js";


const token = new URLSearchParams(location.search).get("token") ?? "";
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, { ...init, headers: { ...(init.headers ?? {}), authorization: `Bearer ${token}`, "content-type": "application/json" } });
  const body = (await res.json()) as T & { error?: { code: string; message: string } };
  if (!res.ok) throw Object.assign(new Error(body.error?.message ?? `HTTP ${res.status}`), { code: body.error?.code ?? String(res.status) });
  return body;
}

const state = { agents: [] as Agent[], topology: null as Topology | null, answer: null as Answer | null, feed: [] as FeedItem[], asking: null as string | null, lastAsked: null as string | null, live: [] as string[], laidOut: false };
const graph = new ScopeGraphView($("cy"), $("tooltip"), (scope) => showScope(scope));
const cy = graph.cy;
// For tests and for poking at the page from the console.
(window as unknown as { meshView: unknown }).meshView = { cy, state };

function healthOf(scope: string): Health {
  const mine = state.agents.filter((a) => a.scope === scope);
  const alive = mine.filter((a) => a.state === "alive").length;
  if (mine.length > 0 && alive === mine.length) return "healthy";
  return alive > 0 ? "degraded" : "down";
}

const paintHealth = () => graph.paintHealth(healthOf);

function renderTopology(topology: Topology): void {
  state.topology = topology;
  state.laidOut = false;
  // Sized by lines of code: what the scope's workers count, else what the graph says.
  const counted = new Map<string, number>();
  for (const a of state.agents) counted.set(a.scope, Math.max(counted.get(a.scope) ?? 0, a.lines || a.documents * 20));
  graph.render(topology, counted, () => (state.laidOut = true));
  paintHealth();
}

function cell(text: string, className = ""): HTMLTableCellElement {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function age(ms: number | null): string {
  if (ms === null) return "-";
  return ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)}m`;
}

function renderAgents(agents: Agents): void {
  state.agents = agents.agents;
  $("root").textContent = agents.root;
  const body = $("agents").querySelector("tbody") as HTMLTableSectionElement;
  body.replaceChildren(
    ...[...agents.agents]
      .sort((a, b) => a.scope.localeCompare(b.scope) || a.id.localeCompare(b.id))
      .map((a) => {
        const tr = document.createElement("tr");
        tr.dataset["agent"] = a.id;
        const host = a.host || (/^tcp:\/\/([^:]+):/.exec(a.endpoint)?.[1] ?? a.endpoint);
        tr.append(cell(a.scope), cell(a.id), cell(host), cell(a.state, `state-${a.state}`), cell(String(a.load)), cell(a.index_revision), cell(age(a.uptime_hint_ms)));
        return tr;
      }),
  );
  paintHealth();
}

function showScope(name: string): void {
  const mine = state.agents.filter((a) => a.scope === name);
  const first = mine[0];
  const edges = state.topology?.graph.edges.filter((e) => e.from === name || e.to === name) ?? [];
  const detail = $("scope-detail");
  detail.className = "";
  detail.replaceChildren();
  const line = (text: string) => {
    const div = document.createElement("div");
    div.textContent = text;
    detail.append(div);
  };
  line(`${name}: ${mine.length} agent(s), ${mine.filter((a) => a.state === "alive").length} alive`);
  if (first) {
    line(`files: ${first.scope_paths.join(", ") || "(the whole root)"}`);
    line(`index ${first.index_revision} · ${first.lines} lines · ${first.documents} documents · ${first.symbols} symbols`);
    const used = state.topology ? topSymbols(state.topology, name) : [];
    if (used.length > 0) line(`most used by other scopes: ${used.join(", ")}`);
  }
  for (const a of mine) line(`  ${a.id} ${a.state} load ${a.load}`);
  line(`uses: ${edges.filter((e) => e.from === name).map((e) => e.to).join(", ") || "-"}; used by: ${edges.filter((e) => e.to === name).map((e) => e.from).join(", ") || "-"}`);
}

function pathOf(answer: Answer): string[] {
  const scopes = (answer.chain ?? []).map((s) => s.scope);
  const ordered = scopes.filter((s, i) => s !== scopes[i - 1]);
  return ordered.length > 0 ? ordered : (answer.query_path ?? []);
}

function renderAnswer(answer: Answer): void {
  state.answer = answer;
  $("answer-error").textContent = "";
  const chain = answer.chain ?? [];
  $("answer-meta").textContent = `${answer.id}: ${answer.outcome ?? ""}${answer.confidence ? `, confidence ${answer.confidence}` : ""} — ${chain.length} step(s)${answer.question ? ` — “${answer.question}”` : ""}`;
  $("chain").replaceChildren(
    ...chain.map((step, i) => {
      const li = document.createElement("li");
      li.dataset["scope"] = step.scope;
      li.addEventListener("click", () => void showCitation(step));
      const prev = chain[i - 1];
      const head = prev && step.call_site ? (step.call_site.defines ? `${prev.symbol} defines ` : `${prev.symbol} (${step.call_site.file_path}:${step.call_site.line}) → `) : "";
      li.append(document.createTextNode(`${head}${step.symbol} (${step.file_path}:${step.line_start}-${step.line_end}) [${step.scope}]`));
      if (step.call_site?.text) {
        const quote = document.createElement("span");
        quote.className = "quote";
        quote.textContent = step.call_site.text.trim();
        li.append(quote);
      }
      const bound = step.call_site?.bound_at;
      if (bound) li.append(Object.assign(document.createElement("span"), { className: "quote", textContent: `through ${bound.field}, set at ${bound.file_path}:${bound.line}: ${bound.text.trim()}` }));
      return li;
    }),
  );
  if (chain.length === 0 && answer.answer) {
    const li = document.createElement("li");
    li.textContent = answer.answer.slice(0, 600);
    $("chain").append(li);
  }
  graph.drawPath(pathOf(answer));
}

/** A step's cited lines, read from the fleet's root now and re-hashed: still what the answer cited? */
async function showCitation(step: Pick<ChainStep, "file_path" | "line_start" | "line_end" | "sha256">): Promise<void> {
  const query = new URLSearchParams({ file: step.file_path, start: String(step.line_start), end: String(step.line_end), sha256: step.sha256 });
  try {
    const cited = await api<CitedLines>(`/api/cite?${query.toString()}`);
    const head = $("cite-head");
    head.className = cited.outcome;
    head.textContent = `${cited.file_path}:${cited.line_start}-${cited.line_end} — ${cited.outcome === "match" ? "✓" : "✗"} ${cited.detail}`;
    const width = String(cited.line_end).length;
    $("cite-lines").textContent = cited.lines.map((l) => `${String(l.n).padStart(width)}  ${l.text}`).join("\n");
  } catch (error) {
    showError(error);
  }
}

/** The audit requests made so far: only the latest one's answer is drawn (an earlier one may arrive after it). */
let auditRequests = 0;

async function loadAudit(): Promise<void> {
  const request = ++auditRequests;
  const query = new URLSearchParams();
  const scope = ($("audit-scope") as HTMLSelectElement).value;
  const verdict = ($("audit-verdict") as HTMLSelectElement).value;
  const since = ($("audit-since") as HTMLInputElement).value;
  if (scope) query.set("scope", scope);
  if (verdict) query.set("verdict", verdict);
  if (since) query.set("since", since);
  const entries = await api<AuditEntry[]>(`/api/audit?${query.toString()}`);
  if (request !== auditRequests) return;
  const body = $("audit").querySelector("tbody") as HTMLTableSectionElement;
  // The filter the rows answer, for whoever reads the table (the page's tests wait for it).
  body.dataset["query"] = query.toString();
  body.replaceChildren(
    ...entries.map((e) => {
      const tr = document.createElement("tr");
      tr.dataset["kind"] = e.kind;
      tr.dataset["id"] = e.id;
      tr.append(cell(e.at.replace("T", " ").slice(0, 19)), cell(e.kind), cell(e.scopes.join(", ")), cell(e.verdict), cell(`${e.title}${e.detail ? ` — ${e.detail}` : ""}`));
      if (e.kind === "answer") tr.addEventListener("click", () => void api<Answer>(`/api/trace/${encodeURIComponent(e.id)}`).then(renderAnswer, showError));
      return tr;
    }),
  );
}

function fillScopeFilter(): void {
  const select = $("audit-scope") as HTMLSelectElement;
  const chosen = select.value;
  select.replaceChildren(new Option("any scope", ""), ...(state.topology?.graph.scopes ?? []).map((s) => new Option(s.name, s.name)));
  select.value = chosen;
}

function addFeed(item: FeedItem): void {
  if (state.feed.some((f) => f.id === item.id)) return;
  state.feed.push(item);
  const li = document.createElement("li");
  li.dataset["id"] = item.id;
  li.textContent = `${item.question} — ${item.outcome}, ${item.steps} step(s) across ${item.scopes.join(" → ") || "-"}`;
  li.addEventListener("click", () => void api<Answer>(`/api/trace/${encodeURIComponent(item.id)}`).then(renderAnswer, showError));
  $("feed").prepend(li);
}

function showError(error: unknown): void {
  const e = error as Error & { code?: string };
  $("answer-error").textContent = `[${e.code ?? "failed"}] ${e.message}`;
}

function setStatus(text: string, down = false): void {
  const status = $("status");
  status.textContent = text;
  status.className = down ? "down" : "";
}

$("audit-form").addEventListener("submit", (event) => {
  event.preventDefault();
  void loadAudit().catch(showError);
});

$("ask-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const question = ($("question") as HTMLInputElement).value.trim();
  if (!question) return;
  const button = $("ask-button") as HTMLButtonElement;
  button.disabled = true;
  $("answer-meta").textContent = "asking…";
  cy.elements().removeClass("on-path");
  // The page names the answer, so it can draw the hops the manager reports before the answer is back.
  const id = `q-web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  state.asking = id;
  state.lastAsked = id;
  state.live = [];
  api<Answer>("/api/ask", { method: "POST", body: JSON.stringify({ question, id }) })
    .then(renderAnswer, showError)
    .finally(() => {
      state.asking = null;
      button.disabled = false;
    });
});

async function start(): Promise<void> {
  // Agents first: the graph sizes and colours scopes from them. A fleet still starting answers later.
  for (;;) {
    try {
      renderAgents(await api<Agents>("/api/agents"));
      renderTopology(await api<Topology>("/api/topology"));
      setStatus(`${state.agents.length} agent(s), ${state.topology?.graph.scopes.length ?? 0} scope(s)`);
      break;
    } catch (error) {
      setStatus(`waiting for the fleet: ${(error as Error).message}`, true);
      await new Promise((resolve) => window.setTimeout(resolve, 1000));
    }
  }
  for (const item of await api<FeedItem[]>("/api/feed")) addFeed(item);
  fillScopeFilter();
  await loadAudit().catch(showError);
  const events = new EventSource(`/events?token=${encodeURIComponent(token)}`);
  events.addEventListener("agents", (event) => {
    renderAgents(JSON.parse((event as MessageEvent<string>).data) as Agents);
    setStatus(`${state.agents.length} agent(s), ${state.topology?.graph.scopes.length ?? 0} scope(s)`);
  });
  events.addEventListener("answer", (event) => {
    addFeed(JSON.parse((event as MessageEvent<string>).data) as FeedItem);
    void loadAudit().catch(showError);
  });
  events.addEventListener("hop", (event) => {
    const hop = JSON.parse((event as MessageEvent<string>).data) as { trace: string; hop: number; scope: string; symbols: string[] };
    if (hop.trace !== state.lastAsked) return;
    const prev = state.live.at(-1);
    state.live.push(hop.scope);
    if (hop.trace !== state.asking) return; // the answer is already drawn
    graph.highlight(prev, hop.scope);
    $("answer-meta").textContent = `asking… hop ${hop.hop}: ${hop.scope}${hop.symbols.length > 0 ? ` (${hop.symbols.join(" → ")})` : ""}`;
  });
  events.addEventListener("fleet", (event) => setStatus(`fleet unreachable: ${(JSON.parse((event as MessageEvent<string>).data) as { message: string }).message}`, true));
  events.onerror = () => setStatus("connection to mesh web lost; retrying…", true);
}

void start();
