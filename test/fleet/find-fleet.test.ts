// Which fleet a command acts on when none is named: the only one running, else the one whose root holds
// the working directory (the innermost when roots nest), else a usage error naming them all. Over fleet
// files written under a temp $MESH_HOME whose managers are this (live) process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFleet } from "../../src/fleet/find-fleet.js";
import { FLEET_HOME_ENV, fleetDirFor, writeFleet } from "../../src/fleet/fleet-dir.js";
import { CliError, EXIT } from "../../src/cli/exit-codes.js";

let base: string;
let previousHome: string | undefined;

function startFleet(root: string): void {
  mkdirSync(root, { recursive: true });
  writeFleet(fleetDirFor(root), {
    root,
    started_at: new Date().toISOString(),
    scopes: [{ name: "all", paths: [""] }],
    workers: [],
    manager: { id: "manager", pid: process.pid, endpoint: "tcp://127.0.0.1:1", log: join(root, "manager.log") },
  });
}

function useHome(name: string): void {
  process.env[FLEET_HOME_ENV] = join(base, name);
}

describe("finding the fleet a command acts on", () => {
  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "mesh-find-fleet-")));
    previousHome = process.env[FLEET_HOME_ENV];
  });
  afterAll(() => {
    if (previousHome === undefined) delete process.env[FLEET_HOME_ENV];
    else process.env[FLEET_HOME_ENV] = previousHome;
    rmSync(base, { recursive: true, force: true });
  });

  it("takes the only fleet running, wherever the command runs", async () => {
    useHome("one");
    startFleet(join(base, "code", "solo"));
    expect((await findFleet(undefined, base)).fleet.root).toBe(join(base, "code", "solo"));
  });

  it("takes the fleet whose root holds the working directory when several run, the innermost when they nest", async () => {
    useHome("several");
    const outer = join(base, "code", "app");
    const inner = join(outer, "vendor", "lib");
    const other = join(base, "code", "application");
    for (const root of [outer, inner, other]) startFleet(root);
    mkdirSync(join(outer, "src"), { recursive: true });
    mkdirSync(join(inner, "deep"), { recursive: true });
    expect((await findFleet(undefined, join(outer, "src"))).fleet.root).toBe(outer);
    expect((await findFleet(undefined, outer)).fleet.root).toBe(outer);
    expect((await findFleet(undefined, join(inner, "deep"))).fleet.root).toBe(inner);
    // `application` is not inside `app`, though its path begins with it.
    expect((await findFleet(undefined, other)).fleet.root).toBe(other);
    // Named, the named one wins over the working directory.
    expect((await findFleet(other, join(outer, "src"))).fleet.root).toBe(other);
  });

  it("refuses with the fleets' roots when the working directory is in none of them", async () => {
    useHome("several");
    const error = await findFleet(undefined, tmpdir()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.usage);
    expect((error as CliError).message).toMatch(/^3 fleets are running: /);
    expect((error as CliError).hint).toMatch(/--fleet ROOT, or run the command inside its root/);
  });
});
