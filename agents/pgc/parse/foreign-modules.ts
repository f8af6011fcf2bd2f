// Whether a module the root holds no file of belongs to another code base altogether — a package installed
// from elsewhere — rather than to a part of this one laid out where the import rules do not look. A call of a
// name imported from such a module calls no function of the code base (PGC.md, "foreign modules").
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** How deep below the root the layout looks for packages (`packages/foo/src/foo/` is four levels). */
export const LAYOUT_DEPTH = 4;
/** Directories read at most; a larger tree is not looked through, and no module is called foreign. */
export const LAYOUT_MAX_DIRECTORIES = 20_000;
const SKIPPED = new Set(["node_modules", "__pycache__"]);
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const;

interface PackageJson {
  name: string | null;
  dependencies: ReadonlySet<string>;
}

/** What of the root's layout the rules need: names of its directories and Python modules, and its package.json files. */
interface Layout {
  /** Directory names and `.py`/`.pyi` stems anywhere within LAYOUT_DEPTH, the root itself excepted. */
  names: ReadonlySet<string>;
  /** Names the package.json files within LAYOUT_DEPTH give their packages. */
  packageNames: ReadonlySet<string>;
}

/** Answers, per root, whether a module no file of the root resolves is foreign: read lazily, once. */
export class ForeignModules {
  private layout: Promise<Layout | null> | null = null;
  private readonly manifests = new Map<string, Promise<PackageJson | null>>();

  constructor(
    private readonly root: string,
    private readonly exists: (candidate: string) => Promise<boolean>,
  ) {}

  /**
   * Python `a.b.c` (absolute, not the standard library, resolving to no file under the root or `src/`): foreign
   * when its top package `a` is nowhere in the root; when the root is that package itself (a root named `pip`
   * for `pip._vendor.packaging`), when the rest is no file of it. Unknown layouts (too large) are never foreign.
   */
  async python(module: string): Promise<boolean> {
    const parts = module.split(".");
    const top = parts[0] as string;
    if (top === "" || parts.some((p) => p === "")) return false;
    if (top === path.basename(this.root)) {
      if (parts.length === 1) return false;
      const rest = parts.slice(1).join("/");
      for (const candidate of [`${rest}.py`, `${rest}.pyi`, `${rest}/__init__.py`]) if (await this.exists(candidate)) return false;
      return true;
    }
    const layout = await this.readLayout();
    return layout !== null && !layout.names.has(top);
  }

  /**
   * TS/JS bare spec (`yaml`, `@scope/pkg/sub`): foreign when the nearest package.json above the importing
   * file (within the root) lists its package among its dependencies and no package.json of the root is that
   * package (a workspace's own packages depend on each other). Without a package.json, nothing is foreign.
   */
  async script(spec: string, fromFile: string): Promise<boolean> {
    const parts = spec.split("/");
    const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
    for (let dir = path.posix.dirname(fromFile); ; dir = path.posix.dirname(dir)) {
      const manifest = await this.manifest(dir === "." ? "" : dir);
      if (manifest) {
        if (manifest.name === name || !manifest.dependencies.has(name)) return false;
        const layout = await this.readLayout();
        return layout !== null && !layout.packageNames.has(name);
      }
      if (dir === "." || dir === "/" || dir === "") return false;
    }
  }

  private manifest(dir: string): Promise<PackageJson | null> {
    let known = this.manifests.get(dir);
    if (!known) {
      known = readPackageJson(path.join(this.root, dir, "package.json"));
      this.manifests.set(dir, known);
    }
    return known;
  }

  private readLayout(): Promise<Layout | null> {
    this.layout ??= readLayout(this.root, (dir) => this.manifest(dir));
    return this.layout;
  }
}

async function readPackageJson(file: string): Promise<PackageJson | null> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    const dependencies = new Set<string>();
    for (const field of DEPENDENCY_FIELDS) {
      const listed = parsed[field];
      if (listed && typeof listed === "object") for (const key of Object.keys(listed)) dependencies.add(key);
    }
    return { name: typeof parsed["name"] === "string" ? parsed["name"] : null, dependencies };
  } catch {
    return null;
  }
}

/**
 * Breadth-first over the root's directories (hidden ones, node_modules and __pycache__ skipped); each
 * package.json read through `manifestIn` (root-relative directory), which reads a file once.
 */
async function readLayout(root: string, manifestIn: (dir: string) => Promise<PackageJson | null>): Promise<Layout | null> {
  const names = new Set<string>();
  const manifestDirs: string[] = [];
  let level = [""];
  let read = 0;
  for (let depth = 0; depth <= LAYOUT_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++read > LAYOUT_MAX_DIRECTORIES) return null;
      const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (SKIPPED.has(entry.name)) continue;
          names.add(entry.name);
          next.push(rel);
        } else if (entry.isFile()) {
          const python = /^(.+)\.pyi?$/.exec(entry.name);
          if (python) names.add(python[1] as string);
          else if (entry.name === "package.json") manifestDirs.push(dir);
        }
      }
    }
    level = next;
  }
  const packageNames = new Set<string>();
  for (const dir of manifestDirs) {
    const manifest = await manifestIn(dir);
    if (manifest?.name) packageNames.add(manifest.name);
  }
  return { names, packageNames };
}
