// A fleet across two hosts, as a user builds it: `mesh up --listen` on one, `mesh join` on the other.
// Each "host" is its own MESH_HOME and its own copy of the code, so the joining side cannot read the
// manager's registry or keys: it reaches the manager only through the endpoint and key `mesh up` printed,
// and only once the manager's host admitted its key. Real processes and sockets throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { meshCli, processAlive } from "../helpers/processes.js";

const base = mkdtempSync(join(tmpdir(), "mesh-two-hosts-"));
const hostA = { home: join(base, "a"), root: join(base, "a-code") };
const hostB = { home: join(base, "b"), root: join(base, "b-code") };
const onA = meshCli({ ...process.env, MESH_HOME: hostA.home });
const onB = meshCli({ ...process.env, MESH_HOME: hostB.home });
const pids = new Set<number>();

interface Manifest {
  workers: { id: string; pid: number }[];
  manager: { pid: number; supervisor?: number; endpoint: string } | null;
}
const fleetOf = (home: string, file: string) => {
  const dir = join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
  return JSON.parse(readFileSync(join(dir, file), "utf8")) as Manifest;
};
let joinCommand = "";

beforeAll(async () => {
  cpSync(C_KERNEL_DIR, hostA.root, { recursive: true });
  cpSync(C_KERNEL_DIR, hostB.root, { recursive: true });
  const up = await onA(["up", hostA.root, "--listen", "tcp://127.0.0.1:*", "--json"]);
  expect(up.code, up.stderr).toBe(0);
  const printed = JSON.parse(up.stdout) as { join: string };
  joinCommand = printed.join;
  const fleet = fleetOf(hostA.home, "fleet.json");
  for (const pid of [...fleet.workers.map((w) => w.pid), fleet.manager?.pid ?? -1, fleet.manager?.supervisor ?? -1]) pids.add(pid);
}, 180_000);

afterAll(async () => {
  await onB(["down", hostB.root]);
  await onA(["down", hostA.root]);
  for (const pid of pids) if (pid > 0 && processAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(base, { recursive: true, force: true });
});

describe("a fleet across two hosts", () => {
  const host = hostname().replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 24);

  it("mesh up --listen prints the join command: the manager's endpoint with the fleet's public key", () => {
    expect(joinCommand).toMatch(/^mesh join 'tcp:\/\/127\.0\.0\.1:\d+#\S{40}' --root /);
  });

  it("refuses to join until the manager's host admits the joining host's key, saying how", { timeout: 60_000 }, async () => {
    const endpoint = (joinCommand.split(" ")[2] as string).slice(1, -1);
    const refused = await onB(["join", endpoint, "--root", hostB.root, "--scope", "mm", "--listen", "tcp://127.0.0.1:*"]);
    expect(refused.code).toBe(77);
    expect(refused.stderr).toMatch(/does not admit this host's key/);
    // As printed: the key quoted, after -- (a Z85 key may start with "-").
    const key = /mesh keys add --fleet ROOT -- \S+ '(\S{40})'/.exec(refused.stderr)?.[1];
    expect(key).toBeDefined();
    const added = await onA(["keys", "add", "--fleet", hostA.root, "--", "hostb", key as string]);
    expect(added.code, added.stderr).toBe(0);
  });

  it("runs the joined worker, which the manager routes to: with the local replica gone, the task runs on the other host", { timeout: 120_000 }, async () => {
    const endpoint = (joinCommand.split(" ")[2] as string).slice(1, -1);
    const joined = await onB(["join", endpoint, "--root", hostB.root, "--scope", "mm", "--listen", "tcp://127.0.0.1:*", "--json"]);
    expect(joined.code, joined.stderr).toBe(0);
    const remote = (JSON.parse(joined.stdout) as { workers: { id: string; pid: number }[] }).workers;
    expect(remote.map((w) => w.id)).toEqual([`mm-${host}-1`]);
    for (const w of remote) pids.add(w.pid);

    const agents = JSON.parse((await onA(["agents", "--json"])).stdout) as { agents: { id: string; scope: string; state: string }[] };
    expect(agents.agents.filter((a) => a.scope === "mm" && a.state === "alive").map((a) => a.id).sort()).toEqual([`mm-${host}-1`, "mm-1"].sort());

    // The manager's own mm replica dies: the task goes to the one on the other host.
    const local = fleetOf(hostA.home, "fleet.json").workers.find((w) => w.id === "mm-1") as { pid: number };
    process.kill(local.pid, "SIGKILL");
    await expect.poll(() => processAlive(local.pid)).toBe(false);
    const task = await onA(["delegate", "--scope", "mm", "--task", "Where is kmalloc defined?", "--json"]);
    expect(task.code, task.stderr).toBe(0);
    const result = JSON.parse(task.stdout) as { agent: string; response: { status: string }; verdict: { status: string } };
    expect(result.agent).toBe(`mm-${host}-1`);
    expect(result.response.status).toBe("completed");
    expect(result.verdict.status).toBe("accepted");
  });

  it("mesh down on the joining host stops its workers and leaves the fleet running", { timeout: 60_000 }, async () => {
    const remote = fleetOf(hostB.home, "join.json").workers;
    const down = await onB(["down", hostB.root, "--json"]);
    expect(down.code, down.stderr).toBe(0);
    expect((JSON.parse(down.stdout) as { stopped: string[] }).stopped).toEqual([`mm-${host}-1`]);
    for (const w of remote) expect(processAlive(w.pid)).toBe(false);
    const agents = await onA(["agents", "--json"]);
    expect(agents.code, agents.stderr).toBe(0);
  });
});
