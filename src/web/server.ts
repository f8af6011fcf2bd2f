// `mesh web`: a local web view of a running fleet — its topology, its agents, an ask box, and every
// answer's path — served by Node's own http module. Every request must carry the access token (in the
// URL the command prints, or as a bearer token); nothing is served without it, not even the page.
// The browser code is bundled at build time (dist/web/app.js, see scripts/build-bundle.mjs): no CDN.
import { timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, statSync, openSync, readSync, closeSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { AUDIT_FILE, LIVE_FILE } from "../../agents/manager/audit-log.js";
import type { FleetManifest } from "../fleet/fleet-dir.js";
import type { FleetRequestOptions } from "../fleet/fleet-link.js";
import { PAGE_HTML } from "./page.js";
import { auditEntries, citedLines, SourceReader } from "./audit-view.js";

/** dist/web/app.js, found from dist/src/web/ and from the CLI bundle in dist/bundle/cli/ alike. */
export const APP_BUNDLE = fileURLToPath(new URL("../../web/app.js", import.meta.url));
/** How often the server looks at the fleet for changes it pushes to open pages (agents, new answers). */
export const WEB_POLL_MS = 1_000;
/** Past answers a page gets on load, newest last. */
export const FEED_SIZE = 50;
const MAX_BODY_BYTES = 64 * 1024;
const ASK_TIMEOUT_MS = 120_000;
/** While a question asked here runs, its hops are looked for this often (a traced answer takes ~100 ms). */
export const LIVE_POLL_MS = 25;
/** An answer id a page may choose, the manager's own shape: q-… */
const ANSWER_ID = /^q-[A-Za-z0-9][A-Za-z0-9-]{7,63}$/;

/** What the server needs of a fleet: a FleetLink (src/fleet/fleet-link.ts) is one. */
export interface FleetAccess {
  fleet(): Promise<{ dir: string; fleet: FleetManifest }>;
  request(op: string, args: unknown, options?: FleetRequestOptions): Promise<unknown>;
}

export interface WebServerOptions {
  link: FleetAccess;
  token: string;
  logger: Logger;
  pollMs?: number;
}

function tokenOf(req: IncomingMessage, url: URL): string {
  return url.searchParams.get("token") ?? /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** An error as JSON: our code (a CLI error, a NACK, a remote error), what happened, what to do. */
function sendError(res: ServerResponse, error: unknown): void {
  const e = error as Error & { code?: unknown; hint?: unknown; exitCode?: number };
  const code = typeof e.code === "string" ? e.code : e.name === "CliError" ? "no_fleet" : "failed";
  const status = code === "unauthorized" ? 403 : code === "no_fleet" || e.exitCode === 69 ? 503 : code === "timeout" ? 504 : 502;
  sendJson(res, status, { error: { code, message: e.message, ...(typeof e.hint === "string" ? { hint: e.hint } : {}) } });
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error(`the request body exceeds ${MAX_BODY_BYTES} bytes`), { code: "too_large" });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw Object.assign(new Error("the request body is not JSON"), { code: "bad_request" });
  }
}

/** The audit records (answers) appended to a fleet's audit.jsonl since `offset`, and the new offset. */
export function readAuditSince(auditFile: string, offset: number): { records: Record<string, unknown>[]; offset: number } {
  if (!existsSync(auditFile)) return { records: [], offset: 0 };
  const size = statSync(auditFile).size;
  if (size < offset) offset = 0; // the file was replaced
  if (size === offset) return { records: [], offset };
  const fd = openSync(auditFile, "r");
  try {
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    const text = buffer.toString("utf8");
    const complete = text.lastIndexOf("\n") + 1; // a line still being written waits for the next poll
    const records: Record<string, unknown>[] = [];
    for (const line of text.slice(0, complete).split("\n")) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // a torn line from a crash: skipped
      }
    }
    return { records, offset: offset + Buffer.byteLength(text.slice(0, complete)) };
  } finally {
    closeSync(fd);
  }
}

/** What a page's feed shows of an answer: enough to list it and draw its path; the rest comes by id. */
export function feedItem(record: Record<string, unknown>): Record<string, unknown> | null {
  if (record["kind"] !== "multi_hop") return null;
  const chain = Array.isArray(record["chain"]) ? (record["chain"] as { scope?: unknown; symbol?: unknown }[]) : [];
  return {
    id: record["id"],
    question: record["question"],
    outcome: record["outcome"],
    confidence: record["confidence"],
    query_path: record["query_path"],
    scopes: [...new Set(chain.map((s) => s.scope).filter((s): s is string => typeof s === "string"))],
    steps: chain.length,
    recorded_at: record["recorded_at"],
  };
}

interface Client {
  res: ServerResponse;
}

export class WebServer {
  readonly server: Server;
  private readonly clients = new Set<Client>();
  private timer: NodeJS.Timeout | null = null;
  private lastAgents = "";
  private auditOffset = 0;
  private auditFile: string | null = null;
  private feed: Record<string, unknown>[] = [];
  private reader: { root: string; reader: SourceReader } | null = null;

  constructor(private readonly options: WebServerOptions) {
    this.server = createServer((req, res) => void this.route(req, res));
  }

  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address();
    const bound = typeof address === "object" && address ? address.port : port;
    this.timer = setInterval(() => void this.poll(), this.options.pollMs ?? WEB_POLL_MS);
    void this.poll();
    return { host, port: bound };
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections?.();
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (!same(tokenOf(req, url), this.options.token)) {
      send(res, 401, "text/plain; charset=utf-8", "401: this page needs the access token of `mesh web` (the URL it printed)\n");
      return;
    }
    try {
      if (req.method === "GET" && url.pathname === "/") return send(res, 200, "text/html; charset=utf-8", PAGE_HTML.replace("__TOKEN__", encodeURIComponent(this.options.token)));
      if (req.method === "GET" && url.pathname === "/app.js") {
        if (!existsSync(APP_BUNDLE)) return send(res, 500, "text/plain; charset=utf-8", "the web app is not built: run `npm run build`\n");
        return send(res, 200, "text/javascript; charset=utf-8", readFileSync(APP_BUNDLE));
      }
      if (req.method === "GET" && url.pathname === "/api/topology") return sendJson(res, 200, await this.options.link.request("topology", {}));
      if (req.method === "GET" && url.pathname === "/api/agents") return sendJson(res, 200, await this.fleetAgents());
      if (req.method === "GET" && url.pathname === "/api/feed") return sendJson(res, 200, this.feed);
      if (req.method === "GET" && url.pathname.startsWith("/api/trace/")) {
        const id = decodeURIComponent(url.pathname.slice("/api/trace/".length));
        const record = await this.options.link.request("trace", { id });
        return record ? sendJson(res, 200, record) : sendJson(res, 404, { error: { code: "not_found", message: `no answer "${id}" in the audit log` } });
      }
      if (req.method === "GET" && url.pathname === "/api/audit") {
        const { dir } = await this.options.link.fleet();
        const param = (name: string) => url.searchParams.get(name) || undefined;
        const limit = Number(url.searchParams.get("limit") ?? "") || undefined;
        return sendJson(res, 200, auditEntries(join(dir, "audit"), { scope: param("scope"), verdict: param("verdict"), since: param("since"), limit }));
      }
      if (req.method === "GET" && url.pathname === "/api/cite") {
        const { fleet } = await this.options.link.fleet();
        const [file = "", start = "", end = "", sha256 = ""] = ["file", "start", "end", "sha256"].map((k) => url.searchParams.get(k) ?? "");
        if (!file || !/^[0-9a-f]{64}$/.test(sha256) || !(Number(start) >= 1) || !(Number(end) >= Number(start))) {
          return sendJson(res, 400, { error: { code: "bad_request", message: "give file, start, end (1 ≤ start ≤ end) and sha256 (64 hex digits)" } });
        }
        return sendJson(res, 200, citedLines(this.readerFor(fleet.root), { file_path: file, line_start: Number(start), line_end: Number(end), sha256 }));
      }
      if (req.method === "POST" && url.pathname === "/api/ask") {
        const body = (await readBody(req)) as { question?: unknown; from?: unknown; to?: unknown; id?: unknown };
        if (typeof body.question !== "string" || body.question.trim() === "") return sendJson(res, 400, { error: { code: "bad_request", message: "give a question" } });
        if (body.id !== undefined && (typeof body.id !== "string" || !ANSWER_ID.test(body.id))) return sendJson(res, 400, { error: { code: "bad_request", message: "an answer id is q- and 8 to 64 letters, digits or dashes" } });
        const args = { question: body.question, ...(typeof body.from === "string" && body.from ? { from: body.from } : {}), ...(typeof body.to === "string" && body.to ? { to: body.to } : {}), ...(typeof body.id === "string" ? { id: body.id } : {}) };
        const stop = typeof body.id === "string" ? await this.followLive(body.id) : () => undefined;
        let answer: unknown;
        try {
          answer = await this.options.link.request("ask", args, { timeoutMs: ASK_TIMEOUT_MS });
        } finally {
          stop(); // the last hops go out before the answer does
        }
        return sendJson(res, 200, answer);
      }
      if (req.method === "GET" && url.pathname === "/events") return this.openEvents(res);
      sendJson(res, 404, { error: { code: "not_found", message: `no ${req.method} ${url.pathname}` } });
    } catch (error) {
      const e = error as { code?: unknown };
      if (e.code === "bad_request" || e.code === "too_large") return sendJson(res, 400, { error: { code: e.code, message: (error as Error).message } });
      this.options.logger.warn({ err: error, path: url.pathname }, "web request failed");
      sendError(res, error);
    }
  }

  /** Pushes the hops of answer `id` to open pages as the manager records them, until stopped. */
  private async followLive(id: string): Promise<() => void> {
    const { dir } = await this.options.link.fleet();
    const file = join(dir, "audit", LIVE_FILE);
    let offset = existsSync(file) ? statSync(file).size : 0;
    const look = () => {
      const read = readAuditSince(file, offset);
      offset = read.offset;
      for (const event of read.records) if (event["trace"] === id) this.push("hop", event);
    };
    const timer = setInterval(look, LIVE_POLL_MS);
    return () => {
      clearInterval(timer);
      look(); // the last hops, written just before the answer came back
    };
  }

  private readerFor(root: string): SourceReader {
    if (this.reader?.root !== root) this.reader = { root, reader: new SourceReader(root) };
    return this.reader.reader;
  }

  private async fleetAgents(): Promise<{ root: string; agents: unknown[]; workers: unknown[] }> {
    const { fleet } = await this.options.link.fleet();
    const agents = (await this.options.link.request("agents", {})) as unknown[];
    return { root: fleet.root, agents, workers: fleet.workers.map((w) => ({ id: w.id, scope: w.scope, pid: w.pid })) };
  }

  private openEvents(res: ServerResponse): void {
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive" });
    res.write(": connected\n\n");
    const client = { res };
    this.clients.add(client);
    res.on("close", () => this.clients.delete(client));
  }

  private push(event: string, data: unknown): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of this.clients) client.res.write(frame);
  }

  /** One look at the fleet: a changed agent list and new answers go to every open page. */
  private async poll(): Promise<void> {
    try {
      const { dir } = await this.options.link.fleet();
      const auditFile = join(dir, "audit", AUDIT_FILE);
      if (auditFile !== this.auditFile) {
        this.auditFile = auditFile;
        this.auditOffset = 0;
        this.feed = [];
      }
      const { records, offset } = readAuditSince(auditFile, this.auditOffset);
      this.auditOffset = offset;
      const items = records.map(feedItem).filter((r): r is Record<string, unknown> => r !== null);
      if (items.length > 0) {
        this.feed = [...this.feed, ...items].slice(-FEED_SIZE);
        for (const item of items) this.push("answer", item);
      }
      const agents = await this.fleetAgents();
      const text = JSON.stringify(agents);
      if (text !== this.lastAgents) {
        this.lastAgents = text;
        this.push("agents", agents);
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, "web poll: the fleet did not answer");
      if (this.lastAgents !== "down") {
        this.lastAgents = "down";
        this.push("fleet", { state: "unreachable", message: (error as Error).message });
      }
    }
  }
}
