// Named points where a test may have the manager die as if killed (SIGKILL): `MESH_CRASH_AT=NAME` in the
// manager's environment. They mark the moments the journal must cover (docs/MANAGER.md, "The journal"):
//   after_journal  a task is journaled as accepted, not yet sent to a worker
//   after_reply    the worker's reply has arrived, not yet recorded (no manifest line, not marked done)
//   before_answer  a question was accepted, nothing of its answer computed (questions are not journaled:
//                  read-only and idempotent, the client asks the new manager again under the same id)
// Unset, a crash point costs one comparison.
export const CRASH_AT_ENV = "MESH_CRASH_AT";
export type CrashPoint = "after_journal" | "after_reply" | "before_answer";

export function crashPoint(name: CrashPoint): void {
  if (process.env[CRASH_AT_ENV] === name) process.kill(process.pid, "SIGKILL");
}
