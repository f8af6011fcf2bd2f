// The code facts a worker gives the manager's topology: the names it owns, the references leaving it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";
import { TS_SMALL_DIR } from "../../fixtures/fixture-paths.js";

const cacheRoot = mkdtempSync(join(tmpdir(), "mesh-facts-"));
afterAll(() => rmSync(cacheRoot, { recursive: true, force: true }));

describe("Pgc.facts", () => {
  it("owns a TypeScript module's functions, types and module-level constants, so a question naming one routes to it", async () => {
    const opened = await openPgc({ scope: "app", root: TS_SMALL_DIR, scopePaths: ["src/"], cacheRoot, logger: pino({ level: "silent" }) });
    const { symbols, paths } = new Pgc("app", ["src/"], opened).facts();
    expect(paths).toEqual(["src/"]);
    // `export const formatEntry = (…) => …` and `export const MAX_ENTRIES = 1000` are API, as a class is.
    expect(symbols).toEqual(expect.arrayContaining(["formatEntry", "MAX_ENTRIES"]));
    expect([...symbols].sort()).toEqual(symbols);
  });

  it("reports a TS module's re-exports by root-relative file and target, for the manager's public surface", async () => {
    const root = mkdtempSync(join(tmpdir(), "mesh-facts-reexports-"));
    try {
      mkdirSync(join(root, "src/core"), { recursive: true });
      writeFileSync(join(root, "src/index.ts"), 'export * from "./api.js";\nexport * as core from "./core";\nexport { x } from "other-package";\n');
      writeFileSync(join(root, "src/api.ts"), "export function open(): number { return 1; }\n");
      writeFileSync(join(root, "src/core/index.ts"), "export const y = 2;\n");
      const opened = await openPgc({ scope: "app", root, scopePaths: ["src/"], cacheRoot, logger: pino({ level: "silent" }) });
      expect(new Pgc("app", ["src/"], opened).facts().reexports).toEqual([
        { from: "src/index.ts", to: "src/api.ts" },
        { from: "src/index.ts", to: "src/core/index.ts" },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
