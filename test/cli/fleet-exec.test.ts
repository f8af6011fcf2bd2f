// A fleet of real agents in one command: `mesh up --exec CMD` starts every worker with an agent command
// (a scripted agent here), a scopes file may give one scope its own, and changing a scope's command on the
// next `mesh up` restarts exactly its workers.
import { afterAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN } from "../helpers/processes.js";

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), "mesh-home-exec-"));
const env = { ...process.env, MESH_HOME: home };
const AGENT = join(process.cwd(), "test", "fixtures", "executors", "agent-ok.mjs");

async function mesh(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [MESH_BIN, ...args], { env, timeout: 180_000 });
}

afterAll(async () => {
  await mesh("down", C_KERNEL_DIR).catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
});

describe("mesh up --exec", () => {
  it("starts every worker with the agent command, and a scope of the scopes file with its own", { timeout: 300_000 }, async () => {
    const up = JSON.parse((await mesh("up", C_KERNEL_DIR, "--exec", `${process.execPath} ${AGENT}`, "--json")).stdout) as { workers: { id: string; exec?: string }[] };
    expect(up.workers.every((w) => w.exec === `${process.execPath} ${AGENT}`)).toBe(true);
    const agents = JSON.parse((await mesh("agents", "--json")).stdout) as { agents: { scope: string; executor: string }[] };
    expect(agents.agents.map((a) => a.executor)).toEqual(["exec:node", "exec:node", "exec:node", "exec:node"]);

    const delegated = JSON.parse((await mesh("delegate", "--scope", "mm", "--task", "Where is kmalloc defined?", "--json")).stdout) as { response: { result: string; status: string }; workspace: string };
    expect(delegated.response.status).toBe("completed");
    expect(delegated.response.result).toMatch(/^Scope mm: the first cited file is /);

    // One scope keeps the agent; the others go back to the built-in executor: only their workers restart.
    const scopes = JSON.parse(readFileSync(join(C_KERNEL_DIR, "mesh-scopes.json"), "utf8")) as { scopes: { name: string; paths: string[]; exec?: string }[] };
    const file = join(home, "scopes.json");
    writeFileSync(file, JSON.stringify({ scopes: scopes.scopes.map((s) => (s.name === "mm" ? { ...s, exec: `${process.execPath} ${AGENT}` } : s)) }));
    const again = JSON.parse((await mesh("up", C_KERNEL_DIR, "--scopes", file, "--json")).stdout) as { started: string[]; reused: string[] };
    expect(again.reused).toContain("mm-1");
    expect(again.started.sort()).toEqual(["drivers-1", "kernel-1", "net-1"]);
    const mixed = JSON.parse((await mesh("agents", "--json")).stdout) as { agents: { scope: string; executor: string }[] };
    expect(Object.fromEntries(mixed.agents.map((a) => [a.scope, a.executor]))).toMatchObject({ mm: "exec:node" });
    expect(mixed.agents.filter((a) => a.scope !== "mm").every((a) => !a.executor.startsWith("exec"))).toBe(true);
  });

  it("refuses a scopes file whose exec is not a command line", async () => {
    const file = join(home, "bad-scopes.json");
    writeFileSync(file, JSON.stringify({ scopes: [{ name: "mm", paths: ["mm/"], exec: "  " }] }));
    await expect(mesh("up", C_KERNEL_DIR, "--scopes", file)).rejects.toMatchObject({ stderr: expect.stringMatching(/scope mm: "exec" must be a command line/) });
  });
});
