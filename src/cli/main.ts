// Entry point of the `mesh` CLI: dispatches to one module per command.
import { commands } from "./commands.js";
import { CliError, EXIT } from "./exit-codes.js";
import { settleExit } from "./settle-exit.js";

function usage(): string {
  const lines = ["Usage: mesh <command> [options]", "", "Commands:"];
  for (const [name, command] of Object.entries(commands)) lines.push(`  ${name.padEnd(12)} ${command.summary}`);
  lines.push("", "Run `mesh <command> --help` for the options of one command.");
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage() + "\n");
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = commands[name];
  if (command === undefined) {
    throw new CliError(`unknown command "${name}"`, EXIT.usage, "run `mesh --help` to list the commands");
  }
  return command.run(rest);
}

settleExit(main(process.argv.slice(2)));
