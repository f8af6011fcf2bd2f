// C: a function defined where a configuration option is off (the `#else` of `#ifdef CONFIG_PM`, `#ifndef
// CONFIG_PM`, `#if !IS_ENABLED(CONFIG_PM)`), the other side of the condition naming it too, is the stand-in
// of a build without it. A call of its name goes to
// the definition elsewhere — another scope's, by an exit, or the scope's own — and the stand-in is never
// where a question starts (tried on Linux's driver core: `pm_runtime_put_sync_suspend` had gone into the
// header's `return -ENOSYS;` instead of drivers/base/power/runtime.c). Parsed for real, each scope's own PGC.
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";

const HEADER = sourceLines(
  "#ifdef CONFIG_PM",
  "extern int __pm_runtime_suspend(struct device *dev, int rpmflags);",
  "static inline int pm_runtime_enabled(struct device *dev) { return dev->enabled; }",
  "#else /* !CONFIG_PM */",
  "static inline int __pm_runtime_suspend(struct device *dev, int rpmflags) { return -ENOSYS; }",
  "static inline int pm_runtime_enabled(struct device *dev) { return 0; }",
  "static inline int pm_runtime_only_off(struct device *dev) { return 0; }",
  "#endif",
  "#ifndef CONFIG_PM_SLEEP",
  "static inline int device_pm_wait(struct device *dev) { return 0; }",
  "#else",
  "static inline int device_pm_wait(struct device *dev) { return wait_for(dev); }",
  "#endif",
  "#if !IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS)",
  "static inline int genpd_attach(struct device *dev) { return -ENODEV; }",
  "#else",
  "extern int genpd_attach(struct device *dev);",
  "#endif",
  "#if IS_ENABLED(CONFIG_OF) && defined(CONFIG_PM)",
  "static inline int of_genpd_add(struct device *dev) { return 1; }",
  "#else",
  "static inline int of_genpd_add(struct device *dev) { return 0; }",
  "#endif",
  "#ifdef CONFIG_CRYPTO_MANAGER_DISABLE_TESTS",
  "static inline int alg_test(struct device *dev) { return 0; }",
  "#else",
  "static inline int alg_test(struct device *dev) { return run_tests(dev); }",
  "#endif",
  "#ifdef __KERNEL__",
  "static inline int kernel_only(struct device *dev) { return 2; }",
  "#else",
  "static inline int kernel_only(struct device *dev) { return 3; }",
  "#endif",
  "/* drop the usage count and suspend the device right away */",
  "static inline int pm_runtime_put_sync_suspend(struct device *dev)",
  "{",
  "\treturn __pm_runtime_suspend(dev, 0);",
  "}",
);

const RUNTIME = sourceLines(
  "/* the runtime suspend of a device: run its callbacks */",
  "int __pm_runtime_suspend(struct device *dev, int rpmflags)",
  "{",
  "\treturn rpm_suspend(dev, rpmflags);",
  "}",
  "static int rpm_suspend(struct device *dev, int rpmflags)",
  "{",
  "\treturn 0;",
  "}",
);

describe("a C stand-in for a configuration option that is off", () => {
  it("is marked where the file's conditions say the option is off, and only there", async () => {
    const parsed = await parseFile({ path: "include/pm_runtime.h", content: HEADER, language: "c" });
    const stubs = parsed.symbols.filter((s) => s.kind === "function").map((s) => `${s.name}:${s.line_start}:${s.config_stub === true}`);
    expect(stubs).toEqual([
      "pm_runtime_enabled:3:false",
      "__pm_runtime_suspend:5:true",
      "pm_runtime_enabled:6:true",
      // Nothing on the other side of the condition names it: it is all there is.
      "pm_runtime_only_off:7:false",
      "device_pm_wait:10:true",
      "device_pm_wait:12:false",
      "genpd_attach:15:true",
      "of_genpd_add:20:false",
      "of_genpd_add:22:true",
      // An option that turns something off: its `#else` is what runs.
      "alg_test:25:false",
      "alg_test:27:false",
      // Not a configuration option: both are what some build compiles.
      "kernel_only:30:false",
      "kernel_only:32:false",
      "pm_runtime_put_sync_suspend:35:false",
    ]);
  });

  describe("in a scope's call graph", () => {
    const scopes = withScopes("mesh-config-stub-", { include: { "include/pm_runtime.h": HEADER }, power: { "power/runtime.c": RUNTIME } });
    const question = parseQuestion("How does a synchronous runtime PM put suspend the device?");
    const expand = (scope: string, symbol: string) => (scopes().get(scope) as Pgc).search().expand({ question, mode: "forward", from: { symbol }, covered: {} });

    it("leaves the scope for the definition elsewhere instead of calling the stand-in", async () => {
      const result = await expand("include", "pm_runtime_put_sync_suspend");
      const exits = result.leads.flatMap((l) => (l.exit ? [`${l.exit.target}@${l.exit.call_site.line}`] : []));
      expect(exits).toContain("__pm_runtime_suspend@37");
      expect(result.steps.map((s) => `${s.qualified}:${s.line_start}`)).not.toContain("__pm_runtime_suspend:5");
    });

    it("is no entry candidate", async () => {
      const entry = (scopes().get("include") as Pgc).search().entry(parseQuestion("Which runtime PM suspend does -ENOSYS?"), 8);
      expect(entry.candidates.map((c) => `${c.symbol}:${c.line_start}`)).not.toContain("__pm_runtime_suspend:5");
    });
  });

  describe("beside the real definition in one scope", () => {
    const scopes = withScopes("mesh-config-stub-one-", { base: { "base/pm_runtime.h": HEADER, "base/runtime.c": RUNTIME } });

    it("calls the real definition", async () => {
      const result = await (scopes().get("base") as Pgc).search().expand({ question: parseQuestion("How does a synchronous runtime PM put suspend the device?"), mode: "forward", from: { symbol: "pm_runtime_put_sync_suspend" }, covered: {} });
      const reached = result.steps.map((s) => `${s.file_path}:${s.qualified}`);
      expect(reached).toContain("base/runtime.c:__pm_runtime_suspend");
      expect(reached).not.toContain("base/pm_runtime.h:__pm_runtime_suspend");
    });
  });
});
