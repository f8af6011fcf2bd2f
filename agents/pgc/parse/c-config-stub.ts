// C: a function defined where a kernel configuration option is off — the `#else` of `#ifdef CONFIG_PM`, the
// body of `#ifndef CONFIG_PM` or `#if !IS_ENABLED(CONFIG_PM)` — while the other side of the same condition
// declares or defines the name too is the stand-in a build without the option compiles (`static inline int
// __pm_runtime_suspend(…) { return -ENOSYS; }` beside `extern int __pm_runtime_suspend(…);`); with the
// option on, what runs is the definition elsewhere (drivers/base/power/runtime.c). CodeSymbol.config_stub;
// PGC.md, call rule 4.
import type { Node } from "web-tree-sitter";

/** A condition that an option is on: `CONFIG_X`, `defined(CONFIG_X) && …`, `IS_ENABLED(CONFIG_X)`, with no negation in it. */
const ON = /\bCONFIG_\w+/;
/** A condition that one option is off, and nothing else: `!defined(CONFIG_X)`, `!IS_ENABLED(CONFIG_X)`. */
const OFF = /^\s*!\s*(?:(?:defined|IS_ENABLED|IS_BUILTIN|IS_REACHABLE)\s*\(\s*)?CONFIG_\w+\s*\)?\s*$/;
/** An option that turns something off (`CONFIG_CRYPTO_MANAGER_DISABLE_TESTS`): its `#else` is the code that runs. */
const DISABLING = /\bCONFIG_\w*(?:DISABLE|_NO_)\w*/;

/** Whether `node`, a definition of `name`, is the stand-in for a configuration option that is off. */
export function isConfigStub(node: Node, name: string): boolean {
  let inner: Node = node;
  for (let at = node.parent; at; inner = at, at = at.parent) {
    if (at.type !== "preproc_ifdef" && at.type !== "preproc_if") continue;
    const alternative = at.childForFieldName("alternative");
    const inElse = alternative !== null && alternative.id === inner.id;
    const condition = (at.type === "preproc_ifdef" ? at.childForFieldName("name") : at.childForFieldName("condition"))?.text ?? "";
    if (!ON.test(condition) || DISABLING.test(condition)) continue;
    const off =
      at.type === "preproc_ifdef"
        ? inElse !== (at.child(0)?.text ?? "").startsWith("#ifndef")
        : inElse ? !condition.includes("!") : OFF.test(condition);
    if (off && otherSideNames(at, alternative, inElse, name)) return true;
  }
  return false;
}

/** Whether the other side of the condition (its body when `inElse`, else its `#else`) declares or defines `name`. */
function otherSideNames(conditional: Node, alternative: Node | null, inElse: boolean, name: string): boolean {
  const text = inElse ? conditional.text.slice(0, (alternative as Node).startIndex - conditional.startIndex) : (alternative?.text ?? "");
  return new RegExp(`\\b${name}\\s*\\(`).test(text);
}
