// The CDP workspace of one task (seed 000): .agent-workspaces/{task-id}/ with HANDOFF.md, WORK.md and,
// from the agent, OUTPUT.md. Task ids become safe directory names that cannot leave the workspace root.
import { createHash } from "node:crypto";
import { lstat, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { resolveInsideScope } from "../../pgc/scan/index.js";
import { lockWorkspace } from "./workspace-lock.js";

export const WORKSPACES_DIR = ".agent-workspaces";
export const HANDOFF_FILE = "HANDOFF.md";
export const WORK_FILE = "WORK.md";
export const OUTPUT_FILE = "OUTPUT.md";
export const EXEC_LOG_FILE = "exec.log";
/** Longest directory name taken from a task id (ids may be 256 characters). */
export const MAX_WORKSPACE_NAME_CHARS = 100;
/** Hex digits of the id's hash appended when the id had to be changed, so two ids never share a name. */
const NAME_HASH_HEX = 8;

/** A directory name for a task id: [A-Za-z0-9._-] only, never starting with ".", bounded, collision-free. */
export function workspaceName(taskId: string): string {
  const safe = taskId.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\./, "_").slice(0, MAX_WORKSPACE_NAME_CHARS);
  if (safe === taskId && safe.length > 0) return safe;
  const hash = createHash("sha256").update(taskId, "utf8").digest("hex").slice(0, NAME_HASH_HEX);
  return `${safe || "task"}-${hash}`;
}

export interface Workspace {
  /** Absolute real path of the task's workspace directory. */
  readonly dir: string;
  /** Writes a file the worker owns; a file or symlink an earlier run left there is replaced, never followed. */
  write(name: string, text: string): Promise<void>;
  release(): Promise<void>;
}

/** Files of an earlier run of the same task that must not be mistaken for this run's. */
const STALE_FILES = [HANDOFF_FILE, WORK_FILE, OUTPUT_FILE, EXEC_LOG_FILE];

/**
 * Creates (or reuses) the task's workspace under `root` and locks it until `until`. Throws
 * ScopeViolationError when the directory would resolve outside the workspaces directory (a planted
 * symlink), and WorkspaceBusyError when another run of the task holds it.
 */
export async function openWorkspace(root: string, taskId: string, until: number): Promise<Workspace> {
  const parent = join(root, WORKSPACES_DIR);
  await mkdir(parent, { recursive: true });
  const dir = await resolveInsideScope(parent, workspaceName(taskId));
  await mkdir(dir, { recursive: true });
  if (!(await lstat(dir)).isDirectory()) throw new Error(`${dir} is not a directory`);
  const release = await lockWorkspace(dir, until);
  try {
    await Promise.all(STALE_FILES.map((name) => rm(join(dir, name), { force: true })));
  } catch (error) {
    await release();
    throw error;
  }
  return Object.freeze({
    dir,
    // wx after rm: a symlink planted since then makes the write fail instead of writing through it.
    write: (name: string, text: string) => rm(join(dir, name), { force: true }).then(() => writeFile(join(dir, name), text, { flag: "wx" })),
    release,
  });
}
