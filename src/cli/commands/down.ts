// `mesh down [ROOT]`: graceful drain and stop of a whole fleet.
import { findFleet } from "../../fleet/find-fleet.js";
import { fleetDown } from "../../fleet/up.js";
import { leaveFleet, readJoin } from "../../fleet/join.js";
import { fleetDirFor } from "../../fleet/fleet-dir.js";
import { realRoot } from "../../../agents/pgc/scan/index.js";
import { parse, printJson } from "../args.js";
import { EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh down [ROOT] [--json]

Stop the fleet of ROOT (or the only running fleet) gracefully: each worker says goodbye, drains its
running tasks and exits (SIGTERM; SIGKILL after 10 s), then the manager. Nothing is left running; logs
and audit records stay under $MESH_HOME. On a host that joined workers to a fleet (mesh join), stops
those workers; the fleet on the manager's host goes on without them.

Options:
  --json        print {"stopped": [ids]}
  -h, --help    show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const named = positionals[0];
  if (named) {
    // This host only joined workers to a fleet whose manager runs elsewhere.
    const dir = fleetDirFor(await realRoot(named).catch(() => named));
    const joined = readJoin(dir);
    if (joined && joined.workers.length > 0) {
      const stopped = await leaveFleet(dir);
      if (values.json) printJson({ root: joined.root, stopped });
      else process.stdout.write(`stopped ${stopped.length} worker(s) this host joined to the fleet at ${joined.manager.split("#")[0]}\n`);
      return EXIT.ok;
    }
  }
  const { dir, fleet } = await findFleet(named);
  const stopped = await fleetDown(dir);
  if (values.json) printJson({ root: fleet.root, stopped });
  else process.stdout.write(`stopped ${stopped.length} process(es) of the fleet for ${fleet.root}\n`);
  return EXIT.ok;
}
