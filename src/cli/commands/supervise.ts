// `mesh supervise`: run a fleet's manager and restart it when it dies (mesh up starts it so).
import { createLogger } from "../../logging.js";
import { stopOnSignals } from "../../shutdown.js";
import { superviseManager, RESTART_BASE_MS, RESTART_MAX_MS, MAX_FAILED_STARTS, HEALTHY_AFTER_MS } from "../../fleet/supervisor.js";
import { logLevelOf, parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh supervise --fleet-dir DIR -- manager [MANAGER OPTIONS…]

Run \`mesh manager\` with the options after -- and restart it whenever it dies, after ${RESTART_BASE_MS} ms, then
twice as long each time it dies again (at most ${RESTART_MAX_MS / 1000} s; an incarnation that ran ${HEALTHY_AFTER_MS / 1000} s starts the
backoff over). Each new incarnation's pid and endpoint are written into DIR/fleet.json, where clients
waiting on the dead one find it. Prints the first incarnation's {"event":"ready",…} line, then one JSON
line per death and restart. Gives up (exit 1) when ${MAX_FAILED_STARTS} incarnations in a row die before they
are ready. SIGINT/SIGTERM stop the manager, then the supervisor. \`mesh up\` runs one for you.

Options:
  --fleet-dir DIR   the fleet directory (holds fleet.json)
  --log-level LEVEL (default info)
  -h, --help        show this help`;

const OPTIONS = { "fleet-dir": { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const split = argv.indexOf("--");
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const managerArgs = split >= 0 ? argv.slice(split + 1) : [];
  const { values } = parse(own, OPTIONS);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  if (!values["fleet-dir"]) throw new CliError("--fleet-dir DIR is required", EXIT.usage);
  if (managerArgs[0] !== "manager") throw new CliError("give the manager's command after --: mesh supervise --fleet-dir DIR -- manager …", EXIT.usage);
  const logger = createLogger(logLevelOf(values["log-level"], "info"));
  let signalled: () => void = () => undefined;
  const stop = new Promise<void>((resolve) => (signalled = resolve));
  void stopOnSignals(async () => signalled(), logger);
  return superviseManager({ fleetDir: values["fleet-dir"], managerArgs, logger, emit: printJson }, stop);
}
