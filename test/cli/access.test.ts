// Scope ACLs over a real secured fleet: a second key admitted to the keyring can do nothing until
// mesh-policy.json grants it; then only the ops and scopes granted, checked by the manager and again by a
// worker asked directly; a refusal is exit 77 with the op and scope, and an audit line; the policy is read
// again when it changes, a broken edit keeps the last good one, and a revoked key is refused at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { meshCli, processAlive } from "../helpers/processes.js";
import { MeshClient } from "../../bus/index.js";

const home = mkdtempSync(join(tmpdir(), "mesh-home-access-"));
const root = join(home, "code");
const keys = join(home, "keys");
const env = { ...process.env, MESH_HOME: home };
const agentEnv = { ...env, MESH_KEY: join(keys, "agent.key") };
const QUESTION = "How does the e1000 driver allocate DMA buffers?";
const mesh = meshCli(env);

interface Fleet {
  workers: { id: string; pid: number; endpoint: string; scope: string }[];
  manager: { pid: number; supervisor?: number } | null;
}
const fleetDir = () => join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string);
const fleetFile = () => JSON.parse(readFileSync(join(fleetDir(), "fleet.json"), "utf8")) as Fleet;
const policy = (grants: unknown[]) => writeFileSync(join(root, "mesh-policy.json"), JSON.stringify({ version: 1, grants }));

let pids: number[] = [];
beforeAll(async () => {
  cpSync(C_KERNEL_DIR, root, { recursive: true });
  const up = await mesh(["up", root, "--json"]);
  expect(up.code, up.stderr).toBe(0);
  const fleet = fleetFile();
  pids = [...fleet.workers.map((w) => w.pid), fleet.manager?.pid ?? -1, fleet.manager?.supervisor ?? -1];
  expect((await mesh(["keys", "gen", "agent", "--dir", keys])).code).toBe(0);
  expect((await mesh(["keys", "add", "agent", join(keys, "agent.pub")])).code).toBe(0);
}, 180_000);
afterAll(async () => {
  await mesh(["down", root]);
  for (const pid of pids) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

describe("the access policy of a secured fleet", () => {
  it("grants an admitted key nothing until the policy does, and audits the refusal", async () => {
    const refused = await mesh(["ask", QUESTION], agentEnv);
    expect(refused.code, refused.stderr).toBe(77);
    expect(refused.stderr).toMatch(/ask refused: .*may not ask on any scope/);
    const audit = readFileSync(join(fleetDir(), "audit", "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit).toContainEqual(expect.objectContaining({ kind: "refused", op: "ask" }));
    // The fleet's own key is not limited.
    expect((await mesh(["ask", QUESTION, "--json"])).code).toBe(0);
  });

  it("allows only the ops and scopes granted, read again when the file changes, by the manager and each worker", async () => {
    policy([{ client: "agent", ops: ["ask"], scopes: ["drivers", "kern*"] }]);
    await expect.poll(async () => (await mesh(["ask", QUESTION, "--json"], agentEnv)).code, { timeout: 10_000 }).toBe(0);
    const answer = JSON.parse((await mesh(["ask", QUESTION, "--json"], agentEnv)).stdout) as { query_path: string[]; chain?: { scope: string }[] };
    // The search sees only the granted scopes.
    for (const scope of [...answer.query_path, ...(answer.chain ?? []).map((s) => s.scope)]) expect(["drivers", "kernel"]).toContain(scope);

    const toMm = await mesh(["ask", QUESTION, "--to", "mm"], agentEnv);
    expect(toMm.code).toBe(77);
    expect(toMm.stderr).toMatch(/ask on scope "mm"/);
    const delegate = await mesh(["delegate", "--scope", "drivers", "--task", "Where is e1000_probe defined?"], agentEnv);
    expect(delegate.code).toBe(77);
    expect(delegate.stderr).toMatch(/delegate on scope "drivers"/);
    const planFile = join(home, "plan.json");
    writeFileSync(planFile, JSON.stringify({ tasks: [{ id: "a", scope: "drivers", task: "Where is e1000_probe defined?" }] }));
    const workspaces = () => (existsSync(join(fleetDir(), "workspaces")) ? readdirSync(join(fleetDir(), "workspaces")).length : 0);
    const before = workspaces();
    const plan = await mesh(["delegate", "--plan", planFile], agentEnv);
    expect(plan.code).toBe(77);
    expect(plan.stderr).toMatch(/delegate_plan on scope "drivers"/);
    expect(workspaces()).toBe(before); // refused whole, before any step ran

    // A worker asked directly checks the policy again.
    const keyPair = JSON.parse(readFileSync(join(keys, "agent.key"), "utf8")) as { publicKey: string; secretKey: string };
    const fleetKey = readFileSync(join(fleetDir(), "keyring", "fleet.pub"), "utf8").trim();
    const direct = (scope: string) => {
      const worker = fleetFile().workers.find((w) => w.scope === scope);
      return new MeshClient({ endpoint: worker?.endpoint ?? "", timeoutMs: 5_000, attempts: 1, curve: { ...keyPair, serverKey: fleetKey } });
    };
    const [mm, drivers] = [direct("mm"), direct("drivers")];
    try {
      await expect(mm.request("references", {})).rejects.toMatchObject({ name: "NackError", code: "unauthorized" });
      await expect(drivers.request("references", {})).resolves.toBeDefined();
      await expect(drivers.request("task", {})).rejects.toMatchObject({ code: "unauthorized", message: expect.stringMatching(/delegate on scope "drivers"/) });
    } finally {
      await mm.close();
      await drivers.close();
    }

    // A broken edit keeps the last good policy.
    writeFileSync(join(root, "mesh-policy.json"), "{ not json");
    expect((await mesh(["ask", QUESTION, "--json"], agentEnv)).code).toBe(0);
    expect((await mesh(["ask", QUESTION, "--to", "mm"], agentEnv)).code).toBe(77);
  });

  it("refuses a revoked key at once, and never shows a secret", async () => {
    policy([{ client: "agent", ops: ["ask", "delegate"], scopes: ["*"] }]);
    await expect.poll(async () => (await mesh(["ask", QUESTION, "--to", "mm", "--json"], agentEnv)).code, { timeout: 10_000 }).toBe(0);
    expect((await mesh(["keys", "revoke", "agent"])).code).toBe(0);
    await expect.poll(async () => (await mesh(["ask", QUESTION], agentEnv)).code, { timeout: 10_000 }).toBe(77);
    const after = await mesh(["ask", QUESTION], agentEnv);
    expect(after.stderr).toMatch(/refused/);
    const secret = (JSON.parse(readFileSync(join(keys, "agent.key"), "utf8")) as { secretKey: string }).secretKey;
    const fleetSecret = (JSON.parse(readFileSync(join(fleetDir(), "keys", "fleet.key"), "utf8")) as { secretKey: string }).secretKey;
    const logs = readdirSync(join(fleetDir(), "logs")).map((f) => readFileSync(join(fleetDir(), "logs", f), "utf8"));
    for (const text of [after.stderr, after.stdout, readFileSync(join(fleetDir(), "audit", "audit.jsonl"), "utf8"), ...logs]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(fleetSecret);
    }
  });
});
