// Names a file binds by importing, so a call can be traced to the module it came from.

export interface ImportBinding {
  /** The module spec as written ("node:child_process", "..pkg.mod", "subprocess"). */
  module: string;
  /** The imported member, or null when the name is bound to the module itself (namespace, default, require). */
  member: string | null;
}

export type ImportBindings = Map<string, ImportBinding>;

/** Module spec without the `node:` scheme, as risk rules name it. */
function canonicalModule(module: string): string {
  return module.startsWith("node:") ? module.slice("node:".length) : module;
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
