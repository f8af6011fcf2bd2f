// Entry point of the `mesh` CLI: dispatches to one module per command.
import { commands } from "./commands.js";
import { CliError, EXIT } from "./exit-codes.js";

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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`mesh: ${error.message}${error.hint ? `\n  ${error.hint}` : ""}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`mesh: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.internal;
  },
);
