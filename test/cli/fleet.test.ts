// The fleet through the CLI, as a user drives it: up → agents → topology → ask → trace → down on the
// demo kernel, reuse on a second up, a SIGKILLed worker restarted, and the errors when no fleet runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN, processAlive } from "../helpers/processes.js";
import { MeshClient } from "../../bus/index.js";
import { fleetClientCurve } from "../../src/security.js";

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), "mesh-home-"));
const env = { ...process.env, MESH_HOME: home };

async function mesh(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MESH_BIN, ...args], { timeout: 120_000, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

interface Fleet {
  workers: { id: string; pid: number; endpoint: string }[];
  manager: { id: string; pid: number; endpoint: string; supervisor?: number } | null;
}
function fleetFile(): Fleet {
  const dir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
  return JSON.parse(readFileSync(join(dir, "fleet.json"), "utf8")) as Fleet;
}
const alive = processAlive;

let pids: number[] = [];
beforeAll(async () => {
  const up = await mesh("up", C_KERNEL_DIR, "--json");
  expect(up.code, up.stderr).toBe(0);
  const fleet = fleetFile();
  pids = [...fleet.workers.map((w) => w.pid), fleet.manager?.pid ?? -1, fleet.manager?.supervisor ?? -1];
}, 180_000);
afterAll(async () => {
  await mesh("down", C_KERNEL_DIR);
  for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

describe("a fleet through the CLI", () => {
  it("lists its agents, renders its topology, answers a multi-hop question and replays it", async () => {
    const agents = JSON.parse((await mesh("agents", "--json")).stdout) as { agents: { scope: string; state: string; host: string }[] };
    expect(agents.agents.map((a) => a.scope).sort()).toEqual(["drivers", "kernel", "mm", "net"]);
    expect(agents.agents.every((a) => a.host === hostname())).toBe(true);
    expect((await mesh("agents")).stdout).toMatch(/^SCOPE +ID +HOST +STATE/);
    expect(agents.agents.every((a) => a.state === "alive")).toBe(true);
    expect((await mesh("status")).stdout).toMatch(/4 worker\(s\)/);

    const dot = await mesh("topology", "--format", "dot");
    expect(dot.stdout).toMatch(/digraph/);
    expect(dot.stdout).toMatch(/"drivers" -> "kernel"/);

    const ask = await mesh("ask", "How does the e1000 driver allocate DMA buffers?", "--to", "mm", "--json");
    expect(ask.code).toBe(0);
    const result = JSON.parse(ask.stdout) as { id: string; query_path: string[] };
    expect(result.query_path).toEqual(["drivers", "kernel", "mm"]);
    const trace = await mesh("trace", result.id);
    expect(trace.code).toBe(0);
    expect(trace.stdout).toMatch(/path drivers → kernel → mm/);
    // What the answer asked of the fleet: each of its 4 scopes for entry points, then its expansions.
    expect(trace.stdout).toMatch(/; asked 4 scopes for entry points, \d+ expansions \(\d+ shared\) in \d+ requests?\)/);

    // Every citation of the answer, not just the manager's sample, re-hashed against the fleet's root.
    const verified = await mesh("trace", result.id, "--verify");
    expect(verified.code, verified.stderr).toBe(0);
    const report = JSON.parse((await mesh("trace", result.id, "--verify", "--json")).stdout) as { matching: number; citations: { outcome: string; scope: string }[] };
    expect(report.citations.length).toBeGreaterThan(3);
    expect(report.matching).toBe(report.citations.length);
    expect(new Set(report.citations.map((c) => c.scope))).toEqual(new Set(["drivers", "kernel", "mm"]));
    expect(verified.stdout).toContain(`${report.matching} of ${report.matching} citation(s) still match the code`);
  });

  it("is a star: each worker links to the manager only, the manager to every worker", async () => {
    const fleet = fleetFile();
    const peersOf = async (endpoint: string) => {
      // A fleet is secured: its processes admit the fleet's own key, which its CLI uses too.
      const client = new MeshClient({ endpoint, timeoutMs: 5_000, ...fleetClientCurve(join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string)) });
      try {
        const answer = (await client.request("peers", {})) as { peers: { card: { id: string; role: string }; state: string }[] };
        return answer.peers.filter((p) => p.state === "alive").map((p) => p.card.id).sort();
      } finally {
        await client.close();
      }
    };
    for (const worker of fleet.workers) await expect.poll(() => peersOf(worker.endpoint)).toEqual([fleet.manager?.id]);
    await expect.poll(() => peersOf(fleet.manager?.endpoint ?? "")).toEqual(fleet.workers.map((w) => w.id).sort());
  });

  it("is secured with the fleet's CURVE key: private files, no secret anywhere it writes or prints, no answer to a client without the key", async () => {
    const dir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
    expect(statSync(join(dir, "keys")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "keys", "fleet.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "keyring")).mode & 0o777).toBe(0o700);
    const { secretKey, publicKey } = JSON.parse(readFileSync(join(dir, "keys", "fleet.key"), "utf8")) as { secretKey: string; publicKey: string };
    const printed = [(await mesh("agents", "--json")).stdout, (await mesh("topology", "--format", "json")).stdout, (await mesh("ask", "Who calls kmalloc?", "--json")).stdout];
    const written = ["fleet.json", ...readdirSync(join(dir, "registry")).map((f) => join("registry", f)), ...readdirSync(join(dir, "logs")).map((f) => join("logs", f))].map((f) => readFileSync(join(dir, f), "utf8"));
    for (const text of [...printed, ...written]) expect(text).not.toContain(secretKey);
    // The public key does travel: in the cards of the registry.
    expect(written.some((text) => text.includes(publicKey))).toBe(true);
    const keys = JSON.parse((await mesh("keys", "list", "--json")).stdout) as { keys: { name: string; key: string; fleet_key: boolean }[] };
    expect(keys.keys).toEqual([expect.objectContaining({ name: "fleet", key: publicKey, fleet_key: true })]);
    const revokeOwn = await mesh("keys", "revoke", "fleet");
    expect(revokeOwn.code).toBe(64);
    expect(revokeOwn.stderr).toMatch(/the fleet's own key/);
    const plain = new MeshClient({ endpoint: fleetFile().manager?.endpoint ?? "", timeoutMs: 800, attempts: 1 });
    try {
      await expect(plain.request("agents", {})).rejects.toMatchObject({ name: "TimeoutError" });
    } finally {
      await plain.close();
    }
  });

  it("runs one manager: a second one for the same fleet is refused, naming the first", async () => {
    const dir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
    const second = await mesh("manager", "--audit", join(dir, "audit"), "--registry", join(dir, "registry"), "--log-level", "warn");
    expect(second.code).toBe(69);
    expect(second.stderr).toMatch(new RegExp(`another manager \\(pid ${fleetFile().manager?.pid} on `));
  });

  it("delegates a task with its CDP workspace and one manifest line", async () => {
    const out = await mesh("delegate", "--scope", "mm", "--task", "Where is alloc_pages defined?", "--criteria", "names alloc_pages", "--json");
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout) as { response: { task_id: string; status: string }; verdict: { status: string }; workspace: string };
    expect(result.response.status).toBe("completed");
    expect(result.verdict.status).not.toBe("rejected");
    expect(readFileSync(join(result.workspace, "HANDOFF.md"), "utf8")).toMatch(/\[AI-TO-AI DELEGATION\]/);
    expect(readFileSync(join(result.workspace, "OUTPUT.md"), "utf8")).toMatch(/\*\*Status:\*\* completed/);
    const dir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
    const manifest = readFileSync(join(dir, "audit", "MANIFEST.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string });
    expect(manifest.filter((m) => m.id === result.response.task_id)).toHaveLength(1);
    expect((await mesh("delegate", "--scope", "nope", "--task", "x")).code).toBe(64);
  });

  it("reuses a healthy fleet, and restarts a worker killed with SIGKILL", async () => {
    const again = JSON.parse((await mesh("up", C_KERNEL_DIR, "--json")).stdout) as { started: string[]; reused: string[] };
    expect(again.started).toEqual([]);
    expect(again.reused).toHaveLength(5);
    const victim = fleetFile().workers.find((w) => w.id === "mm-1");
    process.kill(victim?.pid as number, "SIGKILL");
    const healed = JSON.parse((await mesh("up", C_KERNEL_DIR, "--json")).stdout) as { started: string[] };
    expect(healed.started).toEqual(["mm-1"]);
    pids.push(...fleetFile().workers.map((w) => w.pid));
    const agents = JSON.parse((await mesh("agents", "--json")).stdout) as { agents: { scope: string; state: string }[] };
    expect(agents.agents.filter((a) => a.scope === "mm" && a.state === "alive")).toHaveLength(1);
  });

  it("a killed manager is restarted by its supervisor: the next command finds the new one", async () => {
    const manager = fleetFile().manager as { pid: number; supervisor: number };
    process.kill(manager.pid, "SIGKILL");
    await expect.poll(() => alive(manager.pid)).toBe(false);
    const agents = await mesh("agents", "--json");
    expect(agents.code, agents.stderr).toBe(0);
    expect((JSON.parse(agents.stdout) as { agents: unknown[] }).agents).toHaveLength(4);
    const now = fleetFile().manager as { pid: number; supervisor: number };
    expect(now.pid).not.toBe(manager.pid);
    expect(now.supervisor).toBe(manager.supervisor);
    pids.push(now.pid);
  });

  it("says so when the manager and its supervisor are gone but workers run, and mesh up brings the manager back", async () => {
    const manager = fleetFile().manager as { pid: number; supervisor: number };
    process.kill(manager.supervisor, "SIGKILL");
    process.kill(manager.pid, "SIGKILL");
    await expect.poll(() => alive(manager.pid) || alive(manager.supervisor)).toBe(false);
    const lost = await mesh("agents");
    expect(lost.code).toBe(69);
    expect(lost.stderr).toMatch(/has lost its manager \(pid \d+ is gone\); 4 of its 4 workers still run/);
    expect(lost.stderr).toMatch(/restart it with `mesh up /);
    expect((await mesh("ask", "anything", "--fleet", C_KERNEL_DIR)).stderr).toMatch(/has lost its manager/);
    const back = JSON.parse((await mesh("up", C_KERNEL_DIR, "--json")).stdout) as { started: string[]; reused: string[] };
    expect(back.started).toEqual(["manager"]);
    expect(back.reused).toHaveLength(4);
    pids.push(fleetFile().manager?.pid ?? -1, fleetFile().manager?.supervisor ?? -1);
    const agents = JSON.parse((await mesh("agents", "--json")).stdout) as { agents: { state: string }[] };
    expect(agents.agents).toHaveLength(4);
  });

  it("stops everything on down, then reports that no fleet runs", async () => {
    const current = fleetFile();
    const running = [...current.workers.map((w) => w.pid), current.manager?.pid ?? -1, current.manager?.supervisor ?? -1];
    const down = await mesh("down", "--json");
    expect(down.code).toBe(0);
    expect((JSON.parse(down.stdout) as { stopped: string[] }).stopped).toHaveLength(5);
    for (const pid of running) expect(alive(pid)).toBe(false);
    const none = await mesh("agents");
    expect(none.code).toBe(69);
    expect(none.stderr).toMatch(/no fleet is running/);
    const named = await mesh("ask", "anything", "--fleet", C_KERNEL_DIR);
    expect(named.code).toBe(69);
    expect(named.stderr).toMatch(/start one with `mesh up/);
    // A directory with no source in it gets an error, not a fleet of no workers.
    const empty = mkdtempSync(join(tmpdir(), "mesh-empty-"));
    try {
      const up = await mesh("up", empty);
      expect(up.code).toBe(65);
      expect(up.stderr).toMatch(/found no source files under/);
      expect((await mesh("agents")).code).toBe(69);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("runs N replicas per scope with --replicas, every one routable, and answers through them", { timeout: 120_000 }, async () => {
    const up = JSON.parse((await mesh("up", C_KERNEL_DIR, "--replicas", "2", "--json")).stdout) as { workers: { id: string; pid: number }[] };
    pids.push(...up.workers.map((w) => w.pid), fleetFile().manager?.pid ?? -1);
    expect(up.workers.map((w) => w.id).sort()).toEqual(["drivers-1", "drivers-2", "kernel-1", "kernel-2", "mm-1", "mm-2", "net-1", "net-2"]);
    const agents = JSON.parse((await mesh("agents", "--json")).stdout) as { agents: { scope: string; state: string }[] };
    expect(agents.agents.filter((a) => a.scope === "mm" && a.state === "alive")).toHaveLength(2);
    const ask = await mesh("ask", "How does the e1000 driver allocate DMA buffers?", "--to", "mm", "--json");
    expect(ask.code).toBe(0);
    expect((await mesh("down", C_KERNEL_DIR)).code).toBe(0);
  });
});

