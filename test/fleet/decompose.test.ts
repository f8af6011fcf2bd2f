import { describe, expect, it } from "vitest";
import { mulberry32, randomInt } from "../../agents/pgc/retrieval/prng.js";
import { autoTargetLines, proposeScopes } from "../../src/fleet/decompose.js";

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

  it("packs tiny siblings (under a tenth of the target) together, up to a quarter of the target", () => {
    const files = ["a", "b", "c", "d"].map((d) => f(`${d}/x.c`, 100));
    const scopes = proposeScopes([...files, f("zz/y.c", 10_000)], 10_000);
    expect(scopes.find((s) => s.paths.includes("a/"))).toMatchObject({ name: "a_b_c_1more", paths: ["a/", "b/", "c/", "d/"] });
    const many = proposeScopes([...["a", "b", "c", "d", "e", "f"].map((d) => f(`${d}/x.c`, 900)), f("zz/y.c", 10_000)], 10_000);
    expect(many.filter((s) => s.paths.length > 1).map((s) => s.lines)).toEqual([1_800, 1_800, 1_800]);
  });

  it("keeps a package of real size as its own scope, and packs the tiny ones around it even when apart", () => {
    const scopes = proposeScopes([f("a/x.py", 100), f("asyncio/x.py", 4_000), f("c/x.py", 100), f("email/x.py", 3_000), f("zz/big.py", 10_000)], 10_000);
    expect(scopes.map((s) => s.name)).toEqual(["a_c", "asyncio", "email", "zz"]);
    expect(scopes.map((s) => s.lines)).toEqual([200, 4_000, 3_000, 10_000]);
  });

  it("lets a few leftover lines join their smallest sibling rather than become a worker of their own", () => {
    const scopes = proposeScopes([f("v4/index.ts", 4), f("v4/core/a.ts", 8_000), f("v4/mini/a.ts", 3_000), f("v3/a.ts", 9_000)], 10_000);
    expect(scopes.find((s) => s.paths.includes("v4/index.ts"))).toMatchObject({ name: "v4-mini_index", paths: ["v4/mini/", "v4/index.ts"], lines: 3_004 });
    expect(scopes).toHaveLength(3);
  });

  it("splits a directory's files into groups of about equal size, with no small remainder", () => {
    const scopes = proposeScopes(Array.from({ length: 11 }, (_, i) => f(`mm/f${String(i).padStart(2, "0")}.c`, 200)), 1_000);
    expect(scopes.map((s) => s.name)).toEqual(["mm", "mm-2", "mm-3"]);
    const sizes = scopes.map((s) => s.lines);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(200);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1_000);
  });

  it("names a scope of packed siblings after what it holds, and keeps names unique and valid as node ids", () => {
    const scopes = proposeScopes([f("asyncio/a.py", 300), f("email/e.py", 200), f("http/h.py", 100), f("zz/big.py", 10_000)], 10_000);
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
    expect(proposeScopes([f("lib/a.py", 1_000), f("tests/t.py", 1_000), f("setup.py", 30)], 50_000)).toEqual([
      { name: "lib_setup_tests", paths: ["lib/", "setup.py", "tests/"], files: 3, lines: 2_030 },
    ]);
  });

  it("without a target, cuts a mid-sized code base into about eight scopes, and leaves a small one whole", () => {
    expect([4_000, 21_000, 304_000, 3_000_000].map(autoTargetLines)).toEqual([5_000, 5_000, 38_000, 50_000]);
    const packages = ["core", "http", "json", "cli", "db", "ui"].map((name) => f(`${name}/index.ts`, 4_000));
    expect(proposeScopes(packages).map((s) => s.name)).toEqual(["cli", "core", "db", "http", "json", "ui"]);
    expect(proposeScopes([f("core/index.ts", 2_000), f("http/index.ts", 2_000)])).toHaveLength(1);
  });

  it("packs a monorepo crowded with packages harder when it chose the target itself, not when given one", () => {
    // 50 packages of 3,000 lines: 150,000 lines, target 18,750; each package is past a tenth of it.
    const monorepo = Array.from({ length: 50 }, (_, i) => f(`packages/p${String(i).padStart(2, "0")}/index.ts`, 3_000));
    const automatic = proposeScopes(monorepo);
    expect(automatic.length).toBeLessThanOrEqual(4 * 8);
    expect(automatic.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...automatic.map((s) => s.lines))).toBeLessThanOrEqual(18_750);
    expect(proposeScopes(monorepo, 18_750)).toHaveLength(50);
  });

  it("on random trees, covers every file exactly once, keeps scopes under the target but for one big file, and names them validly", () => {
    const random = mulberry32(42);
    for (let trial = 0; trial < 200; trial++) {
      const files = Array.from({ length: 1 + randomInt(random, 120) }, (_, i) => {
        const depth = randomInt(random, 4);
        const dirs = Array.from({ length: depth }, () => `d${randomInt(random, 5)}`);
        const lines = randomInt(random, 10) === 0 ? randomInt(random, 30_000) : randomInt(random, 1_500);
        return f([...dirs, `f${i}.c`].join("/"), lines);
      });
      const total = files.reduce((sum, file) => sum + file.lines, 0);
      const target = randomInt(random, 2) === 0 ? undefined : 500 + randomInt(random, 20_000);
      const scopes = proposeScopes(files, target);
      const limit = target ?? autoTargetLines(total);
      // Every file is under exactly one scope path.
      for (const file of files) {
        const owners = scopes.filter((s) => s.paths.some((p) => (p.endsWith("/") ? file.path.startsWith(p) : file.path === p)));
        expect(owners, file.path).toHaveLength(1);
      }
      expect(scopes.reduce((sum, s) => sum + s.files, 0)).toBe(files.length);
      expect(scopes.reduce((sum, s) => sum + s.lines, 0)).toBe(total);
      for (const scope of scopes) {
        if (scope.files > 1) expect(scope.lines, scope.name).toBeLessThanOrEqual(limit);
        expect(`${scope.name}-12`).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/);
      }
      expect(new Set(scopes.map((s) => s.name)).size).toBe(scopes.length);
    }
  });
});
