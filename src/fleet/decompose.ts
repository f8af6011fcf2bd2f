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

/** Paths named in a packed scope's name; the rest are counted ("a_b_c_2more"). */
const NAMED_PATHS = 3;

const slug = (text: string): string => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase();
const stem = (path: string): string => path.replace(/\/$/, "").replace(/\.[^/.]+$/, "");

/**
 * A short, unique, readable scope name from its paths: the first in full ("drivers/net/" → "drivers-net"),
 * then the last part of the next ones, so a scope of packed siblings says what it holds
 * ("asyncio/", "email/", "http/" → "asyncio_email_http").
 */
function nameFor(piece: Piece, taken: Set<string>): string {
  const [first = "root", ...rest] = piece.paths;
  const parts = [slug(stem(first)) || "root", ...rest.slice(0, NAMED_PATHS - 1).map((p) => slug(stem(p).split("/").pop() ?? p) || "root")];
  const unnamed = piece.paths.length - NAMED_PATHS;
  const base = `${parts.join("_")}${unnamed > 0 ? `_${unnamed}more` : ""}`.slice(0, 56);
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
