// Splitting a code base into scopes automatically: directories are kept whole while they fit the
// target size (a subsystem stays one scope), larger ones are split along their subdirectories, small
// siblings are packed together, and a file is never split.

/** Default scope size, in lines of text (seed 002 §4: kernel subsystems of tens of thousands of lines). */
export const DEFAULT_TARGET_LINES = 50_000;

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

interface Piece {
  paths: string[];
  lines: number;
  files: number;
  /** The directory whose split produced this piece: only siblings are packed together. */
  parent: string;
}

/** Pieces no larger than the target where possible: whole directories, or loose files of a directory. */
function pieces(dir: DirNode, target: number, parent: string): Piece[] {
  if (dir.lines <= target && dir.path !== "") return [{ paths: [dir.path], lines: dir.lines, files: dir.files, parent }];
  const out: Piece[] = [];
  for (const child of [...dir.dirs.values()].sort((a, b) => a.path.localeCompare(b.path))) out.push(...pieces(child, target, dir.path));
  let group: Piece = { paths: [], lines: 0, files: 0, parent: dir.path };
  for (const file of [...dir.loose].sort((a, b) => a.path.localeCompare(b.path))) {
    if (group.paths.length > 0 && group.lines + file.lines > target) {
      out.push(group);
      group = { paths: [], lines: 0, files: 0, parent: dir.path };
    }
    group.paths.push(file.path);
    group.lines += file.lines;
    group.files++;
  }
  if (group.paths.length > 0) out.push(group);
  return out;
}

/** Pack adjacent small pieces together until a scope would pass the target. */
function pack(all: readonly Piece[], target: number): Piece[] {
  const packed: Piece[] = [];
  for (const piece of all) {
    const last = packed.at(-1);
    if (last && last.parent === piece.parent && last.lines + piece.lines <= target && last.lines < target / 2) {
      last.paths.push(...piece.paths);
      last.lines += piece.lines;
      last.files += piece.files;
    } else packed.push({ ...piece, paths: [...piece.paths] });
  }
  return packed;
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

export function proposeScopes(files: readonly SizedFile[], targetLines = DEFAULT_TARGET_LINES): ProposedScope[] {
  if (files.length === 0) return [];
  const tree = buildTree(files);
  const taken = new Set<string>();
  return pack(pieces(tree, targetLines, ""), targetLines).map((piece) => ({ name: nameFor(piece, taken), paths: piece.paths, files: piece.files, lines: piece.lines }));
}
