// Splitting a code base into scopes automatically: directories are kept whole while they fit the
// target size (a subsystem or package stays one scope), larger ones are split along their
// subdirectories, only tiny siblings are packed together, and a file is never split.

/** The largest automatic target, in lines of text (seed 002 §4: kernel subsystems of tens of thousands of lines). */
export const DEFAULT_TARGET_LINES = 50_000;
/** Without a target, a code base is cut into about this many scopes, so a mid-sized one gets a fleet too. */
export const AUTO_SCOPES = 8;
/** Below this target a split stops paying: a code base under it stays one scope. */
export const MIN_AUTO_TARGET_LINES = 5_000;
/** A piece under target ÷ this is too small to be a worker's whole scope, and is packed with its siblings. */
const SMALL_PIECE_DIVISOR = 10;
/** Packed tiny pieces fill a scope up to target ÷ this: a handful of unrelated packages, not dozens. */
const PACKED_SCOPE_DIVISOR = 4;
/** A group of tiny pieces under target ÷ this (a loose index file, say) is leftovers, not a worker's scope. */
const LEFTOVER_DIVISOR = 100;
/**
 * An automatic split giving more scopes than this many times the code's size in targets (and more than
 * 4 × AUTO_SCOPES) packs harder: a monorepo of fifty 3,000-line packages gets about ten workers, not fifty.
 */
const CROWDED_FACTOR = 2;

/** How packing treats siblings: pieces under target ÷ small are packed, up to target ÷ packed per scope. */
interface PackRule {
  small: number;
  packed: number;
}
const KEEP_PACKAGES: PackRule = { small: SMALL_PIECE_DIVISOR, packed: PACKED_SCOPE_DIVISOR };
/** For a crowded split: anything under half the target is packed, up to the target. */
const PACK_HARD: PackRule = { small: 2, packed: 1 };

/**
 * The target used when none is given: an eighth of the code base, at least MIN_AUTO_TARGET_LINES and at
 * most DEFAULT_TARGET_LINES (rxjs's 21,000 lines: 5,000; Python's standard library: about 38,000; a kernel: 50,000).
 */
export function autoTargetLines(totalLines: number): number {
  return Math.min(DEFAULT_TARGET_LINES, Math.max(MIN_AUTO_TARGET_LINES, Math.ceil(totalLines / AUTO_SCOPES)));
}

export interface SizedFile {
  /** Root-relative POSIX path. */
  path: string;
  lines: number;
}

export interface ProposedScope {
  name: string;
  /** Scope paths: directories end in "/", single files do not. */
  paths: string[];
  files: number;
  lines: number;
}

interface DirNode {
  path: string; // "" for the root, else "a/b/"
  lines: number;
  files: number;
  dirs: Map<string, DirNode>;
  loose: SizedFile[];
}

function newDir(path: string): DirNode {
  return { path, lines: 0, files: 0, dirs: new Map(), loose: [] };
}

function buildTree(files: readonly SizedFile[]): DirNode {
  const root = newDir("");
  for (const file of files) {
    const parts = file.path.split("/");
    let node = root;
    node.lines += file.lines;
    node.files++;
    for (const part of parts.slice(0, -1)) {
      const path = `${node.path}${part}/`;
      let child = node.dirs.get(part);
      if (!child) node.dirs.set(part, (child = newDir(path)));
      child.lines += file.lines;
      child.files++;
      node = child;
    }
    node.loose.push(file);
  }
  return root;
}

/** Files in order, cut into runs of at most `cap` lines; a file bigger than that is a run of its own. */
function runsUpTo(files: readonly SizedFile[], cap: number): SizedFile[][] {
  const runs: SizedFile[][] = [];
  let run: SizedFile[] = [];
  let lines = 0;
  for (const file of files) {
    if (run.length > 0 && lines + file.lines > cap) {
      runs.push(run);
      run = [];
      lines = 0;
    }
    run.push(file);
    lines += file.lines;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The files of a directory too big for one scope, in as few runs of at most `target` lines as filling
 * gives, but evened out: the smallest cap that still gives that many runs (no remainder of a few lines).
 * Fewer runs never need a smaller cap, so the cap is found by bisection.
 */
function balancedGroups(files: readonly SizedFile[], target: number): SizedFile[][] {
  if (files.length === 0) return [];
  const count = runsUpTo(files, target).length;
  let low = 0;
  let high = target;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (runsUpTo(files, mid).length <= count) high = mid;
    else low = mid + 1;
  }
  return runsUpTo(files, low);
}

interface Piece {
  paths: string[];
  lines: number;
  files: number;
  /** The directory whose split produced this piece: only siblings are packed together. */
  parent: string;
}

/** Pieces no larger than the target where possible: whole directories, or loose files of a directory. */
function pieces(dir: DirNode, target: number, parent: string): Piece[] {
  if (dir.lines <= target) {
    // The root has no path of its own: a code base that fits is one scope of everything at its top.
    const paths = dir.path !== "" ? [dir.path] : [...[...dir.dirs.values()].map((d) => d.path), ...dir.loose.map((f) => f.path)].sort((a, b) => a.localeCompare(b));
    return [{ paths, lines: dir.lines, files: dir.files, parent }];
  }
  const out: Piece[] = [];
  for (const child of [...dir.dirs.values()].sort((a, b) => a.path.localeCompare(b.path))) out.push(...pieces(child, target, dir.path));
  const files = [...dir.loose].sort((a, b) => a.path.localeCompare(b.path));
  for (const group of balancedGroups(files, target)) {
    out.push({ paths: group.map((file) => file.path), lines: group.reduce((sum, file) => sum + file.lines, 0), files: group.length, parent: dir.path });
  }
  return out;
}

/** The order a piece came in, so packing keeps the tree's order. */
type Numbered = Piece & { order: number };

function absorb(into: Piece, piece: Piece): void {
  into.paths.push(...piece.paths);
  into.lines += piece.lines;
  into.files += piece.files;
}

/**
 * Pack tiny siblings (pieces of one directory under a tenth of the target) together, up to a quarter
 * of the target per scope; a piece of any real size stays alone, so a package keeps its own scope and
 * its own name. Leftovers (under a hundredth of the target, say a directory's loose index file) join
 * their smallest sibling that has room instead of becoming a worker of their own.
 */
function pack(all: readonly Piece[], target: number, rule: PackRule = KEEP_PACKAGES): Piece[] {
  const small = target / rule.small;
  const packedMax = target / rule.packed;
  const leftover = target / LEFTOVER_DIVISOR;
  const byParent = new Map<string, Numbered[]>();
  all.forEach((piece, order) => {
    const siblings = byParent.get(piece.parent) ?? [];
    siblings.push({ ...piece, paths: [...piece.paths], order });
    byParent.set(piece.parent, siblings);
  });
  const out: Numbered[] = [];
  for (const siblings of byParent.values()) {
    const kept = siblings.filter((piece) => piece.lines >= small);
    const groups: Numbered[] = [];
    for (const piece of siblings.filter((p) => p.lines < small)) {
      const last = groups.at(-1);
      if (last && last.lines + piece.lines <= packedMax) absorb(last, piece);
      else groups.push(piece);
    }
    for (const group of groups) {
      const home = group.lines < leftover ? kept.filter((piece) => piece.lines + group.lines <= target).sort((a, b) => a.lines - b.lines)[0] : undefined;
      if (home) absorb(home, group);
      else out.push(group);
    }
    out.push(...kept);
  }
  return out.sort((a, b) => a.order - b.order).map(({ order: _order, ...piece }) => piece);
}

/** Paths named in a scope of packed directories; the rest are counted ("a_b_c_2more"). */
const NAMED_PATHS = 3;
/** Room left in a 64-character node id for the replica suffix ("-12") and a uniqueness suffix ("-3"). */
const MAX_NAME_CHARS = 56;

const slug = (text: string): string => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase();
const stem = (path: string): string => path.replace(/\/$/, "").replace(/\.[^/.]+$/, "");
const parentOf = (path: string): string => path.replace(/\/$/, "").split("/").slice(0, -1).join("/");

/**
 * A short, unique, readable scope name from its paths, valid as part of a node id:
 * - one path: the path ("drivers/net/" → "drivers-net");
 * - files of one directory (a directory too big for one scope, split): the directory, numbered by the
 *   uniqueness suffix ("mm", "mm-2", "mm-3");
 * - packed sibling directories: the first in full, then the others' last parts, then a count
 *   ("asyncio/", "email/", "http/" → "asyncio_email_http"; "lib/a/" … "lib/e/" → "lib-a_b_c_2more").
 */
function nameFor(piece: Piece, taken: Set<string>): string {
  const [first = "", ...rest] = piece.paths;
  const parent = parentOf(first);
  const splitDirectory = rest.length > 0 && piece.paths.every((p) => !p.endsWith("/") && parentOf(p) === parent);
  let base: string;
  if (splitDirectory) base = slug(parent) || "root";
  else {
    const parts = [slug(stem(first)) || "root", ...rest.slice(0, NAMED_PATHS - 1).map((p) => slug(stem(p).split("/").pop() ?? p) || "root")];
    const unnamed = piece.paths.length - parts.length;
    base = `${parts.join("_")}${unnamed > 0 ? `_${unnamed}more` : ""}`;
    // Too long: drop named parts from the end (counting them instead) rather than cut a word.
    while (base.length > MAX_NAME_CHARS && parts.length > 1) {
      parts.pop();
      base = `${parts.join("_")}_${piece.paths.length - parts.length}more`;
    }
    base = base.slice(0, MAX_NAME_CHARS);
  }
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  taken.add(name);
  return name;
}

/** Scopes for `files`; without `targetLines`, the target is autoTargetLines of their total. */
/**
 * Scopes for `files`. Without `targetLines`, the target is autoTargetLines of their total, and a split
 * crowded with packages (more than CROWDED_FACTOR scopes per target's worth of code, and more than
 * 4 × AUTO_SCOPES) packs harder, as a given target never does.
 */
export function proposeScopes(files: readonly SizedFile[], targetLines?: number): ProposedScope[] {
  if (files.length === 0) return [];
  const tree = buildTree(files);
  const target = targetLines ?? autoTargetLines(tree.lines);
  const all = pieces(tree, target, "");
  let packed = pack(all, target);
  const crowded = Math.max(4 * AUTO_SCOPES, CROWDED_FACTOR * Math.ceil(tree.lines / target));
  if (targetLines === undefined && packed.length > crowded) packed = pack(all, target, PACK_HARD);
  const taken = new Set<string>();
  return packed.map((piece) => ({ name: nameFor(piece, taken), paths: piece.paths, files: piece.files, lines: piece.lines }));
}
