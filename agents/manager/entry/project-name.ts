// The code base's own name ("ProseMirror", "TanStack Table", "dulwich"): every function of the fleet belongs
// to it, so a question naming it says nothing about where its path runs. Read once from the fleet's root:
// the directory's name and the name its package manifest gives (package.json, pyproject.toml, setup.cfg,
// Cargo.toml, go.mod).
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { tokenize } from "../../pgc/retrieval/index.js";

/** A name made comparable with what a question writes: lowercase letters and digits only. */
function compact(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The names manifests at the root give the project (an npm scope with its name, a Go module's last segment). */
function manifestNames(root: string): string[] {
  const read = (file: string) => {
    try {
      return readFileSync(join(root, file), "utf8");
    } catch {
      return "";
    }
  };
  const names: string[] = [];
  try {
    const name = (JSON.parse(read("package.json") || "{}") as { name?: unknown }).name;
    if (typeof name === "string") names.push(name);
  } catch {
    // A package.json that is not JSON names nothing.
  }
  for (const [file, pattern] of [
    ["pyproject.toml", /^\s*name\s*=\s*["']([^"']+)["']/m],
    ["setup.cfg", /^\s*name\s*=\s*(\S+)/m],
    ["Cargo.toml", /^\s*name\s*=\s*["']([^"']+)["']/m],
    ["go.mod", /^\s*module\s+(?:\S+\/)?([^/\s]+)\s*$/m],
  ] as const) {
    const found = pattern.exec(read(file))?.[1];
    if (found) names.push(found);
  }
  return names;
}

/**
 * The project's names, compacted: each run of a name's parts (`ts-prosemirror-view` → tsprosemirrorview,
 * tsprosemirror, prosemirrorview, prosemirror, view). Runs shorter than 3 characters are left out (`ts`,
 * `py`, `c` say nothing).
 */
export function projectNames(root: string | undefined): ReadonlySet<string> {
  if (!root) return new Set();
  const out = new Set<string>();
  for (const name of [basename(root), ...manifestNames(root)]) {
    const parts = name.split(/[-_.@/\s]+/).map(compact).filter(Boolean);
    for (let from = 0; from < parts.length; from++) {
      for (let to = from + 1; to <= parts.length; to++) {
        const run = parts.slice(from, to).join("");
        if (run.length >= 3) out.add(run);
      }
    }
  }
  return out;
}

/** A word of the question as written: letters and digits, joined by `-`, `_`, `.` or `/`. */
const RUN = /[A-Za-z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)*/g;

/**
 * The question's terms that are the project's name: those of each word it writes whose compact form is one
 * of the names ("ProseMirror" → prose, mirror, prosemirror; "prosemirror-view"), and the compound terms
 * of such words.
 */
export function projectTerms(text: string, names: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set<string>();
  if (names.size === 0) return out;
  for (const [run] of text.matchAll(RUN)) {
    if (!names.has(compact(run))) continue;
    for (const term of tokenize(run)) out.add(term);
    out.add(run.toLowerCase());
    out.add(compact(run));
  }
  return out;
}
