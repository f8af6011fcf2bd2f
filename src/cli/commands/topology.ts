// `mesh topology`: the running fleet's scope graph, discovered from the code, in four renderings.
import { parseGraphJson, renderGraph, RENDER_FORMATS, type RenderFormat } from "../../../topology/index.js";
import { askManager, findFleet } from "../../fleet/find-fleet.js";
import { createLogger } from "../../logging.js";
import { logLevelOf, parse } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh topology [--format text|json|dot|mermaid] [--fleet ROOT]

Print the scope graph of the running fleet: an edge A -> B means code in scope A calls or includes code
owned by scope B, with counts and examples. Derived from the workers' own cross-scope references.

Options:
  --format F    text (default), json, dot (Graphviz) or mermaid
  --fleet ROOT  the fleet's code root, when several fleets run
  -h, --help    show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { format: { type: "string" }, fleet: { type: "string" } });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const format = (values.format ?? (values.json ? "json" : "text")) as RenderFormat;
  if (!(RENDER_FORMATS as readonly string[]).includes(format)) throw new CliError(`unknown format "${format}"`, EXIT.usage, `formats: ${RENDER_FORMATS.join(", ")}`);
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const { fleet } = await findFleet(values.fleet);
  const { graph } = (await askManager(fleet, "topology", {}, logger)) as { graph: unknown };
  process.stdout.write(`${renderGraph(parseGraphJson(graph), format).trimEnd()}\n`);
  return EXIT.ok;
}
