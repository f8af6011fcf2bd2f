// The access policy file: its schema (unknown keys and malformed grants refused with the field at fault),
// grants by key or by keyring name, scope patterns, the fleet's own key, and reloading on change.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { newCurveKeys } from "../../../bus/index.js";
import { AccessPolicy, parsePolicy, PolicyError } from "../../../agents/access/policy.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const logger = pino({ level: "silent" });

function fixture(grants: unknown[]): { file: string; ring: string } {
  const dir = mkdtempSync(join(tmpdir(), "mesh-policy-"));
  dirs.push(dir);
  const file = join(dir, "mesh-policy.json");
  writeFileSync(file, JSON.stringify({ version: 1, grants }));
  return { file, ring: dir };
}

describe("the access policy", () => {
  it("refuses a malformed file with the field at fault", () => {
    expect(() => parsePolicy("{", "p.json")).toThrow(PolicyError);
    expect(() => parsePolicy(JSON.stringify({ version: 2, grants: [] }), "p.json")).toThrow(/p\.json: version/);
    expect(() => parsePolicy(JSON.stringify({ version: 1, grants: [], extra: 1 }), "p.json")).toThrow(/extra|unrecognized/i);
    expect(() => parsePolicy(JSON.stringify({ version: 1, grants: [{ client: "a", ops: ["write"], scopes: ["*"] }] }), "p.json")).toThrow(/grants\.0\.ops/);
    expect(() => parsePolicy(JSON.stringify({ version: 1, grants: [{ ops: ["ask"], scopes: ["*"] }] }), "p.json")).toThrow(/a client or a key/);
    expect(() => parsePolicy(JSON.stringify({ version: 1, grants: [{ key: "short", ops: ["ask"], scopes: ["*"] }] }), "p.json")).toThrow(/grants\.0\.key/);
  });

  it("grants by key or keyring name, on scopes or patterns; the own key may do everything, an unknown key nothing", () => {
    const [own, named, byKey, stranger] = [newCurveKeys(), newCurveKeys(), newCurveKeys(), newCurveKeys()];
    const { file, ring } = fixture([
      { client: "ci", ops: ["ask"], scopes: ["drivers*", "mm"] },
      { key: byKey.publicKey, ops: ["delegate", "delegate_plan"], scopes: ["*"] },
    ]);
    writeFileSync(join(ring, "ci.pub"), `${named.publicKey}\n`);
    const policy = new AccessPolicy({ file, ownKey: own.publicKey, keyringDir: ring, logger });
    expect(policy.check(own.publicKey, "delegate", "anything").allowed).toBe(true);
    expect(policy.check(named.publicKey, "ask", "drivers-net").allowed).toBe(true);
    expect(policy.check(named.publicKey, "ask", "mm").allowed).toBe(true);
    expect(policy.check(named.publicKey, "ask", "mmx").allowed).toBe(false);
    expect(policy.check(named.publicKey, "delegate", "mm")).toMatchObject({ allowed: false, reason: expect.stringMatching(/may not delegate on scope "mm"/) });
    expect(policy.check(byKey.publicKey, "delegate_plan", "kernel").allowed).toBe(true);
    expect(policy.check(byKey.publicKey, "ask", "kernel").allowed).toBe(false);
    expect(policy.check(stranger.publicKey, "ask", "mm").allowed).toBe(false);
    expect(policy.check(undefined, "ask", "mm").allowed).toBe(false);
    expect(policy.scopesFor(named.publicKey, "ask", ["drivers", "kernel", "mm"])).toEqual(["drivers", "mm"]);
    expect(policy.knows(named.publicKey)).toBe(true);
    expect(policy.knows(stranger.publicKey)).toBe(false);
  });

  it("reads the file again when it changes, keeps the last good policy on a broken edit, and grants only the own key once it is gone", () => {
    const [own, client] = [newCurveKeys(), newCurveKeys()];
    const { file } = fixture([]);
    const policy = new AccessPolicy({ file, ownKey: own.publicKey, logger });
    expect(policy.check(client.publicKey, "ask", "mm").allowed).toBe(false);
    writeFileSync(file, JSON.stringify({ version: 1, grants: [{ key: client.publicKey, ops: ["ask"], scopes: ["mm"] }] }));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(policy.check(client.publicKey, "ask", "mm").allowed).toBe(true);
    writeFileSync(file, "{ broken");
    utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    expect(policy.check(client.publicKey, "ask", "mm").allowed).toBe(true);
    rmSync(file);
    expect(policy.check(client.publicKey, "ask", "mm").allowed).toBe(false);
    expect(policy.check(own.publicKey, "ask", "mm").allowed).toBe(true);
  });

  it("refuses to start on a broken file", () => {
    const { file } = fixture([]);
    writeFileSync(file, JSON.stringify({ version: 1, grants: [{ client: "x", ops: [], scopes: ["*"] }] }));
    expect(() => new AccessPolicy({ file, ownKey: newCurveKeys().publicKey, logger })).toThrow(/grants\.0\.ops/);
  });

  it("accepts the example of docs/MANAGER.md", () => {
    const doc = readFileSync(new URL("../../../docs/MANAGER.md", import.meta.url), "utf8");
    const example = /## Access policy[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? "";
    expect(parsePolicy(example, "MANAGER.md").grants).toHaveLength(2);
  });
});
