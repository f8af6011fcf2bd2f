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
    expect(scopes.find((s) => s.paths.includes("a/"))?.paths).toEqual(["a/", "b/", "c/", "d/"]);
  });

  it("gives one scope to a code base smaller than the target", () => {
    expect(proposeScopes([f("src/a.ts", 10), f("src/b.ts", 10)], 50_000)).toEqual([{ name: "src", paths: ["src/"], files: 2, lines: 20 }]);
  });
});
