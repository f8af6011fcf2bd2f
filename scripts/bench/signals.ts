// How a benchmark ends when interrupted: the shell's exit codes, after it has stopped what it started.

/** Shell convention: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * On SIGINT or SIGTERM (once each): `say` which, run `stop` (what the run started and would outlive it; a
 * failure there is `stop`'s to report), then exit 130 / 143.
 */
export function exitOnSignals(say: (signal: string) => void, stop: () => Promise<void> = async () => undefined): void {
  for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) {
    process.once(signal, () => {
      say(signal);
      void stop()
        .catch(() => undefined)
        .finally(() => process.exit(code));
    });
  }
}
