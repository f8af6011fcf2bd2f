// TS/JS modules that pass a name on (`export { _minLength as minLength } from "../core/index.js"`,
// `export * from "./x.js"`): a call through such a module (`checks.minLength(…)` after `import * as
// checks from "./checks.js"`) calls the definition the re-exports lead to, in the scope or outside it.
import { posix } from "node:path";
import type { ImportEdge } from "../types.js";

/** Re-exports followed from a module to the one defining a name. */
export const MAX_REEXPORT_HOPS = 4;

/** A renaming re-export on the way: the call names `name`; the line at `file_path:line` renames the callee to it. */
export interface AliasSite {
  name: string;
  file_path: string;
  line: number;
}

/** Where a re-exported name is defined: a file of the scope, or a module (root-relative) outside it; and the renaming line, if one. */
export interface PassedOn {
  file?: string;
  module?: string;
  name: string;
  alias?: AliasSite;
}

export class Reexports {
  private readonly byFile = new Map<string, ImportEdge[]>();

  constructor(
    imports: readonly ImportEdge[],
    /** Whether a file of the scope defines the name at module level. */
    private readonly defines: (file: string, name: string) => boolean,
  ) {
    for (const edge of imports) if (edge.reexport) this.byFile.set(edge.file_path, [...(this.byFile.get(edge.file_path) ?? []), edge]);
  }

  /**
   * Where a module of the scope gets a name it does not define but re-exports; null when the file defines
   * it or says nothing of it. At most one renaming is followed (one line proves it).
   */
  passedOn(file: string, name: string, alias?: AliasSite, depth = 0): PassedOn | null {
    if (depth > MAX_REEXPORT_HOPS || this.defines(file, name)) return null;
    let outside: PassedOn | null = null;
    for (const edge of this.byFile.get(file) ?? []) {
      const spec = edge.reexported ? edge.reexported.find((r) => r.exported === name) : { imported: name, line: edge.line };
      if (!spec) continue;
      const renamed = spec.imported !== name;
      if (renamed && alias) continue;
      const via = renamed ? { name, file_path: file, line: spec.line } : alias;
      const found = { name: spec.imported, ...(via ? { alias: via } : {}) };
      if (edge.resolved_path !== undefined) {
        const further = this.passedOn(edge.resolved_path, spec.imported, via, depth + 1);
        if (further) return further;
        if (this.defines(edge.resolved_path, spec.imported)) return { file: edge.resolved_path, ...found };
      } else {
        const module = relativeTarget(file, edge.target);
        if (module === null || (outside && !edge.reexported)) continue;
        outside = { module, ...found };
        if (edge.reexported) return outside;
      }
    }
    return outside;
  }
}

/** A relative module spec (`../core/index.js`) as a root-relative path from the file writing it; null for a package name. */
export function relativeTarget(fromFile: string, target: string): string | null {
  return /^\.\.?\//.test(target) ? posix.normalize(posix.join(posix.dirname(fromFile), target)) : null;
}

/** `src/v4/core/index.js` as the module spec a file in `src/v4/classic/` writes: `../core/index.js`. */
export function relativeModule(fromFile: string, module: string): string {
  const path = posix.relative(posix.dirname(fromFile), module);
  return path.startsWith(".") ? path : `./${path}`;
}
