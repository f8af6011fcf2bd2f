// How the `mesh` CLI ends: a command's exit code, or its error printed on stderr with the matching code.
// Shared by the whole CLI (main.ts) and the worker-only entry (worker-entry.ts), so both end alike.
import { CliError, EXIT } from "./exit-codes.js";

export function settleExit(outcome: Promise<number>): void {
  outcome.then(
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
}
