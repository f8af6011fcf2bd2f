// `mesh web`: a local web view of the running fleet (src/web/server.ts), on loopback, behind a token.
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { createLogger } from "../../logging.js";
import { FleetLink } from "../../fleet/fleet-link.js";
import { stopOnSignals } from "../../shutdown.js";
import { WebServer } from "../../web/server.js";
import { logLevelOf, parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh web [--fleet ROOT] [--port N] [--host HOST] [--open] [--json]

Serve a live view of the running fleet (the only one, or the one of --fleet ROOT): the scope graph with
each scope's health, the agents, an ask box that draws each answer's path on the graph and lists its
traced chain, and the answers asked by anyone (CLI, MCP) as they come. Prints the URL to open; it holds
a random access token, and no request without that token gets anything. Ctrl-C stops it.

Options:
  --fleet ROOT    the fleet's code root, when several fleets run
  --port N        port to listen on (default: a free one)
  --host HOST     address to bind (default 127.0.0.1; another address exposes the fleet to that network)
  --open          open the URL in the default browser (xdg-open / open)
  --json          print {"url", "port"} as one JSON line instead of text
  --log-level LEVEL (default warn)
  -h, --help      show this help`;

const OPTIONS = { fleet: { type: "string" }, port: { type: "string" }, host: { type: "string" }, open: { type: "boolean" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const port = values.port === "0" ? 0 : positiveInt("port", values.port, 0);
  if (port > 65_535) throw new CliError(`--port must be at most 65535 (got ${port})`, EXIT.usage);
  const host = values.host ?? "127.0.0.1";
  const link = new FleetLink(values.fleet, logger);
  const token = randomBytes(24).toString("hex");
  const web = new WebServer({ link, token, logger });
  let bound: { port: number };
  try {
    bound = await web.listen(host, port);
  } catch (error) {
    throw new CliError(`cannot listen on ${host}:${port}: ${(error as Error).message}`, EXIT.unavailable, "choose another --port");
  }
  const shown = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shown}:${bound.port}/?token=${token}`;
  if (values.json) printJson({ url, port: bound.port });
  else process.stdout.write(`mesh web: ${url}\n(open it in a browser; Ctrl-C stops the server)\n`);
  if (values.open) {
    const opener = process.platform === "darwin" ? "open" : "xdg-open";
    spawn(opener, [url], { stdio: "ignore", detached: true }).on("error", () => logger.warn(`could not run ${opener}; open the URL by hand`)).unref();
  }
  await stopOnSignals(async () => {
    await web.close();
    await link.close();
  }, logger);
  return EXIT.ok;
}
