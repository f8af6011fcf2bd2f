// One scope's PGC over a corpus written to a fresh temp dir, its cache in another: for tests that parse real
// code through the whole store. `close` removes both.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { openPgc } from "../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../agents/pgc/pgc.js";
import { writeCorpus } from "./corpus.js";

export interface ScopePgc {
  pgc: Pgc;
  root: string;
  close(): void;
}

export async function scopePgc(prefix: string, sources: Record<string, string>, scope: string, paths: string[]): Promise<ScopePgc> {
  const root = writeCorpus(prefix, sources);
  const cache = mkdtempSync(join(tmpdir(), `${prefix}cache-`));
  const opened = await openPgc({ scope, root, scopePaths: paths, cacheRoot: cache, logger: pino({ level: "silent" }) });
  return {
    pgc: new Pgc(scope, paths, opened),
    root,
    close: () => {
      rmSync(root, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    },
  };
}
