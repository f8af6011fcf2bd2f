// `mesh down [ROOT]`: graceful drain and stop of a whole fleet.
import { findFleet } from "../../fleet/find-fleet.js";
import { fleetDown } from "../../fleet/up.js";
import { parse, printJson } from "../args.js";
import { EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh down [ROOT] [--json]

Stop the fleet of ROOT (or the only running fleet) gracefully: each worker says goodbye, drains its
running tasks and exits (SIGTERM; SIGKILL after 10 s), then the manager. Nothing is left running; logs
and audit records stay under $MESH_HOME.

Options:
  --json        print {"stopped": [ids]}
  -h, --help    show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const { dir, fleet } = await findFleet(positionals[0]);
  const stopped = await fleetDown(dir);
  if (values.json) printJson({ root: fleet.root, stopped });
  else process.stdout.write(`stopped ${stopped.length} process(es) of the fleet for ${fleet.root}\n`);
  return EXIT.ok;
}
