// Named points where a test may have the manager die as if killed (SIGKILL): `MESH_CRASH_AT=NAME` in the
// manager's environment. They mark the moments the journal must cover (docs/MANAGER.md, "The journal"):
//   after_journal  a task is journaled as accepted, not yet sent to a worker
//   after_reply    the worker's reply has arrived, not yet recorded (no manifest line, not marked done)
// Unset, a crash point costs one comparison.
export const CRASH_AT_ENV = "MESH_CRASH_AT";
export type CrashPoint = "after_journal" | "after_reply";

export function crashPoint(name: CrashPoint): void {
  if (process.env[CRASH_AT_ENV] === name) process.kill(process.pid, "SIGKILL");
}
