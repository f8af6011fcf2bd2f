// Names a file binds by importing, so a call can be traced to the module it came from.

export interface ImportBinding {
  /** The module spec as written ("node:child_process", "..pkg.mod", "subprocess"). */
  module: string;
  /** The imported member, or null when the name is bound to the module itself (namespace, default, require). */
  member: string | null;
  /** The name is the module's namespace (`import * as m`, `require("m")`, Python's `import m`): `m.f` is a member of the module. */
  namespace?: boolean;
  /** JS: the name is the module's default export (`import adapters from "./adapters.js"`). */
  default?: true;
  /** The member is bound under another name (`from m import A as B`, `import { a as b }`): the line renaming it. */
  line?: number;
}

export type ImportBindings = Map<string, ImportBinding>;

/** A call through an imported module: the module as the call reaches it, and the member called. */
export interface ModuleMember {
  module: string;
  member: string;
  /** The module the file's import statement names, when the call's module is a submodule of it (`from a.b import c`, `c.f()`). */
  imported?: string;
}

/** Module spec without the `node:` scheme, as risk rules name it. */
function canonicalModule(module: string): string {
  return module.startsWith("node:") ? module.slice("node:".length) : module;
}

/** Dotted names only ("email.utils.formatdate", "core.$constructor"): not `x[0].run` or a call on a call's result. */
const DOTTED_CALLEE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * A call through a module the file bound as a namespace (`json.dumps(…)` after `import json`, `np.array(…)`
 * after `import numpy as np`, `core.$constructor(…)` after `import * as core from "../core"`): the module
 * as the import spelled it, and the member called. `nested` lets the member sit in a submodule
 * (Python's `email.utils.formatdate` after `import email.utils`); JavaScript modules have none.
 */
export function moduleMember(callee: string, plain: boolean, bindings: ImportBindings, nested: boolean): { module_member?: ModuleMember } {
  if (plain || !DOTTED_CALLEE.test(callee)) return {};
  const head = callee.slice(0, callee.indexOf("."));
  const binding = bindings.get(head);
  const lastDot = callee.lastIndexOf(".");
  // JS: a name imported from a module (`import { util } from "../core/index.js"`, then `util.extend(…)`) is
  // an object of that module (often a namespace it re-exports, `export * as util from "./util.js"`): its
  // member is the module's too, to be found where the module's code is.
  const namedObject = !nested && binding !== undefined && binding.member !== null && lastDot === head.length;
  // A lower-case default import is, by the same habit, an object of the module's functions (axios's
  // `export default { getAdapter, … }`, then `adapters.getAdapter(…)`); a capitalised one is a class.
  const defaultObject = !nested && binding?.default === true && /^[a-z_$]/.test(head) && lastDot === head.length;
  const member = callee.slice(lastDot + 1);
  // Python: a lower-case name imported from a package is, by the language's naming habit, a module of it
  // (`from docutils.utils.math import latex2mathml`, then `latex2mathml.tex2mathml(…)`): the call is into that
  // module. A capitalised one is a class, whose method the call graph finds by its class (resolve-callee.ts).
  if (nested && binding !== undefined && binding.member !== null && !binding.namespace && /^[a-z_]/.test(head)) {
    const module = `${binding.module}${binding.module.endsWith(".") ? "" : "."}${binding.member}${callee.slice(head.length, lastDot)}`;
    return { module_member: { module, member, imported: binding.module } };
  }
  if (!(binding?.namespace || namedObject || defaultObject) || (!nested && lastDot !== head.length)) return {};
  return { module_member: { module: (binding as ImportBinding).module + callee.slice(head.length, lastDot), member } };
}

/**
 * A plain call of a name its file's import renamed (`_AddressList(…)` after `from email._parseaddr import
 * AddressList as _AddressList`): the name the module defines, and the line renaming it.
 */
export function renamedImport(callee: string, plain: boolean, bindings: ImportBindings): { renamed?: { name: string; line: number } } {
  const binding = plain ? bindings.get(callee) : undefined;
  if (!binding || binding.member === null || binding.line === undefined || binding.member === callee) return {};
  return { renamed: { name: binding.member, line: binding.line } };
}

/**
 * The names a call may be known by: as written, and qualified through the file's imports
 * (`exec` imported from child_process → `child_process.exec`; `sp.run` with `import subprocess as sp` →
 * `subprocess.run`). Member calls are also offered as `*.member`.
 */
export function candidateNames(callee: string, plain: boolean, bindings: ImportBindings): string[] {
  const names = [callee];
  const head = plain ? callee : (/^[A-Za-z_$][\w$]*/.exec(callee)?.[0] ?? "");
  const binding = head === "" ? undefined : bindings.get(head);
  if (binding) {
    const base = canonicalModule(binding.module) + (binding.member ? `.${binding.member}` : "");
    names.push(base + callee.slice(head.length));
  }
  if (!plain) {
    const last = /[\w$]+$/.exec(callee)?.[0];
    if (last) names.push(`*.${last}`);
  }
  return names;
}
