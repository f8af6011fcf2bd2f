// Graceful stop on SIGINT/SIGTERM: run the stop function once; a second signal forces the exit.
import type { Logger } from "pino";

export const FORCED_EXIT_CODE = 130;

export function stopOnSignals(stop: () => Promise<void>, logger: Logger): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting without waiting for the drain");
        process.exit(FORCED_EXIT_CODE);
      }
      stopping = true;
      logger.info({ signal }, "stopping");
      stop()
        .catch((error: unknown) => logger.error({ err: error }, "stop failed"))
        .finally(() => resolve(signal));
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}
