// Calls that leave the scope: to names defined nowhere in it, that are neither local nor the C library.
import type { CrossScopeReference } from "../types.js";
import { type ImportOutcome, outcomeKey } from "./link-imports.js";
import type { ParsedCall, ParsedFile } from "./parsed-file.js";
import { isCLibraryName } from "./stoplists/c-library.js";

/**
 * C/C++: a plain callee that is not a parameter or local function pointer, not defined in the scope and not
 * the C library. TS/JS/Python: a plain callee imported from a module that does not resolve inside the scope
 * and is not the standard library (other plain names there are builtins, locals or globals); Python also a
 * member called through such a module (`email.utils.formatdate(…)` after `import email.utils`, or
 * `latex2mathml.tex2mathml(…)` after `from docutils.utils.math import latex2mathml`).
 */
export function crossScopeCalls(
  parsed: readonly ParsedFile[],
  outcomes: ReadonlyMap<string, ImportOutcome>,
): CrossScopeReference[] {
  const defined = new Set<string>();
  // What a plain name can reach: the scope's definitions outside classes.
  const topLevel = new Set<string>();
  // A stand-in defined for a failed import (`except ImportError: def x(…)`) does not hide the import, nor a
  // C stand-in for a configuration option that is off (`#else` of `#ifdef CONFIG_PM`) the definition elsewhere.
  for (const file of parsed)
    for (const symbol of file.symbols)
      if (symbol.fallback_of === undefined && !symbol.config_stub) {
        defined.add(symbol.name);
        if (symbol.container === undefined) topLevel.add(symbol.name);
      }
  const references: CrossScopeReference[] = [];
  for (const file of parsed) {
    const cFamily = file.language === "c" || file.language === "cpp";
    for (const call of file.calls) {
      // A property read runs a getter of the scope's own class or nothing (CallSite.read).
      if (call.read) continue;
      const at = { from_file: call.file_path, line: call.line, caller: call.caller };
      if (leavesScope(call, cFamily, defined, topLevel, outcomes)) {
        // A renamed import is called by its new name; the module defines the old one (`_AddressList` is `AddressList`).
        references.push({ kind: "call", target: call.renamed?.name ?? call.callee, ...at, ...(call.imported_from === undefined ? {} : { module: call.imported_from }) });
      } else if (call.module_member && moduleOutcome(call.file_path, call.module_member, outcomes) === "outside") {
        // `json.dumps(…)` through `import json`, json being another scope's: a call of `dumps` from `json`, as `from json import dumps` gives.
        references.push({ kind: "call", target: call.module_member.member, ...at, module: call.module_member.module });
      }
    }
  }
  return references;
}

function leavesScope(
  call: ParsedCall,
  cFamily: boolean,
  defined: ReadonlySet<string>,
  topLevel: ReadonlySet<string>,
  outcomes: ReadonlyMap<string, ImportOutcome>,
): boolean {
  if (!call.plain || call.local) return false;
  // A plain name reaches no method: `isActive(…)` after `import { isActive } from "../helpers/isActive.js"`
  // in `Editor.isActive` calls the helper, whatever the scope's classes call their methods. A definition of
  // the name outside classes keeps the call in (mobx imports its own functions through a barrel module,
  // `import { endBatch } from "../internal"`, which lies in another scope and re-exports them).
  if (call.imported_from !== undefined) return !topLevel.has(call.callee) && outcomes.get(outcomeKey(call.file_path, call.imported_from)) === "outside";
  if (defined.has(call.callee)) return false;
  return cFamily && !isCLibraryName(call.callee);
}

/** Where the module a call goes through is: the submodule itself when it was linked (`.helpers` of `from . import helpers`), else the import statement's module. */
function moduleOutcome(file: string, member: NonNullable<ParsedCall["module_member"]>, outcomes: ReadonlyMap<string, ImportOutcome>): ImportOutcome | undefined {
  return outcomes.get(outcomeKey(file, member.module)) ?? outcomes.get(outcomeKey(file, member.imported ?? member.module));
}
