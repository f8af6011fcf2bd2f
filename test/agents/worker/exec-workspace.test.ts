// Workspaces: task ids as safe, distinct directory names; symlink escapes refused; one run per task.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { ScopeViolationError } from "../../../agents/pgc/scan/index.js";
import { openWorkspace, workspaceName, WORKSPACES_DIR } from "../../../agents/worker/exec/workspace.js";
import { LOCK_FILE, WorkspaceBusyError } from "../../../agents/worker/exec/workspace-lock.js";

const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
let dir: string;
beforeEach(() => (dir = realpathSync(mkdtempSync(join(tmpdir(), "mesh-ws-")))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("workspaceName", () => {
  it("keeps ids that are already safe", () => {
    expect(workspaceName("T-20260108-a1b2c3")).toBe("T-20260108-a1b2c3");
    expect(workspaceName("worker-20260108-134852")).toBe("worker-20260108-134852");
  });

  it.each([["../../etc/passwd"], [".."], ["."], [".hidden"], ["a/b"], ["tâche"], ["x".repeat(256)], ["C:\\temp"]])("makes %j a safe name", (id) => {
    const name = workspaceName(id);
    expect(name).toMatch(SAFE_NAME);
    expect(name.length).toBeLessThanOrEqual(110);
    expect(workspaceName(id)).toBe(name);
  });

  it("never gives two ids the same name", () => {
    const ids = ["a/b", "a_b", "a:b", "x".repeat(256), `${"x".repeat(256)}y`];
    expect(new Set(ids.map(workspaceName)).size).toBe(ids.length);
  });
});

describe("openWorkspace", () => {
  it("creates the workspace, locks it while in use and unlocks it on release", async () => {
    const workspace = await openWorkspace(dir, "T-1", Date.now() + 60_000);
    expect(workspace.dir).toBe(join(dir, WORKSPACES_DIR, "T-1"));
    expect(JSON.parse(readFileSync(join(workspace.dir, LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
    await expect(openWorkspace(dir, "T-1", Date.now() + 60_000)).rejects.toBeInstanceOf(WorkspaceBusyError);
    await workspace.release();
    expect(existsSync(join(workspace.dir, LOCK_FILE))).toBe(false);
    await (await openWorkspace(dir, "T-1", Date.now() + 60_000)).release();
  });

  it("takes over a lock whose holder died or whose time ran out", async () => {
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const ws = join(dir, WORKSPACES_DIR, "T-2");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, LOCK_FILE), JSON.stringify({ pid: deadPid, host: hostname(), until: Date.now() + 60_000 }));
    await (await openWorkspace(dir, "T-2", Date.now() + 60_000)).release();
    writeFileSync(join(ws, LOCK_FILE), JSON.stringify({ pid: process.pid, host: "elsewhere", until: Date.now() - 1 }));
    await (await openWorkspace(dir, "T-2", Date.now() + 60_000)).release();
  });

  it("refuses a workspace that a symlink leads out of the workspaces directory", async () => {
    const outside = join(dir, "outside");
    mkdirSync(outside);
    mkdirSync(join(dir, WORKSPACES_DIR));
    symlinkSync(outside, join(dir, WORKSPACES_DIR, "T-3"));
    await expect(openWorkspace(dir, "T-3", Date.now() + 60_000)).rejects.toBeInstanceOf(ScopeViolationError);
  });

  it("replaces a file an earlier run left as a symlink instead of writing through it", async () => {
    const target = join(dir, "victim.txt");
    writeFileSync(target, "keep me");
    const first = await openWorkspace(dir, "T-4", Date.now() + 60_000);
    await first.release();
    symlinkSync(target, join(first.dir, "HANDOFF.md"));
    const second = await openWorkspace(dir, "T-4", Date.now() + 60_000);
    await second.write("HANDOFF.md", "# Task Handoff");
    await second.release();
    expect(readFileSync(target, "utf8")).toBe("keep me");
    expect(readFileSync(join(second.dir, "HANDOFF.md"), "utf8")).toBe("# Task Handoff");
  });
});
