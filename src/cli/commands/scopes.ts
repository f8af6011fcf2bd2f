// `mesh scopes ROOT`: propose a decomposition of a code base into scopes, as a scopes file to edit.
import { scanScope } from "../../../agents/pgc/scan/index.js";
import { DEFAULT_TARGET_LINES, proposeScopes } from "../../fleet/decompose.js";
import { parse, positiveInt, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh scopes ROOT [--target-lines N] [--json]

Propose how to split the code base at ROOT into scopes of about N lines each (default ${DEFAULT_TARGET_LINES}):
directories are kept whole while they fit (a subsystem stays one scope), larger ones are split along their
subdirectories, small siblings are packed together, and a file is never split. Binary files, build output
and VCS directories are skipped. Prints a scopes file (JSON) to save and edit:

  mesh scopes ~/linux > scopes.json

Options:
  --target-lines N   scope size in lines of text
  --json             one-line JSON (the default output is indented)
  -h, --help         show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { "target-lines": { type: "string" } }, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const root = positionals[0];
  if (!root || positionals.length > 1) throw new CliError("mesh scopes takes exactly one ROOT directory", EXIT.usage);
  const target = positiveInt("target-lines", values["target-lines"], DEFAULT_TARGET_LINES);
  let scanned;
  try {
    scanned = await scanScope({ root });
  } catch (error) {
    throw new CliError(`cannot read ${root}: ${(error as Error).message}`, EXIT.dataError);
  }
  const scopes = proposeScopes(scanned.files.map((f) => ({ path: f.path, lines: f.lines })), target);
  const file = { root: scanned.rootReal, target_lines: target, scopes };
  if (values.json) printJson(file);
  else process.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
  return EXIT.ok;
}
