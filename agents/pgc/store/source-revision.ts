// The git revision of a scope root, when it is a repository (spawned without a shell).
import { execFile } from "node:child_process";

export const GIT_REVISION_TIMEOUT_MS = 5_000;

export function gitHead(root: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["rev-parse", "HEAD"], { cwd: root, timeout: GIT_REVISION_TIMEOUT_MS }, (error, stdout) => {
      resolve(error ? null : stdout.trim() || null);
    });
  });
}
