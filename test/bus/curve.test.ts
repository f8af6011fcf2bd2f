// CURVE on real sockets: secured nodes admit only keys in their keyring (a ZAP handler per node), a
// refused handshake is counted and never stops a node, a client needs an admitted key, secrets never
// travel in a card, and a key taken out of the keyring cuts its holder off within one gossip period.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keyring, MeshClient, newCurveKeys, type CurveKeys } from "../../bus/index.js";
import { aliveIds, FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";

const nodes = new NodeSet();
const dirs: string[] = [];
const clients: MeshClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await nodes.stopAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A keyring directory holding the public keys of `holders`. */
function keyringDir(holders: Record<string, CurveKeys>): string {
  const dir = mkdtempSync(join(tmpdir(), "mesh-keyring-"));
  dirs.push(dir);
  for (const [name, keys] of Object.entries(holders)) writeFileSync(join(dir, `${name}.pub`), `${keys.publicKey}\n`);
  return dir;
}

describe("a secured mesh", () => {
  it("admits the nodes whose keys are in its keyring and refuses the others, counting the refusals", { timeout: 20_000 }, async () => {
    const [a, b, stranger] = [newCurveKeys(), newCurveKeys(), newCurveKeys()];
    const dir = keyringDir({ a, b });
    const nodeA = await nodes.start({ id: "a", ...FAST_LIVENESS, curve: { ...a, keyring: Keyring.fromDir(dir) } });
    const nodeB = await nodes.start({ id: "b", ...FAST_LIVENESS, curve: { ...b, keyring: Keyring.fromDir(dir) }, seeds: [`${nodeA.endpoint}#${a.publicKey}`] });
    // The stranger knows the mesh's keys but holds a key the mesh does not admit.
    const strangerNode = await nodes.start({ id: "s", ...FAST_LIVENESS, curve: { ...stranger, keyring: new Keyring([a.publicKey, b.publicKey, stranger.publicKey]) }, seeds: [`${nodeA.endpoint}#${a.publicKey}`] });
    await expect.poll(() => aliveIds(nodeA), { timeout: 10_000 }).toEqual(["b"]);
    await expect.poll(() => aliveIds(nodeB)).toEqual(["a"]);
    await expect(nodeB.request("a", "ping", {})).resolves.toMatchObject({ id: "a" });
    await expect.poll(() => nodeA.stats.snapshot()["curve_refused"] ?? 0).toBeGreaterThan(0);
    expect(aliveIds(strangerNode)).toEqual([]);
    // The public key travels in the card; the secret never does.
    const card = nodeB.peerCard("a");
    expect(card?.curve_key).toBe(a.publicKey);
    expect(JSON.stringify(card)).not.toContain(a.secretKey);
    expect(JSON.stringify(nodeA.peers())).not.toContain(b.secretKey);
  });

  it("serves a client with an admitted key, and nothing to one without", { timeout: 20_000 }, async () => {
    const [server, friend, other] = [newCurveKeys(), newCurveKeys(), newCurveKeys()];
    const node = await nodes.start({ id: "srv", ...FAST_LIVENESS, curve: { ...server, keyring: new Keyring([server.publicKey, friend.publicKey]) } });
    const welcome = new MeshClient({ endpoint: node.endpoint, timeoutMs: 3_000, curve: { ...friend, serverKey: server.publicKey } });
    const refused = new MeshClient({ endpoint: node.endpoint, timeoutMs: 10_000, attempts: 1, curve: { ...other, serverKey: server.publicKey } });
    const plain = new MeshClient({ endpoint: node.endpoint, timeoutMs: 600, attempts: 1 });
    clients.push(welcome, refused, plain);
    await expect(welcome.request("ping", {})).resolves.toMatchObject({ id: "srv" });
    // The node refuses the key in the handshake: the client learns it at once, not at its deadline.
    await expect(refused.request("ping", {})).rejects.toMatchObject({ name: "AuthRefusedError", code: "unauthorized" });
    await expect(plain.request("ping", {})).rejects.toMatchObject({ name: "TimeoutError" });
    expect(node.stats.snapshot()["curve_refused"]).toBeGreaterThan(0);
    // Still serving.
    await expect(welcome.request("ping", {})).resolves.toMatchObject({ id: "srv" });
  });

  it("cuts a revoked key's holder off within a gossip period, without restarting anyone", { timeout: 20_000 }, async () => {
    const [a, b] = [newCurveKeys(), newCurveKeys()];
    const dir = keyringDir({ a, b });
    const nodeA = await nodes.start({ id: "ra", ...FAST_LIVENESS, curve: { ...a, keyring: Keyring.fromDir(dir) } });
    const nodeB = await nodes.start({ id: "rb", ...FAST_LIVENESS, curve: { ...b, keyring: new Keyring([a.publicKey, b.publicKey]) }, seeds: [`${nodeA.endpoint}#${a.publicKey}`] });
    await expect.poll(() => aliveIds(nodeA), { timeout: 10_000 }).toEqual(["rb"]);
    rmSync(join(dir, "b.pub"));
    await expect.poll(() => aliveIds(nodeA), { timeout: 5_000 }).toEqual([]);
    // Its connection, opened before the revocation, is refused too.
    await expect(nodeB.request("ra", "ping", {}, { timeoutMs: 1_000 })).rejects.toThrow();
    expect(nodeA.stats.snapshot()["curve_revoked"] ?? 0).toBeGreaterThan(0);
  });

  it("knows which key sent each request: a client proves its key per request, a forged or revoked one is refused, an authorizer decides", { timeout: 20_000 }, async () => {
    const [server, friend, other] = [newCurveKeys(), newCurveKeys(), newCurveKeys()];
    const dir = keyringDir({ server, friend, other });
    const node = await nodes.start({ id: "authz", ...FAST_LIVENESS, curve: { ...server, keyring: Keyring.fromDir(dir) } });
    const seen: (string | undefined)[] = [];
    node.handle("whoami", (_args, ctx) => ctx.principal ?? null);
    node.authorize(({ op, principal }) => {
      seen.push(principal);
      return op === "secret" && principal !== server.publicKey ? `only the node's own key may call secret` : undefined;
    });
    node.handle("secret", () => 42);
    const friendly = new MeshClient({ endpoint: node.endpoint, timeoutMs: 3_000, attempts: 1, curve: { ...friend, serverKey: server.publicKey } });
    const own = new MeshClient({ endpoint: node.endpoint, timeoutMs: 3_000, attempts: 1, curve: { ...server, serverKey: server.publicKey } });
    clients.push(friendly, own);
    await expect(friendly.request("whoami", {})).resolves.toBe(friend.publicKey);
    await expect(own.request("secret", {})).resolves.toBe(42);
    await expect(friendly.request("secret", {})).rejects.toMatchObject({ name: "NackError", code: "unauthorized", message: expect.stringMatching(/only the node's own key/) });
    expect(seen).toEqual([friend.publicKey, server.publicKey, friend.publicKey]);
    // A client admitted by the handshake that claims another admitted key cannot sign for it.
    const forger = new MeshClient({ endpoint: node.endpoint, timeoutMs: 3_000, attempts: 1, curve: { ...other, serverKey: server.publicKey } });
    clients.push(forger);
    Object.assign(forger as unknown as { options: { curve: { publicKey: string } } }).options.curve.publicKey = server.publicKey;
    await expect(forger.request("secret", {})).rejects.toMatchObject({ code: "unauthorized", message: expect.stringMatching(/does not verify/) });
    // A key revoked while its connection stays open: the next request is refused.
    rmSync(join(dir, "friend.pub"));
    await expect.poll(async () => friendly.request("whoami", {}).then(() => "served", (e: { code?: string }) => e.code), { timeout: 5_000 }).toBe("unauthorized");
    expect(node.stats.snapshot()["unauthorized"]).toBeGreaterThan(0);
  });

  it("refuses to start a secured node whose seeds lack the seed's public key", () => {
    const keys = newCurveKeys();
    return expect(nodes.start({ id: "x", curve: { ...keys, keyring: new Keyring() }, seeds: ["tcp://127.0.0.1:1"] })).rejects.toThrow(/ENDPOINT#PUBLICKEY/);
  });
});

