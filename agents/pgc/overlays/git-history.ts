// Per-file git history of a scope from one bounded `git log` (never one process per file, never a shell).
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Commits read at most; older history adds little to "what changed recently" and costs time. */
export const MAX_HISTORY_COMMITS = 5_000;
export const GIT_TIMEOUT_MS = 30_000;
const GIT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Recent commits kept per file, newest first. */
const RECENT_COMMITS_PER_FILE = 5;
const RECORD = "\x1e";
const FIELD = "\x1f";

export interface CommitSummary {
  hash: string;
  /** Author date, ISO 8601 as git prints it (`%aI`). */
  date: string;
  author: string;
  subject: string;
}

export interface FileHistory {
  path: string;
  commits: number;
  /** Newest first, at most five. */
  recent: CommitSummary[];
}

export interface GitHistory {
  files: Map<string, FileHistory>;
  /** Date of the newest commit seen, the reference point for "recent". */
  newest: string | null;
}

export interface GitHistoryOptions {
  /** Real path of the scope root; paths in the result are relative to it. */
  root: string;
  scopePaths?: readonly string[];
  maxCommits?: number;
}

/** The history of the scope, or null when the root is not in a git work tree or git is unavailable. */
export async function readGitHistory(options: GitHistoryOptions): Promise<GitHistory | null> {
  const pathspecs = options.scopePaths && options.scopePaths.length > 0 ? [...options.scopePaths] : ["."];
  const args = [
    "-c", "core.quotePath=false", "log", `--max-count=${options.maxCommits ?? MAX_HISTORY_COMMITS}`,
    "--no-renames", "--relative", `--format=${RECORD}%H${FIELD}%aI${FIELD}%an${FIELD}%s`, "--name-only", "--", ...pathspecs,
  ];
  try {
    const { stdout } = await execFileAsync("git", args, {
      cwd: options.root,
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: GIT_MAX_OUTPUT_BYTES,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
    });
    return parseGitLog(stdout);
  } catch {
    return null;
  }
}

/** Parses `git log --format=<RS>hash<US>date<US>author<US>subject --name-only`, newest commit first. */
export function parseGitLog(output: string): GitHistory {
  const history: GitHistory = { files: new Map(), newest: null };
  for (const record of output.split(RECORD)) {
    const [header, ...paths] = record.split("\n");
    const [hash, date, author, subject] = (header ?? "").split(FIELD);
    if (!hash || !date) continue;
    history.newest ??= date;
    const commit: CommitSummary = { hash, date, author: author ?? "", subject: subject ?? "" };
    for (const filePath of paths) if (filePath.trim() !== "") addCommit(history, filePath.trim(), commit);
  }
  return history;
}

function addCommit(history: GitHistory, filePath: string, commit: CommitSummary): void {
  const entry = history.files.get(filePath) ?? { path: filePath, commits: 0, recent: [] };
  entry.commits++;
  if (entry.recent.length < RECENT_COMMITS_PER_FILE) entry.recent.push(commit);
  history.files.set(filePath, entry);
}
