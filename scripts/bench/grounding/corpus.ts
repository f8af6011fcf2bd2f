// Fetching a grounding corpus at run time, never committing it: an npm package's tarball (`npm pack`) or
// Debian packages (`apt-get download`, `dpkg-deb -x`, and a tarball inside them for linux-source), cut
// down to the case file's paths. A fetched corpus is kept under the cache directory, keyed by its source,
// so the next run (and its stored indexes) reuse it.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CaseFile, CorpusSource } from "./cases.js";

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** $XDG_CACHE_HOME/lattice-mesh/grounding, else ~/.cache/lattice-mesh/grounding. */
export function defaultCacheDir(): string {
  const cache = process.env["XDG_CACHE_HOME"];
  return join(cache && cache.length > 0 ? cache : join(homedir(), ".cache"), "lattice-mesh", "grounding");
}

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as Error & { stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${(e.stderr ?? e.message).trim().split("\n").slice(-3).join(" ")}`);
  }
}

/** Copy the kept paths (directories end in "/") from an unpacked tree into the corpus root. */
function keepPaths(from: string, paths: readonly string[], root: string): void {
  for (const path of paths) {
    const source = join(from, path);
    if (!existsSync(source)) throw new Error(`the fetched source has no ${path}`);
    const isDir = statSync(source).isDirectory();
    if (path.endsWith("/") !== isDir) throw new Error(`${path} is ${isDir ? "a directory: end it in /" : "a file: drop the trailing /"}`);
    cpSync(source, join(root, path), { recursive: true });
  }
}

function fetchNpm(source: Extract<CorpusSource, { kind: "npm" }>, work: string, root: string): void {
  const name = run("npm", ["pack", `${source.package}@${source.version}`, "--silent", "--pack-destination", work], work).trim().split("\n").at(-1) ?? "";
  const unpacked = join(work, "unpacked");
  mkdirSync(unpacked);
  run("tar", ["-xzf", join(work, name), "-C", unpacked], work);
  keepPaths(join(unpacked, source.strip), source.paths, root);
}

function fetchDebian(source: Extract<CorpusSource, { kind: "debian" }>, work: string, root: string): void {
  run("apt-get", ["download", ...source.packages], work);
  const unpacked = join(work, "unpacked");
  mkdirSync(unpacked);
  for (const deb of readdirSync(work).filter((f) => f.endsWith(".deb"))) run("dpkg-deb", ["-x", join(work, deb), unpacked], work);
  if (!source.archive) return keepPaths(join(unpacked, source.strip), source.paths, root);
  const inner = join(work, "archive");
  mkdirSync(inner);
  // Only the kept members are unpacked: linux-source is a 140 MB tarball of a 1.3 GB tree.
  run("tar", ["-xf", join(unpacked, source.archive), "-C", inner, ...source.paths.map((p) => `${source.strip}${p.replace(/\/$/, "")}`)], work);
  keepPaths(join(inner, source.strip), source.paths, root);
}

/**
 * The corpus's root directory, fetched now unless the cache already holds this exact source. Returns
 * the path, and whether it was fetched in this run.
 */
export function prepareCorpus(cases: CaseFile, cacheDir: string): { root: string; fetched: boolean } {
  const { source } = cases;
  if (source.kind === "repo") return { root: join(REPO_ROOT, source.path), fetched: false };
  const root = join(cacheDir, "corpora", cases.corpus);
  const marker = join(cacheDir, "corpora", `${cases.corpus}.source.json`);
  const wanted = JSON.stringify(source);
  if (existsSync(root) && existsSync(marker) && readFileSync(marker, "utf8") === wanted) return { root, fetched: false };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(cacheDir, `fetch-${cases.corpus}-`));
  try {
    if (source.kind === "npm") fetchNpm(source, work, root);
    else fetchDebian(source, work, root);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`cannot fetch corpus ${cases.corpus}: ${(error as Error).message}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  writeFileSync(marker, wanted);
  return { root, fetched: true };
}
