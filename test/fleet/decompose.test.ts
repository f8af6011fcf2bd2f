import { describe, expect, it } from "vitest";
import { proposeScopes } from "../../src/fleet/decompose.js";

const f = (path: string, lines: number) => ({ path, lines });

describe("proposeScopes", () => {
  it("keeps directories that fit whole, splits larger ones, never splits a file", () => {
    const files = [f("net/a.c", 300), f("net/b.c", 300), f("drivers/net/e.c", 700), f("drivers/usb/u.c", 600), f("mm/p.c", 400), f("huge.c", 5_000)];
    const scopes = proposeScopes(files, 1_000);
    const all = scopes.flatMap((s) => s.paths);
    expect(all).toContain("net/");
    expect(all).toContain("drivers/net/");
    expect(all).toContain("drivers/usb/");
    expect(all).toContain("huge.c");
    expect(scopes.reduce((sum, s) => sum + s.lines, 0)).toBe(7_300);
    expect(new Set(scopes.map((s) => s.name)).size).toBe(scopes.length);
  });

  it("packs small siblings together up to the target", () => {
    const files = ["a", "b", "c", "d"].map((d) => f(`${d}/x.c`, 100));
    const scopes = proposeScopes([...files, f("zz/y.c", 10_000)], 1_000);
    expect(scopes.find((s) => s.paths.includes("a/"))).toMatchObject({ name: "a_b_c_1more", paths: ["a/", "b/", "c/", "d/"] });
  });

  it("names a scope of packed siblings after what it holds, and keeps names unique and valid as node ids", () => {
    const scopes = proposeScopes([f("asyncio/a.py", 300), f("email/e.py", 200), f("http/h.py", 100), f("zz/big.py", 10_000)], 1_000);
    const packed = scopes.find((s) => s.paths.length > 1);
    expect(packed?.name).toBe(packed?.paths.map((p) => p.replace(/\/$/, "")).join("_"));
    expect(packed?.paths[0]).toBe("asyncio/");
    const split = proposeScopes(["a", "b", "c", "d", "e", "f"].map((n) => f(`mm/${n}.c`, 400)), 1_000);
    expect(split.map((s) => s.name)).toEqual(["mm", "mm-2", "mm-3"]);
    const twins = proposeScopes([f("x/a.c", 10), f("x.c", 10), f("big/b.c", 5_000), f("big/c.c", 5_000)], 1_000);
    for (const scope of twins) expect(`${scope.name}-1`).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/);
    expect(new Set(twins.map((s) => s.name)).size).toBe(twins.length);
  });

  it("gives one scope to a code base smaller than the target", () => {
    expect(proposeScopes([f("src/a.ts", 10), f("src/b.ts", 10)], 50_000)).toEqual([{ name: "src", paths: ["src/"], files: 2, lines: 20 }]);
  });
});
