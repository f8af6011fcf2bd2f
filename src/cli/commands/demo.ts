// `mesh demo`: the main job on the bundled demo corpus, or (`--bus`) the bare bus.
import { runBusDemo } from "../../demo/bus-demo.js";
import { runFleetDemo } from "../../demo/fleet-demo.js";
import { createLogger } from "../../logging.js";
import { logLevelOf, parse } from "../args.js";
import { EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh demo [--bus]

Start a fleet over the bundled demo kernel — one worker process per subsystem (net, drivers, kernel, mm),
each building its grounded index — discover the topology from the code, ask a multi-hop question
("How does the e1000 driver allocate DMA buffers?") by a planned route and by following the evidence,
print the path, the per-hop findings and citations and the validation verdicts, then stop everything.

Options:
  --bus              instead, start four bare mesh nodes, show discovery, a round trip and the
                     detection of a killed node
  --log-level LEVEL  (default warn)
  -h, --help         show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { bus: { type: "boolean" } });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  return values.bus ? runBusDemo(logger) : runFleetDemo(logger);
}
