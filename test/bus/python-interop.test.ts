// A member written in Python from docs/PROTOCOL.md alone joins a mesh of TypeScript nodes:
// it is discovered, answers requests, gets answers to its own, and leaves with BYE.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Keyring, newCurveKeys } from "../../bus/index.js";
import { aliveIds, FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";

const SCRIPT = fileURLToPath(new URL("../../scripts/interop/python_member.py", import.meta.url));
const PYTHON = "/usr/bin/python3";
// .ci/run installs Debian's python3-zmq and python3-msgpack; a developer machine may lack them.
const available = spawnSync(PYTHON, ["-c", "import zmq, msgpack"]).status === 0;
// A secured member also needs CURVE in libzmq and X25519 from python3-cryptography (§11b).
const securable = available && spawnSync(PYTHON, ["-c", "import zmq, cryptography; assert zmq.has('curve')"]).status === 0;

const nodes = new NodeSet();
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await nodes.stopAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!available)("a Python member written from PROTOCOL.md", () => {
  it("joins, answers, asks, and leaves", { timeout: 30_000 }, async () => {
    const seed = await nodes.start({ id: "ts-seed", ...FAST_LIVENESS });
    const other = await nodes.start({ id: "ts-other", seeds: [seed.endpoint], ...FAST_LIVENESS });
    const child = spawn(PYTHON, [SCRIPT, "--id", "py1", "--seed", seed.endpoint], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    const events: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout! }).on("line", (line) => events.push(JSON.parse(line) as Record<string, unknown>));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));

    await expect.poll(() => aliveIds(seed), { timeout: 10_000 }).toEqual(["py1", "ts-other"]);
    await expect.poll(() => aliveIds(other), { timeout: 10_000 }).toEqual(["py1", "ts-seed"]);
    await expect(other.request("py1", "echo", { n: [1, 2, 3], s: "ü" })).resolves.toEqual({ n: [1, 2, 3], s: "ü" });
    await expect(seed.request("py1", "nope", {})).rejects.toMatchObject({ code: "unknown_op" });
    // Its own request to the first node it learned was answered.
    await expect.poll(() => events.find((e) => e["event"] === "reply")).toMatchObject({ body: { result: { role: "node" } } });

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect.poll(() => aliveIds(seed)).toEqual(["ts-other"]);
  });

  it("finds the cases PROTOCOL.md settles answered as it says: answers are never NACKed, a request before hello is served, a leaver is no longer a live member", { timeout: 30_000 }, async () => {
    const seed = await nodes.start({ id: "ts-seed2", ...FAST_LIVENESS });
    const child = spawn(PYTHON, [SCRIPT, "--id", "py2", "--seed", seed.endpoint, "--probe"], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    const events: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout! }).on("line", (line) => events.push(JSON.parse(line) as Record<string, unknown>));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // Its own ping was answered, and so was the request sent before any hello on its second connection.
    await expect.poll(() => events.filter((e) => e["event"] === "reply").map((e) => String(e["corr"]).replace(/^py\.\d+$/, "py.N")).sort(), { timeout: 10_000 }).toEqual(["early.1", "py.N"]);
    await expect.poll(() => seed.stats.snapshot()["dropped_without_corr"] ?? 0).toBe(3);
    await expect.poll(() => seed.stats.snapshot()["dropped_bad_answer"] ?? 0).toBe(1);
    // None of its probes was NACKed back.
    expect(events.filter((e) => e["event"] === "nack")).toEqual([]);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // It said bye: the seed marks it leaving at once (no longer alive, no longer gossiped).
    await expect.poll(() => seed.peers().find((p) => p.card.id === "py2")?.state ?? "gone").toMatch(/^(leaving|gone)$/);
    expect(aliveIds(seed)).toEqual([]);
  });

  it.skipIf(!securable)("joins a secured mesh from §11a and §11b: CURVE with its own ZAP handler, and a client request signed with auth", { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesh-py-curve-"));
    dirs.push(dir);
    const [a, b, py] = [newCurveKeys(), newCurveKeys(), newCurveKeys()];
    for (const [name, keys] of Object.entries({ a, b, py })) writeFileSync(join(dir, `${name}.pub`), `${keys.publicKey}\n`);
    writeFileSync(join(dir, "py.key"), JSON.stringify(py), { mode: 0o600 });
    const seed = await nodes.start({ id: "ts-sec-a", ...FAST_LIVENESS, curve: { ...a, keyring: Keyring.fromDir(dir) } });
    const other = await nodes.start({ id: "ts-sec-b", ...FAST_LIVENESS, curve: { ...b, keyring: Keyring.fromDir(dir) }, seeds: [`${seed.endpoint}#${a.publicKey}`] });
    const child = spawn(PYTHON, [SCRIPT, "--id", "pysec", "--seed", `${seed.endpoint}#${a.publicKey}`, "--curve", join(dir, "py.key"), "--keyring", dir], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    const events: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout! }).on("line", (line) => events.push(JSON.parse(line) as Record<string, unknown>));
    await expect.poll(() => aliveIds(seed), { timeout: 10_000 }).toEqual(["pysec", "ts-sec-b"]);
    await expect.poll(() => aliveIds(other), { timeout: 10_000 }).toEqual(["pysec", "ts-sec-a"]);
    expect(seed.peerCard("pysec")?.curve_key).toBe(py.publicKey);
    // The TypeScript nodes dial it through its own ZAP handler.
    await expect(other.request("pysec", "echo", { s: "secured" })).resolves.toEqual({ s: "secured" });
    // Its client request, signed as §11b says, was served (a bad MAC would have been NACKed unauthorized).
    await expect.poll(() => events.find((e) => e["corr"] === "auth.1"), { timeout: 10_000 }).toMatchObject({ event: "reply", body: { result: { id: "ts-sec-a" } } });
    expect(seed.stats.snapshot()["unauthorized"] ?? 0).toBe(0);
  });
});
