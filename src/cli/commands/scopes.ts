// `mesh scopes ROOT`: propose a decomposition of a code base into scopes, as a scopes file to edit.
import { scanScope } from "../../../agents/pgc/scan/index.js";
import { AUTO_SCOPES, autoTargetLines, DEFAULT_TARGET_LINES, MIN_AUTO_TARGET_LINES, proposeScopes, type ProposedScope } from "../../fleet/decompose.js";
import { optionalPositiveInt, parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh scopes ROOT [--target-lines N] [--json]

Propose how to split the code base at ROOT into scopes of at most N lines each: directories are kept
whole while they fit (a subsystem or package stays one scope, named after it), larger ones are split
along their subdirectories, only directories under a tenth of N are packed with their siblings, and a
file is never split. Without --target-lines, N is an eighth of the code base (about ${AUTO_SCOPES} scopes or
more), at least ${MIN_AUTO_TARGET_LINES} (smaller code is one scope) and at most ${DEFAULT_TARGET_LINES}, and a tree crowded
with packages is packed harder (fifty small packages make about ten scopes, not fifty). Binary files,
build output and VCS directories are skipped. Prints a scopes file (JSON) to save and edit, and a
summary on stderr:

  mesh scopes ~/linux > scopes.json

Options:
  --target-lines N   largest scope, in lines of text
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
  const given = optionalPositiveInt("target-lines", values["target-lines"]);
  let scanned;
  try {
    scanned = await scanScope({ root });
  } catch (error) {
    throw new CliError(`cannot read ${root}: ${(error as Error).message}`, EXIT.dataError);
  }
  const files = scanned.files.map((f) => ({ path: f.path, lines: f.lines }));
  const total = files.reduce((sum, f) => sum + f.lines, 0);
  const target = given ?? autoTargetLines(total);
  const scopes = proposeScopes(files, target);
  const file = { root: scanned.rootReal, target_lines: target, scopes };
  if (values.json) printJson(file);
  else {
    process.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
    // The file goes to stdout (usually redirected); what it proposes is shown on the terminal.
    process.stderr.write(`${summary(scopes, total, target, given === undefined)}\n`);
  }
  return EXIT.ok;
}

const count = (n: number): string => n.toLocaleString("en-US");

/** "22 scopes for 304,003 lines (at most 38,738 each, an eighth of the code): asyncio 13,978, …" */
function summary(scopes: readonly ProposedScope[], total: number, target: number, automatic: boolean): string {
  const why = automatic ? `at most ${count(target)} each, an eighth of the code within ${count(MIN_AUTO_TARGET_LINES)}–${count(DEFAULT_TARGET_LINES)}` : `at most ${count(target)} each`;
  const list = scopes.map((s) => `${s.name} ${count(s.lines)}`).join(", ");
  return `mesh scopes: ${scopes.length} scope${scopes.length === 1 ? "" : "s"} for ${count(total)} lines (${why}): ${list}`;
}
