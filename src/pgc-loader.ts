// Open a scope's PGC for a CLI command, with progress on stderr and errors a user can act on.
import type { Logger } from "pino";
import { openPgc } from "../agents/pgc/store/open-pgc.js";
import { Pgc } from "../agents/pgc/pgc.js";
import { CliError, EXIT } from "./cli/exit-codes.js";
import { ProgressReporter } from "./progress.js";

export interface PgcSpec {
  scope: string;
  root: string;
  scopePaths: string[];
  cacheRoot?: string | undefined;
  rebuild?: boolean | undefined;
  quiet?: boolean | undefined;
}

export async function loadPgc(spec: PgcSpec, logger: Logger): Promise<Pgc> {
  const progress = spec.quiet ? undefined : new ProgressReporter(`pgc ${spec.scope}`);
  try {
    const opened = await openPgc({
      scope: spec.scope,
      root: spec.root,
      scopePaths: spec.scopePaths,
      ...(spec.cacheRoot ? { cacheRoot: spec.cacheRoot } : {}),
      rebuild: spec.rebuild === true,
      logger,
      ...(progress ? { onProgress: (e) => progress.update(e) } : {}),
    });
    const { outcome, manifest } = opened;
    progress?.done(
      outcome.mode === "loaded"
        ? `loaded index ${manifest.index_revision} (${manifest.stats["files"] as number} files, unchanged)`
        : `built index ${manifest.index_revision}: ${outcome.reparsed} file(s) parsed, ${outcome.reused} reused`,
    );
    return new Pgc(spec.scope, spec.scopePaths, opened);
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e.name === "ScopeNotFoundError" || e.code === "ENOENT") {
      throw new CliError(`cannot index ${spec.root}: ${e.message}`, EXIT.dataError, "check --root and --scope-path");
    }
    if (e.name === "ScopeViolationError") throw new CliError(e.message, EXIT.dataError, "scope paths must stay inside --root");
    throw error;
  }
}
