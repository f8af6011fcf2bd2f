// `mesh join MANAGER --root ROOT [--scope S]…`: run workers for some scopes of a fleet whose manager runs on another host.
import { createLogger } from "../../logging.js";
import { fleetJoin } from "../../fleet/join.js";
import { logLevelOf, optionalPositiveInt, parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh join MANAGER_ENDPOINT#KEY --root ROOT [--scope S]... [--listen ENDPOINT] [--advertise ENDPOINT] [--json]

Run workers on this host for scopes of a fleet whose manager runs elsewhere (\`mesh up ROOT --listen …\`
prints this command with the manager's endpoint and public key). ROOT must hold the same code at the
same revision as on the manager's host (the index revision in each worker's card shows a mismatch); the
split into scopes is made the same way (ROOT/mesh-scopes.json, --scopes FILE, or the automatic split).
The workers index their scopes here, join the mesh through the manager and talk only to it.

This host has its own CURVE key pair, created on first use: on the manager's host admit it with
\`mesh keys add NAME KEY --fleet ROOT\` (join says so, with the key, when it is not admitted yet). Run
join again to restart what died or whose index changed; \`mesh down ROOT\` here stops these workers.

Options:
  --root DIR            the code base (required)
  --scope NAME          a scope to run here (repeatable; default: every scope)
  --scopes FILE         the scopes file, when the manager's host used one outside ROOT
  --replicas N          workers per scope (default 1)
  --listen ENDPOINT     where the workers listen (default tcp://0.0.0.0:*, each its own port)
  --advertise ENDPOINT  what they publish, when the manager must dial another address
                        (tcp://HOST:* publishes HOST with each worker's port)
  --exec CMD            run tasks with this agent command (as mesh up --exec)
  --json                print the joined workers as JSON
  --log-level LEVEL     (default warn)
  -h, --help            show this help`;

const OPTIONS = { root: { type: "string" }, scope: { type: "string", multiple: true }, scopes: { type: "string" }, replicas: { type: "string" }, "target-lines": { type: "string" }, listen: { type: "string" }, advertise: { type: "string" }, exec: { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const manager = positionals[0];
  if (!manager || !values.root) throw new CliError("give the manager's endpoint and --root ROOT", EXIT.usage, "for example: mesh join tcp://hosta:7000#KEY --root ~/src/linux --scope mm");
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const result = await fleetJoin({
    manager,
    root: values.root,
    scopes: values.scope ?? [],
    scopesFile: values.scopes,
    targetLines: optionalPositiveInt("target-lines", values["target-lines"]),
    replicas: positiveInt("replicas", values.replicas, 1),
    listen: values.listen,
    advertise: values.advertise,
    exec: values.exec,
    logger,
    quiet: values.json === true,
  });
  if (values.json) {
    printJson({ dir: result.dir, public_key: result.publicKey, ...result.join });
    return EXIT.ok;
  }
  process.stdout.write(`${result.join.workers.length} worker(s) joined the fleet at ${manager.split("#")[0]}: ${result.join.workers.map((w) => `${w.id} (${w.endpoint})`).join(", ")}\n`);
  process.stdout.write(`next: mesh agents on the manager's host · mesh down ${result.join.root} here to stop them\n`);
  return EXIT.ok;
}
