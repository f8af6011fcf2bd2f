// A TS/JS package's public surface: the files its entry module re-exports, directly or through other
// modules (`src/index.ts` → `export * from "./v4/classic/external.js"` → `export * from "./schemas.js"`).
// A question about a package's API (`z.object().extend()`) means the code users reach through that entry,
// not a legacy copy beside it (`src/v3/`), a variant on a subpath, a benchmark or a test.

/** A re-export edge from the scope facts: root-relative file and target. */
export interface Reexport {
  from: string;
  to: string;
}

const SCRIPT = /\.(d\.ts|[cm]?[jt]sx?)$/;
const INDEX = /(^|\/)index$/;

/** `src/v4/core/index.ts` → `src/v4/core/index`; a target as written (`./schemas.js`, `../core`) the same way. */
function keyOf(path: string): string {
  return path.replace(SCRIPT, "").replace(/\/$/, "");
}

function depth(key: string): number {
  return key.split("/").length;
}

export class PublicSurface {
  private constructor(
    private readonly reached: ReadonlySet<string>,
    readonly entries: readonly string[],
  ) {}

  /**
   * The surface from the shallowest index modules that re-export anything (the package's entry; deeper
   * ones are subpaths or internals); null when the code has no re-exporting index module.
   */
  static of(edges: readonly Reexport[]): PublicSurface | null {
    const next = new Map<string, string[]>();
    for (const edge of edges) {
      const from = keyOf(edge.from);
      next.set(from, [...(next.get(from) ?? []), keyOf(edge.to)]);
    }
    const indexes = [...next.keys()].filter((key) => INDEX.test(key));
    if (indexes.length === 0) return null;
    const shallowest = Math.min(...indexes.map(depth));
    const entries = indexes.filter((key) => depth(key) === shallowest).sort();
    const reached = new Set<string>();
    const queue = [...entries];
    for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
      // A directory target (`../core`) is its index module.
      const found = next.has(key) || reached.has(key) ? key : next.has(`${key}/index`) ? `${key}/index` : key;
      if (reached.has(found)) continue;
      reached.add(found);
      queue.push(...(next.get(found) ?? []));
    }
    return new PublicSurface(reached, entries);
  }

  /** True for a script the entry reaches, and for anything that is not a TS/JS script (the surface says nothing of it). */
  has(filePath: string): boolean {
    return !SCRIPT.test(filePath) || this.reached.has(keyOf(filePath));
  }
}
