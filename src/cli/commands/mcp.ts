// `mesh mcp`: serve the running fleet to MCP clients (coding agents), over stdio or Streamable HTTP.
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createLogger } from "../../logging.js";
import { FleetLink } from "../../fleet/fleet-link.js";
import { createMcpServer } from "../../mcp/server.js";
import { logLevelOf, parse } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh mcp [--fleet ROOT] [--http HOST:PORT]

Serve the running fleet (the only one, or the one of --fleet ROOT) to MCP clients such as coding agents.
By default over stdio: the client starts \`mesh mcp\` itself. Tools: list_agents, topology, ask, ask_scope,
delegate, delegate_plan, trace; resources: mesh://topology, mesh://agents, mesh://audit/{id}. The fleet is looked up
again on every call, so the server may start before the fleet or outlive a restart.

With --http the server listens for the Streamable HTTP transport on HOST:PORT (loopback unless you say
otherwise; PORT 0 picks a free one) at /mcp, and every request must carry \`Authorization: Bearer TOKEN\`;
the token is generated into mcp-token in the fleet directory (mode 0600) and printed on stderr with the URL.

Options:
  --fleet ROOT        the fleet's code root, when several fleets run
  --http HOST:PORT    serve Streamable HTTP instead of stdio
  --log-level LEVEL   logs go to stderr (default warn)
  -h, --help          show this help`;

const VERSION = "0.1.0";
export const TOKEN_FILE = "mcp-token";

function hostPort(value: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match) throw new CliError(`--http wants HOST:PORT, got "${value}"`, EXIT.usage, "for example: --http 127.0.0.1:7331");
  return { host: (match[1] || "127.0.0.1").replace(/^\[|\]$/g, ""), port: Number(match[2]) };
}

/** The fleet directory's bearer token, created (0600) on first use and kept across restarts. */
function bearerToken(fleetDir: string): string {
  const file = join(fleetDir, TOKEN_FILE);
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim();
    if (token.length >= 32) return token;
  }
  const token = randomBytes(32).toString("hex");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

function authorized(req: IncomingMessage, token: string): boolean {
  const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

async function serveHttp(link: FleetLink, address: { host: string; port: number }, fleetDir: string): Promise<void> {
  const token = bearerToken(fleetDir);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      if (!req.url?.startsWith("/mcp")) return reply(res, 404, "not found: the MCP endpoint is /mcp");
      if (!authorized(req, token)) return reply(res, 401, `unauthorized: send Authorization: Bearer <the token in ${join(fleetDir, TOKEN_FILE)}>`);
      const sessionId = req.headers["mcp-session-id"];
      const body = req.method === "POST" ? await readJson(req).catch(() => null) : undefined;
      let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (req.method !== "POST" || !isInitializeRequest(body)) return reply(res, 400, "no session: start with an initialize request");
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await createMcpServer(link, VERSION).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, (error as Error).message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(address.port, address.host, resolve);
  });
  const bound = http.address();
  const port = typeof bound === "object" && bound ? bound.port : address.port;
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  process.stderr.write(`mesh mcp: Streamable HTTP on http://${host}:${port}/mcp (bearer token in ${join(fleetDir, TOKEN_FILE)})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      for (const transport of sessions.values()) void transport.close();
      http.close(() => resolve());
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { fleet: { type: "string" }, http: { type: "string" } });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  // stdout is the protocol's channel over stdio: every log line goes to stderr.
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const link = new FleetLink(values.fleet, logger);
  try {
    if (values.http) {
      const { dir } = await link.fleet();
      await serveHttp(link, hostPort(values.http), dir);
      return EXIT.ok;
    }
    const server = createMcpServer(link, VERSION);
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
    });
    await server.connect(transport);
    await closed;
    await server.close();
    return EXIT.ok;
  } finally {
    await link.close();
  }
}
