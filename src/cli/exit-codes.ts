// Exit codes of the `mesh` CLI; documented in the README. Values follow BSD sysexits where one fits.
export const EXIT = Object.freeze({
  ok: 0,
  /** The command finished but reported a failure (a failed ping, a rejected answer). */
  failed: 1,
  /** Bad arguments or an unknown command (EX_USAGE). */
  usage: 64,
  /** Bad input data: a file or corpus that cannot be read (EX_DATAERR). */
  dataError: 65,
  /** A peer, fleet or node could not be reached (EX_UNAVAILABLE). */
  unavailable: 69,
  /** A bug: an unexpected exception (EX_SOFTWARE). */
  internal: 70,
  /** A deadline passed before an answer came (EX_TEMPFAIL). */
  timeout: 75,
  /** The mesh refused this key: not in its keyring, or not granted the op on that scope (EX_NOPERM). */
  forbidden: 77,
});

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports as one line plus a hint of what to do, with a meaningful exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
  }
}
