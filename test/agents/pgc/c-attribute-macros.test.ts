// C: a definition after the kernel's format-attribute macro (`static __printf(3, 0) int kobject_add_varg(…)`)
// is a definition like any other: parsed with the macro blanked, named and cited from the file's own text,
// and its callers reach it inside the scope (tried on Linux's driver core: `kobject_add` → `kobject_add_varg`
// had been an exit to nowhere, so the path to `create_dir` was never seen).
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { withoutAttributeMacros } from "../../../agents/pgc/parse/c-attribute-macros.js";

const SOURCE = [
  "#define __printf(a, b) __attribute__((format(printf, a, b)))",
  "static __printf(3, 0) int kobject_add_varg(struct kobject *kobj,",
  "\t\t\t\t\t   struct kobject *parent, const char *fmt)",
  "{",
  "\treturn kobject_add_internal(kobj);",
  "}",
  "__printf(2, 3)",
  "int sysfs_emit(char *buf, const char *fmt, ...);",
  "int kobject_add(struct kobject *kobj, const char *fmt, ...)",
  "{",
  "\treturn kobject_add_varg(kobj, NULL, fmt);",
  "}",
  "",
].join("\n");

describe("a C definition after a format-attribute macro", () => {
  it("is blanked for the grammar only, to the same length, and a #define of the macro is left alone", () => {
    const blanked = withoutAttributeMacros(SOURCE);
    expect(blanked.length).toBe(SOURCE.length);
    expect(blanked.split("\n")[0]).toBe(SOURCE.split("\n")[0]);
    expect(blanked.split("\n")[1]).toBe("static                int kobject_add_varg(struct kobject *kobj,");
  });

  it("is extracted with its line, a signature from the file's text, and its callers' edge in the file", async () => {
    const parsed = await parseFile({ path: "lib/kobject.c", content: SOURCE, language: "c" });
    const varg = parsed.symbols.find((s) => s.name === "kobject_add_varg");
    expect(varg?.kind).toBe("function");
    expect(varg?.line_start).toBe(2);
    expect(varg?.signature).toContain("__printf(3, 0)");
    expect(parsed.calls.filter((c) => c.callee === "kobject_add_varg").map((c) => `${c.caller}:${c.line}`)).toEqual(["kobject_add:11"]);
    expect(parsed.calls.filter((c) => c.callee === "kobject_add_internal").map((c) => c.caller)).toEqual(["kobject_add_varg"]);
    expect(parsed.calls.some((c) => c.callee === "__printf")).toBe(false);
  });
});
