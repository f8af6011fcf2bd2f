// The CLI surface of the bus, run as a user would: real `mesh` processes, real exit codes.
import { afterEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { MESH_BIN, ProcessSet } from "../helpers/processes.js";

const run = promisify(execFile);
const processes = new ProcessSet();
const dirs: string[] = [];
afterEach(() => {
  processes.killAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function mesh(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MESH_BIN, ...args], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function registry(): string {
  const dir = mkdtempSync(join(tmpdir(), "mesh-cli-"));
  dirs.push(dir);
  return dir;
}

describe("mesh node / peers / ping", () => {
  it("nodes found through a registry are listed and pinged", { timeout: 30_000 }, async () => {
    const dir = registry();
    await processes.startNode("n1", ["--registry", dir]);
    await processes.startNode("n2", ["--registry", dir]);
    await expect
      .poll(async () => {
        const { stdout } = await mesh("peers", "--registry", dir, "--json");
        const view = JSON.parse(stdout || "{}") as { nodes?: { id: string; state: string }[] };
        return (view.nodes ?? []).map((n) => n.state).sort();
      }, { timeout: 10_000 })
      .toEqual(["alive", "self"]);

    const table = await mesh("peers", "--registry", dir);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+ROLE\s+STATE/);
    expect(table.stdout).toMatch(/2 node\(s\)/);

    const ping = await mesh("ping", "n2", "--registry", dir, "--count", "2", "--json");
    expect(ping.code).toBe(0);
    const result = JSON.parse(ping.stdout) as { id: string; rtt_us: number[]; health: { id: string } };
    expect(result.id).toBe("n2");
    expect(result.rtt_us).toHaveLength(2);
    expect(result.health.id).toBe("n2");
  });

  it("ping works through a seed endpoint too", { timeout: 30_000 }, async () => {
    const a = await processes.startNode("a");
    await processes.startNode("b", ["--seed", a.endpoint]);
    await expect.poll(async () => (await mesh("ping", "b", "--seed", a.endpoint, "--count", "1")).code, { timeout: 10_000 }).toBe(0);
  });

  it("builds a secured mesh by hand with mesh keys: admitted keys see it, others do not, a revoked node is cut off", { timeout: 60_000 }, async () => {
    const dir = registry();
    const keys = join(dir, "keys");
    const ring = join(dir, "ring");
    for (const name of ["a", "b", "me"]) {
      const gen = await mesh("keys", "gen", name, "--dir", keys, "--json");
      expect(gen.code, gen.stderr).toBe(0);
      const printed = JSON.parse(gen.stdout) as { public_key: string; secret_file: string };
      expect(statSync(printed.secret_file).mode & 0o777).toBe(0o600);
      expect(gen.stdout).not.toContain((JSON.parse(readFileSync(printed.secret_file, "utf8")) as { secretKey: string }).secretKey);
      expect((await mesh("keys", "add", name, join(keys, `${name}.pub`), "--keyring", ring)).code).toBe(0);
    }
    expect((await mesh("keys", "gen", "a", "--dir", keys)).code).toBe(65); // never overwritten
    // A key file that is not one: the error names the file, never its text (it may be a bare secret).
    const bare = join(dir, "bare.key");
    writeFileSync(bare, "x2BK78@r1XD7Z8hC{L(V3A-YuFU#*bV$4i3s0<[!", { mode: 0o600 });
    const bad = await mesh("node", "--id", "bad", "--curve-secret", bare, "--keyring", keys);
    expect(bad.code).toBe(65);
    expect(bad.stderr).toMatch(/is not a CURVE key file/);
    expect(bad.stderr).not.toContain("x2BK78");
    expect(statSync(ring).mode & 0o777).toBe(0o700);
    const listed = JSON.parse((await mesh("keys", "list", "--keyring", ring, "--json")).stdout) as { keys: { name: string }[] };
    expect(listed.keys.map((k) => k.name)).toEqual(["a", "b", "me"]);

    const secured = (name: string) => ["--curve-secret", join(keys, `${name}.key`), "--keyring", ring, "--registry", dir];
    const a = await processes.startNode("a", secured("a"));
    await processes.startNode("b", secured("b"));
    const me = ["--curve-secret", join(keys, "me.key"), "--keyring", ring];
    const states = async (extra: string[] = []) => {
      const { stdout } = await mesh("peers", "--registry", dir, ...me, ...extra, "--json");
      return (JSON.parse(stdout || "{}") as { nodes?: { id: string; state: string }[] }).nodes?.map((n) => `${n.id}:${n.state}`).sort() ?? [];
    };
    await expect.poll(() => states(), { timeout: 15_000 }).toEqual(expect.arrayContaining(["b:alive"]));
    const ping = await mesh("ping", "b", "--registry", dir, ...me, "--count", "1", "--json");
    expect(ping.code, ping.stderr).toBe(0);
    // Without a key, or with one the nodes do not admit, the mesh does not answer.
    expect((await mesh("peers", "--seed", a.endpoint)).code).toBe(69);
    expect((await mesh("keys", "gen", "stranger", "--dir", keys)).code).toBe(0);
    const stranger = await mesh("peers", "--registry", dir, "--curve-secret", join(keys, "stranger.key"), "--keyring", ring);
    expect(stranger.code).toBe(69);

    const revoked = await mesh("keys", "revoke", "b", "--keyring", ring);
    expect(revoked.stdout).toMatch(/revoked b .*cut off within one gossip period/);
    await expect.poll(async () => {
      const { stdout } = await mesh("peers", "--seed", `${a.endpoint}#${readFileSync(join(keys, "a.pub"), "utf8").trim()}`, ...me, "--json");
      return (JSON.parse(stdout || "{}") as { nodes?: { id: string }[] }).nodes?.map((n) => n.id);
    }, { timeout: 15_000 }).toEqual(["a"]);
  });

  it("reports usage errors with exit 64 and what to do", async () => {
    const noId = await mesh("node");
    expect(noId.code).toBe(64);
    expect(noId.stderr).toMatch(/--id is required/);
    expect((await mesh("bogus")).code).toBe(64);
    expect((await mesh("peers", "--wat")).code).toBe(64);
    expect((await mesh("ping")).code).toBe(64);
    expect((await mesh("peers")).stderr).toMatch(/give --seed ENDPOINT or --registry DIR/);
  });

  it("reports an unreachable mesh or node with exit 69", { timeout: 30_000 }, async () => {
    const empty = await mesh("peers", "--registry", registry());
    expect(empty.code).toBe(69);
    expect(empty.stderr).toMatch(/no live node is registered/);
    const dir = registry();
    const dead = await mesh("peers", "--seed", `ipc://${join(dir, "nobody.sock")}`);
    expect(dead.code).toBe(69);
    const a = await processes.startNode("a");
    const missing = await mesh("ping", "zz", "--seed", a.endpoint);
    expect(missing.code).toBe(69);
    expect(missing.stderr).toMatch(/"zz" is not in the mesh/);
  });

  // Nineteen CLI processes one after another: about 10 s in the suite, three times that on a loaded machine.
  it("prints complete help for every command", { timeout: 120_000 }, async () => {
    const top = await mesh("--help");
    expect(top.code).toBe(0);
    for (const command of ["node", "peers", "ping", "demo", "ask-local", "worker", "trace", "scopes", "up", "down", "agents", "topology", "ask", "manager", "delegate", "mcp", "keys", "web"]) {
      expect(top.stdout).toContain(command);
      const help = await mesh(command, "--help");
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: mesh /);
    }
  });

  it("the bus demo runs end to end and leaves nothing running", { timeout: 60_000 }, async () => {
    const demo = await mesh("demo", "--bus");
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/alpha sees every other node alive: beta, delta, gamma/);
    expect(demo.stdout).toMatch(/noticed gamma was gone/);
    expect(demo.stdout).toMatch(/All nodes stopped/);
    const pids = [...demo.stdout.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(4);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });

  it("the main demo answers a multi-hop question over a fleet and leaves nothing running", { timeout: 120_000 }, async () => {
    const demo = await mesh("demo");
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/Path: drivers → kernel\b/);
    expect(demo.stdout).toMatch(/Traced path \(\d steps across drivers → kernel → mm;/);
    expect(demo.stdout).toMatch(/^ +\d\. e1000_\w+ \(drivers\/net\/e1000\/e1000_main\.c:\d+\) → dma_\w+ \(kernel\/dma\/mapping\.c:\d+-\d+\) \[kernel\]$/m);
    expect(demo.stdout).toMatch(/\(\d+ steps, chain and chain\)/);
    const pids = [...demo.stdout.matchAll(/^ {2}\w+ +\w+-(\d+) /gm)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(4);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
