// `mesh up [ROOT]`: launch (or refresh) a fleet over a code base.
import { createLogger } from "../../logging.js";
import { fleetUp } from "../../fleet/up.js";
import { joinCommand } from "../../fleet/join.js";
import { DEFAULT_TARGET_LINES, MIN_AUTO_TARGET_LINES } from "../../fleet/decompose.js";
import { logLevelOf, optionalPositiveInt, parse, positiveInt, printJson } from "../args.js";
import { EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh up [ROOT] [--scopes FILE] [--replicas N] [--target-lines N] [--exec CMD] [--listen ENDPOINT [--advertise ENDPOINT]] [--json]

Launch a fleet over the code base at ROOT (default: the current directory): split it into scopes (from
--scopes FILE, from ROOT/mesh-scopes.json, or automatically as \`mesh scopes\` proposes: packages kept
whole, none over an eighth of the code), build each scope's index (cached: only changed files are
re-parsed), start one worker process per scope (× --replicas) and a manager, detached, and wait until
every worker is routable. The manager runs under \`mesh supervise\`, which restarts it with backoff
when it dies; it resumes the delegations it had accepted. Run \`mesh up\` again to restart only what
died or whose index changed. Logs, audit records and the fleet manifest live under $MESH_HOME (default
~/.local/state/lattice-mesh).

With --exec, every worker runs its tasks with that agent command on a CDP workspace (HANDOFF.md in,
OUTPUT.md out; docs/EXECUTORS.md has recipes) instead of the built-in extractive executor; a scope of the
scopes file may name its own ("exec": "…"). Changing a scope's command restarts its workers.

Options:
  --scopes FILE        a scopes file ({"scopes":[{"name","paths":[…],"exec"?}]}; see \`mesh scopes\`)
  --replicas N         workers per scope (default 1)
  --target-lines N     largest scope of the automatic split (default: an eighth of the code,
                       ${MIN_AUTO_TARGET_LINES}–${DEFAULT_TARGET_LINES} lines)
  --exec CMD           run every worker's tasks with this agent command (split on spaces; the
                       workspace path is appended)
  --listen ENDPOINT    where the manager listens, for workers on other hosts (mesh join), e.g.
                       tcp://0.0.0.0:7000 (default tcp://127.0.0.1:*, this host only); a fixed port
                       keeps the address when the supervisor restarts the manager
  --advertise ENDPOINT the manager's address as other hosts dial it (tcp://hosta.example:7000)
  --json               print the fleet manifest as JSON
  --log-level LEVEL    (default warn)
  -h, --help           show this help`;

const OPTIONS = { scopes: { type: "string" }, replicas: { type: "string" }, "target-lines": { type: "string" }, exec: { type: "string" }, listen: { type: "string" }, advertise: { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const result = await fleetUp({
    root: positionals[0] ?? process.cwd(),
    scopesFile: values.scopes,
    replicas: positiveInt("replicas", values.replicas, 1),
    targetLines: optionalPositiveInt("target-lines", values["target-lines"]),
    exec: values.exec,
    listen: values.listen,
    advertise: values.advertise,
    logger,
    quiet: values.json === true,
  });
  // Other hosts join with the manager's endpoint and the fleet's public key.
  const join = values.listen && result.fleet.manager ? joinCommand(result.fleet.manager.endpoint, result.publicKey, result.fleet.root) : undefined;
  if (values.json) {
    printJson({ dir: result.dir, started: result.started, reused: result.reused, ...result.fleet, public_key: result.publicKey, ...(join ? { join } : {}) });
    return EXIT.ok;
  }
  process.stdout.write(`fleet for ${result.fleet.root} is up: ${result.fleet.workers.length} worker(s) over ${result.fleet.scopes.length} scope(s) and a manager at ${result.fleet.manager?.endpoint}\n`);
  process.stdout.write(`started ${result.started.length ? result.started.join(", ") : "nothing"}; kept ${result.reused.length ? result.reused.join(", ") : "nothing"}\n`);
  if (join) process.stdout.write(`workers on other hosts: ${join}\n`);
  process.stdout.write(`next: mesh agents · mesh topology · mesh ask "QUESTION" · mesh down ${result.fleet.root}\n`);
  return EXIT.ok;
}
